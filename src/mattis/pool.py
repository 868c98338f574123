"""Worker processes that end with the process that started them.

Both the research tools (:mod:`mattis.tools.backends`) and the web server (:mod:`mattis.web`)
run games and searches in a pool of spawned processes; this neutral module is the one pool
they share, so neither imports the other. Standard library only: it sits at the bottom of
the layers with :mod:`mattis.core` and :mod:`mattis.i18n`.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 1.0
"""How often a worker process looks whether the process that started it is still there."""


def exit_with_parent(parent: int) -> None:
    """A worker-process initializer: end this worker soon after ``parent`` is gone. A pool's
    workers otherwise outlive a parent killed without warning (``kill -9``, an out-of-memory
    kill) and wait for work for ever; this watches from a daemon thread and exits at once."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (spawn: they start clean, without the locks of
    a progress bar's thread, the same on every platform) that end with this process."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=exit_with_parent, initargs=(os.getpid(),))
