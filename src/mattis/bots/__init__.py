"""Bots: agents that play from one seat's view only."""
