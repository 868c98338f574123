"""Rewrite the generated parts of ``src/mattis/core/game.py`` from ``mattis.core.state.STATE``.

Run it after changing the declaration: ``python dev/generate_state.py``. The test suite checks
that the file is up to date (``tests/test_rules_engine.py``,
``test_the_generated_game_code_is_up_to_date``).
"""

from pathlib import Path

from mattis.core.state import with_generated

GAME_PY = Path(__file__).resolve().parent.parent / "src" / "mattis" / "core" / "game.py"

if __name__ == "__main__":
    old = GAME_PY.read_text(encoding="utf-8")
    new = with_generated(old)
    if new == old:
        print(f"{GAME_PY}: up to date")
    else:
        GAME_PY.write_text(new, encoding="utf-8")
        print(f"{GAME_PY}: rewritten")
