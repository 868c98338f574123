"""Mattis with no server: tables hosted on the device, in the offline app's Web Worker.

:class:`DeviceHost` hosts tables the way the web server does (the table layer's
:class:`~mattis.table.TableMaster` runs each), and speaks the server's messages
(``docs/web.md``), so the pages have one table and two transports. It runs under Pyodide in
the browser and under CPython in the tests; the device (IndexedDB) and the page are reached
only through what it is given. Standard library and the layers below only: this package,
``table``, ``frontend``, ``bots``, ``i18n`` and ``core`` are all the browser loads.
"""

from .host import LOCAL_PREFIX, Device, DeviceHost, device_config, is_local
from .stats import device_stats, seat_result

__all__ = ["LOCAL_PREFIX", "Device", "DeviceHost", "device_config", "device_stats", "is_local",
           "seat_result"]
