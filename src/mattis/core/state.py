"""The one declaration of a game's state, and the code of :class:`~mattis.core.game.Game`
derived from it.

Each field is declared once, in :data:`STATE`: its type, its value before the deal, how a
copy carries it, and the :class:`~mattis.core.position.Position` field that holds it. From
that, :func:`generated_blocks` writes the game's ``__slots__`` and annotations, the method
that starts a blank game, :meth:`Game.copy`, the state comparison behind ``==``,
:meth:`Game.position` and the body of :meth:`Game.from_position`. The code is written into
``game.py`` itself, between marker comments, rather than made at import: it stays plain
straight-line Python that mypy checks, a compiler such as mypyc can compile, and a
traceback can point into, and ``copy()`` is as fast as if written by hand.

To add a field, add its line to :data:`STATE` and run ``python dev/generate_state.py``;
the test suite fails while ``game.py`` is out of date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """How a field is copied, compared and exported."""

    VALUE = "value"
    """An immutable value (a number, a tuple, a frozen object): copies share it, ``==``
    compares it."""
    LIST = "list"
    """A list the engine changes in place: every copy gets its own, ``==`` compares it, and
    a position holds it as a tuple."""
    LOG = "log"
    """A linked list of ``(item, earlier items)`` cells, newest first, that only grows:
    copies share it, ``==`` compares its items, and positions leave it out."""
    DERIVED = "derived"
    """Worked out from other fields, or a cache: copies share it, ``==`` ignores it,
    positions leave it out, and :meth:`Game.from_position` works it out again from its
    start value (which may read the fields declared before it)."""


@dataclass(frozen=True, slots=True)
class StateField:
    """One field of a game's state."""

    slot: str
    """The attribute name."""
    type: str
    """Its type, as written in an annotation."""
    start: str
    """Its value before the deal: an expression that may use ``rules``, ``players``,
    ``dealer``, ``deck`` and ``seed`` (the blank game's arguments), the names of ``game.py``
    and the fields declared before it (``self._out``)."""
    kind: Kind
    """How copies, ``==`` and positions treat it."""
    position: str | None = None
    """The :class:`Position` field holding it, or ``None`` if positions leave it out."""
    exported: str = "{}"
    """How the position's value is made from the field's (``{}`` is the field)."""
    imported: str = "{}"
    """How the field is made from the position's value (``{}`` is that value)."""
    doc: str = ""
    """The attribute's docstring, for public fields."""


V, L, LOG, D = Kind.VALUE, Kind.LIST, Kind.LOG, Kind.DERIVED

STATE: tuple[StateField, ...] = (
    #          slot, type, start value, kind, the Position field (if any) and how it converts
    StateField("_options", "EngineOptions", "options_for(rules)", V, "rules", exported="{}.rules",
               imported="options_for({})"),
    StateField("players", "int", "players", V, "players", doc="The number of seats."),
    StateField("dealer", "int", "dealer", V, "dealer",
               doc="The dealer's seat (-1 for positions set up with :meth:`from_hands`)."),
    StateField("_origin", "_Origin", "_Origin(deck, seed, None)", V),
    StateField("_phase", "Phase", "Phase.COLLECT", V, "phase", imported="PHASE_NAMED[{}]"),
    StateField("_to_move", "int", "-1", V, "to_move"),
    StateField("_hands", "list[int]", "[0] * players", L, "hands"),
    StateField("_won", "list[int]", "[0] * players", L, "won"),
    StateField("_stock", "tuple[int, ...]", "()", V, "stock",
               exported="{}[self._stock_pos:]", imported="tuple({})"),
    StateField("_stock_pos", "int", "0", V),
    StateField("_removed", "int", "0", V, "removed"),
    StateField("_discard", "int", "0", V, "discard"),
    StateField("_trump_card", "int", "-1", V, "trump_card"),
    StateField("_trump_suit", "int", "-1", V, "trump_suit"),
    StateField("_trump_known", "bool", "False", V, "trump_known"),
    StateField("_trump_holder", "int", "-1", V, "trump_holder"),
    StateField("_last_drawer", "int", "-1", V, "last_drawer"),
    StateField("_leader", "int", "0", V, "leader"),
    StateField("_trick", "list[tuple[int, int]]", "[]", L, "trick"),
    StateField("_queue", "list[int]", "[]", L, "due"),
    StateField("_round", "list[tuple[int, int]]", "[]", L, "current_round"),
    StateField("_tie", "list[int]", "[]", L, "tie"),
    StateField("_table", "list[tuple[int, Action]]", "[]", L, "table",
               exported="tuple((seat, play.index) for seat, play in {})",
               imported="[(seat, ALL_ACTIONS[index]) for seat, index in {}]"),
    StateField("_trick_size", "int", "0", V, "trick_size"),
    StateField("_out", "list[bool]", "[False] * players", L, "out"),
    StateField("_in_count", "int", "players - sum(self._out)", D),
    StateField("_out_order", "list[int]", "[]", L, "out_order"),
    StateField("_losers", "tuple[int, ...]", "()", V, "losers", imported="tuple({})"),
    StateField("_lost_on_empty", "bool", "False", V, "lost_on_empty"),
    StateField("_log", "tuple[Action, Any] | None", "None", LOG),
    StateField("_events", "RawEvents", "None", LOG),
    StateField("_num_actions", "int", "0", D),
    StateField("_history", "EventHistory", "_NO_EVENTS", D),
    StateField("_legal", "list[Action] | None", "None", D),
    StateField("_min_sequence", "int", "rules.min_sequence", D),
)
"""Every field of a game, in the order the generated code sets them."""

