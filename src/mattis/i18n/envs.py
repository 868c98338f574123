"""The text of the RL environments' ``render()`` (keys ``env.…``), in bokmål and English.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

ENV_MESSAGES: dict[str, tuple[str, str]] = {
    "env.phase.collect": ("innsamling", "collecting"),
    "env.phase.shed": ("utspilling", "shedding"),
    "env.phase.over": ("ferdig", "over"),
    "env.header": (
        "Mattis ({preset}), {players} spillere, {phase}, handling {actions}",
        "Mattis ({preset}), {players} players, {phase}, action {actions}",
    ),
    "env.trump": ("trumf: {trump}", "trump: {trump}"),
    "env.trump_unknown": ("trumf: ukjent", "trump: unknown"),
    "env.stock": ("bunke: {count}", "stock: {count}"),
    "env.seat": ("plass {seat}", "seat {seat}"),
    "env.won": ("vunnet {count}", "won {count}"),
    "env.to_move": ("i trekket", "to move"),
    "env.out": ("ute", "out"),
    "env.mattis": ("MATTIS", "MATTIS"),
    "env.table": ("bordet: {plays}", "table: {plays}"),
    "env.table_empty": ("bordet: tomt", "table: empty"),
    "env.truncated": ("avbrutt etter {actions} handlinger", "truncated after {actions} actions"),
}
