"""How often a seat or a client may do something: a token bucket, shared by every host.

A table limits hints and reactions per seat with it; the web server limits messages per
socket and new tables per address. The clock is passed in, so tests move time by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimiter:
    """A token bucket: ``rate`` actions a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()
        self.refused = 0

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def wait(self) -> float:
        """Seconds until :meth:`allow` will take a token (after a refusal)."""
        return max(0.0, (1 - self.tokens) / self.rate)