def generated_blocks() -> dict[str, str]:
    """The code of each generated part of ``game.py``, indented for the class body: its
    fields at the top of the class, its methods at the end."""
    methods = (_start_code(), _copy_code(), _same_state_code(), _position_code(), _continue_code())
    return {"fields": _fields_code(), "methods": "\n".join(methods)}


def with_generated(source: str) -> str:
    """``source`` (the text of ``game.py``) with its generated parts rewritten."""
    for name, code in generated_blocks().items():
        begin, end = _markers(name)
        pattern = re.compile(rf"^{re.escape(begin)}\n.*?^{re.escape(end)}\n", re.S | re.M)
        found = list(pattern.finditer(source))
        if len(found) != 1:
            raise ValueError(f"game.py: expected one generated {name!r} block between its markers")
        where = found[0]
        source = f"{source[:where.start()]}{begin}\n{code}{end}\n{source[where.end():]}"
    return source


def _markers(name: str) -> tuple[str, str]:
    return (f"    # --- generated {name}: from mattis.core.state.STATE by dev/generate_state.py ---",
            f"    # --- end of generated {name} ---")


def _fields_code() -> str:
    slots = ""
    line = "       "
    for name in sorted(field.slot for field in STATE):
        if len(line) + len(name) + 4 > 100:
            slots += line + "\n"
            line = "       "
        line += f' "{name}",'
    lines = [f"    __slots__ = (\n{slots}{line}\n    )\n"]
    for field in STATE:
        lines.append(f"    {field.slot}: {field.type}\n")
        if field.doc:
            lines.append(f'    """{field.doc}"""\n')
    return "".join(lines)


def _method(header: str, doc: str, body: list[str]) -> str:
    return f'    {header}\n        """{doc}"""\n' + "".join(f"        {line}\n" for line in body)


def _start_code() -> str:
    return _method(
        "def _start(self, rules: Rules, players: int, dealer: int, deck: tuple[int, ...],\n"
        "               seed: int | None) -> None:",
        "Set every field to its value before the deal.",
        [f"self.{field.slot} = {field.start}" for field in STATE])


def _copy_code() -> str:
    return _method(
        "def copy(self) -> Game:",
        "An independent copy, cheap enough for tree search: lists are copied, and\n"
        "        everything immutable (numbers, tuples, the event and action logs) is shared.",
        ["other = Game(_PRIVATE)",
         *(f"other.{field.slot} = self.{field.slot}{'[:]' if field.kind is L else ''}" for field in STATE),
         "return other"])


def _same_state_code() -> str:
    tests = []
    for field in STATE:
        mine, theirs = f"self.{field.slot}", f"other.{field.slot}"
        if field.kind is LOG:  # shared by a copy, else compared item by item (no deep recursion)
            tests.append(f"({mine} is {theirs} or _cons_to_list({mine}) == _cons_to_list({theirs}))")
        elif field.kind is not D:
            tests.append(f"{mine} == {theirs}")
    return _method(
        "def _same_state(self, other: Game) -> bool:",
        "Whether the two games are in the same state, with the same record and history.",
        ["return (", f"    {tests[0]}", *(f"    and {test}" for test in tests[1:]), ")"])


def _position_code() -> str:
    arguments = []
    for field in STATE:
        if field.position is not None:
            value = field.exported.format(f"self.{field.slot}")
            if field.kind is L and field.exported == "{}":
                value = f"tuple({value})"
            arguments.append(f"    {field.position}={value},")
    return _method(
        "def position(self) -> Position:",
        "The complete state, hidden cards included, as a frozen value (like a chess FEN).\n"
        "        For engines, tests and analysis; never hand it to a player or bot.",
        ["return Position(", *arguments, ")"])


def _continue_code() -> str:
    """The body of ``from_position``: each field from the position, or its start value (in
    which the blank game's arguments are those of a position's game)."""
    starts = " ".join(field.start for field in STATE if field.position is None)
    body = [f"{name} = {value}" for name, value in (
        ("rules", "position.rules"), ("players", "position.players"), ("dealer", "position.dealer"),
        ("deck: tuple[int, ...]", "()"), ("seed: int | None", "None"))
        if re.search(rf"\b{name.split(':')[0]}\b", starts)]
    for field in STATE:
        if field.position is None:
            value = field.start
        else:
            value = field.imported.format(f"position.{field.position}")
            if field.kind is L and field.imported == "{}":
                value = f"list({value})"
        body.append(f"self.{field.slot} = {value}")
    return _method(
        "def _continue_from(self, position: Position) -> None:",
        "Set every field from ``position``, or to its start value if positions leave it out.",
        body)
