"""A module that fails while importing, for tests/test_bots_entrants.py."""

raise RuntimeError("this agent's module is broken")
