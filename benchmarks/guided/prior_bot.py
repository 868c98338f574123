"""The master network alone as a bot, for a sanity check of its policy head: the legal move with
the highest prior, no search. Seat it with ``mattis tournament --bots
benchmarks.guided.prior_bot:policy,easy,easy`` from the repository's root; ``MATTIS_NETWORK``
names another network file (default: the shipped one)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from mattis.bots.encoding import encode_view
from mattis.bots.network import PolicyValueNet, load_network
from mattis.bots.view import PlayerView
from mattis.core.actions import Action

_NETWORK: list[PolicyValueNet] = []


def network() -> PolicyValueNet:
    """The network, read once per process."""
    if not _NETWORK:
        _NETWORK.append(load_network(os.environ.get("MATTIS_NETWORK") or None))
    return _NETWORK[0]


def policy(view: PlayerView, legal: Sequence[Action]) -> Action:
    """The legal move the network's policy head likes best."""
    priors = network().evaluate(encode_view(view), [action.index for action in legal]).priors
    return legal[int(np.argmax(priors))]
