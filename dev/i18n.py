"""The translator's and developer's commands for Mattis's message catalogues (Babel underneath).

    python dev/i18n.py update      # extract the English source texts, bring every .po in step
    python dev/i18n.py compile     # .po -> .mo (the build does this too)
    python dev/i18n.py check       # every missing, fuzzy or mismatched translation, by key
    python dev/i18n.py add LANG    # a new language's .po, every message empty

``docs/translating.md`` shows the whole path. The work is done by ``build_support/catalogues.py``,
which the build uses as well.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "build_support"))

import catalogues


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mattis's message catalogues")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="write the template, src/mattis/locale/mattis.pot")
    commands.add_parser("update", help="extract, then bring every language's .po in step and compile")
    commands.add_parser("compile", help="compile every .po to .mo")
    commands.add_parser("check", help="list every message that needs a translation or a review")
    add = commands.add_parser("add", help="start a new language's catalogue")
    add.add_argument("lang", help="its code, e.g. sv or de")
    arguments = parser.parse_args(argv)
    root = catalogues.ROOT
    if arguments.command == "extract":
        print(catalogues.write_template().relative_to(root))
    elif arguments.command == "update":
        for path in catalogues.update():
            print(f"updated {path.relative_to(root)}")
        catalogues.compile_catalogues()
    elif arguments.command == "compile":
        for path in catalogues.compile_catalogues():
            print(f"compiled {path.relative_to(root)}")
    elif arguments.command == "check":
        found = catalogues.problems()
        for line in found:
            print(line)
        print(f"{len(found)} problems" if found else "every message is translated in every language")
        return 1 if found else 0
    else:
        path = catalogues.add_language(arguments.lang)
        print(f"started {path.relative_to(root)}; "
              f"now add {arguments.lang!r} to Lang in src/mattis/i18n/__init__.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
