"""The ```` ```python ```` examples of the README and the docs, and how a test runs one: on its
own, from a file in a temporary folder, in a fresh interpreter, as a reader who copied just
that block would. An example that cannot run on its own says so on its first line, where a
reader sees it too:

- ``# needs the train extra: pip install -e ".[train]"``: runs where that extra (any name in
  :data:`mattis.extras.EXTRA_MODULES`) is installed, and is skipped where it is not;
- ``# not run: REASON``: never run by the tests (keep these rare; the reason is shown).

The examples run with one BLAS thread: the numpy learner multiplies small matrices, which
many threads only slow down on a busy machine."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from mattis.extras import EXTRA_MODULES, missing_modules

ROOT = Path(__file__).resolve().parent.parent
NEEDS_EXTRA = re.compile(r"# needs the (\w+) extra\b")
NOT_RUN = re.compile(r"# not run: (\S.*)")


def python_blocks(page: Path) -> list[str]:
    """The ```` ```python ```` blocks of a Markdown page, in order."""
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


@dataclass(frozen=True, slots=True)
class Example:
    """One block of one page: where it is (``docs/api.md:2``) and its code."""

    page: Path
    number: int
    code: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.number}"

    def why_not_run(self) -> str | None:
        """Why this example does not run here (its first line says so), or ``None``."""
        first = self.code.split("\n", 1)[0]
        if match := NOT_RUN.match(first):
            return f"{self.name}: not run on its own: {match.group(1)}"
        if match := NEEDS_EXTRA.match(first):
            extra = match.group(1)
            assert extra in EXTRA_MODULES, f"{self.name}: no extra named {extra!r}"
            if missing_modules(extra):
                return f"{self.name}: needs the {extra} extra, which is not installed"
        return None


def examples(pages: list[Path]) -> list[Example]:
    """Every block of ``pages``, the same code once (a translated page shows the same ones)."""
    seen: set[str] = set()
    found = []
    for page in pages:
        for number, code in enumerate(python_blocks(page), start=1):
            if code not in seen:
                seen.add(code)
                found.append(Example(page, number, code))
    return found


def run_alone(code: str, name: str = "example") -> str:
    """Run ``code`` as a file in a fresh interpreter in an empty temporary folder (a spawned
    worker pool imports the file again, as it would a reader's); its stdout, or an assertion
    error with its stderr."""
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / f"{re.sub(r'[^A-Za-z0-9]+', '_', name)}.py"
        script.write_text(code, encoding="utf-8")
        finished = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                                  timeout=300, env=environment, check=False, cwd=folder)
    assert finished.returncode == 0, f"{name}:\n{finished.stderr}"
    return finished.stdout


SMALLER = {"--games": "2", "--hard-iterations": "1", "--openspiel-simulations": "5", "--steps": "2000",
           "--search-iterations": "10", "--epochs": "1"}
"""The docs' commands run as written but smaller: fewer games, a shorter search (an
entrant's own budget too) and a few thousand training steps, so the options and values they
show are checked without an hour of play."""


def smaller(command: str, folder: Path) -> list[str]:
    """A documented ``mattis …`` command's arguments, made smaller (:data:`SMALLER`), for
    ``CliRunner``: ``--out`` goes into ``folder``, ``--address`` is left out (a local
    instance instead of the docs' cluster), ``--learned-checkpoint`` plays the shipped one,
    and games, searches and labs are as few and small as they go."""
    words = shlex.split(command.split("  #")[0])[1:]
    shown: list[str] = []
    for position, word in enumerate(words):
        before = words[position - 1] if position else ""
        if word == "--address" or before == "--address":
            continue
        if before == "--out":
            word = str(folder / word)
        if before == "--learned-checkpoint":
            word = str(resources.files("mattis").joinpath("data", "master.npz"))  # its policy path
        if before == "--bots":  # an entrant's own budget too: hard:1000 searches as hard:1
            word = re.sub(r":\d+", ":5", re.sub(r"\bhard:\d+", "hard:1", word))
            shipped = resources.files("mattis").joinpath("data", "master.npz")  # a checkpoint of one's own
            word = re.sub(r"learned:[^,]+", f"learned:{shipped}", word)  # is the shipped network
        shown.append(SMALLER.get(before, word))
    if shown[0] in ("tournament", "simulate", "lab") and "--games" not in shown:
        shown += ["--games", SMALLER["--games"]]
    if "--backend" in shown and "--workers" not in shown:
        shown += ["--workers", "2"]
    if shown[0] in ("tournament", "lab") and "--hard-iterations" not in shown:
        shown += ["--hard-iterations", "1"]
    if shown[0] == "lab" and "--players" not in shown:
        shown += ["--players", "3"]
    return shown
