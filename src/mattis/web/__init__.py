"""Mattis in the browser: a Starlette server with tables, seats, bots and a WebSocket per seat.

Install the ``web`` extra and run ``mattis serve``. :func:`create_app` builds the ASGI app;
:mod:`.lobby` holds the tables in memory (each run by the table layer's master, with
:mod:`.tables`' host), :mod:`.store` the database, ``static/`` the pages.
The protocol is described in ``docs/web.md``.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
