"""``mattis app``: build the installable offline app, or export it as static files.

``mattis app build`` fetches Pyodide from the npm registry (pinned by the lockfile in
``mattis/web/runtime/``) and draws the icons, once; ``mattis serve`` then serves the app, and
``mattis app export --out DIR`` writes all of it as plain files for any static host. Both need
the ``web`` extra (the export precomputes the server's answers) and the build needs npm.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..extras import missing_modules, needs_extra
from .common import fail

commands = typer.Typer(help="Build the installable offline app, or export it as static files.",
                       add_completion=False, no_args_is_help=True)


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@commands.command("build")
def build_command(
    force: Annotated[bool, typer.Option("--force", help="Build again even if the build is current.")] = False,
) -> None:
    """Fetch Pyodide (npm ci, pinned by the lockfile) and draw the icons, unless already done."""
    if missing_modules("web"):
        fail(needs_extra("mattis app", "web"))
    from ..web.pwa import BuildError, build

    try:
        if not build(force=force, say=_say):
            _say("the offline app is built and current")
    except BuildError as error:
        fail(str(error))


@commands.command("export")
def export_command(
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder to write the app into.")],
) -> None:
    """Write the whole offline app as static files (pages, runtime, package, manifest, service
    worker, and the server's answers precomputed in every language)."""
    if missing_modules("web"):
        fail(needs_extra("mattis app", "web"))
    from ..web.app import options_payload, texts_payload
    from ..web.pwa import BuildError, app_files, build, export
    from ..web.rules_page import rules_page

    if out.exists() and not out.is_dir():
        fail(f"--out: {out} is not a folder")
    try:
        build(say=_say)
        count = export(out, app_files(rules_page, options_payload, texts_payload, exported=True))
    except BuildError as error:
        fail(str(error))
    except OSError as error:
        fail(f"--out: cannot write {out}: {error.strerror or error}")
    _say(f"wrote {count} files to {out}; serve that folder at the root of a host, for example: "
         f"python3 -m http.server -d {out}")
