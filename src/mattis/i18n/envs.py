"""The text of the RL environments' ``render()`` (keys ``env.…``) (the English source).

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Source

ENV_MESSAGES: dict[str, Source] = {
    "env.phase.collect": "collecting",
    "env.phase.shed": "shedding",
    "env.phase.over": "over",
    "env.header": "Mattis ({preset}), {players} players, {phase}, action {actions}",
    "env.trump": "trump: {trump}",
    "env.trump_unknown": "trump: unknown",
    "env.stock": "stock: {count}",
    "env.seat": "seat {seat}",
    "env.won": "won {count}",
    "env.to_move": "to move",
    "env.out": "out",
    "env.mattis": "MATTIS",
    "env.table": "table: {plays}",
    "env.table_empty": "table: empty",
    "env.truncated": "truncated after {actions} actions",
}
