"""Checks shared by the command-line tests."""

from __future__ import annotations

from typing import Protocol


class CommandResult(Protocol):
    exit_code: int
    stdout: str
    stderr: str
    output: str


def assert_one_error_line(result: CommandResult, fragment: str) -> None:
    """Bad input exits 2 with one ``error:`` line naming ``fragment``: no traceback, no output."""
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert fragment in lines[0]
    assert "Traceback" not in result.output
    assert result.stdout == ""
