"""Checks shared by the command-line tests."""

from __future__ import annotations

from typing import Protocol


class CommandResult(Protocol):
    @property
    def exit_code(self) -> int: ...
    @property
    def stdout(self) -> str: ...
    @property
    def stderr(self) -> str: ...
    @property
    def output(self) -> str: ...


MAX_ERROR_LINE = 400
"""Longest error line: the longest real message (every option name listed) is about 230
characters, so anything longer is a pasted value echoed in full."""


def assert_one_error_line(result: CommandResult, fragment: str) -> None:
    """Bad input exits 2 with one short ``error:`` line naming ``fragment``: no traceback,
    no output, no control characters."""
    assert result.exit_code == 2, result.output[-2000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("error: ")
    assert fragment in lines[0], lines[0]
    assert len(lines[0]) <= MAX_ERROR_LINE, lines[0][:MAX_ERROR_LINE]
    assert lines[0].isprintable(), repr(lines[0])
    assert "Traceback" not in result.output
    assert result.stdout == ""
