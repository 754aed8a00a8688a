"""Where a student's move waits inside the class server: for its commit, then for its room's tables to be sent.

A class bench times a move from the student's tap to every screen of its room, and a busy server's figure says
nothing of where the time went. Measured inside (`benchmarks/bench_classroom.py`, 30 rooms flat out on 2 cores), a
move waited 22 to 29 ms (p50) from its arrival to its commit, then 78 to 109 ms for its tables: its room's turn to
be drawn, behind the other rooms'. A move's commit counts from the loop's callback that played it (its room was due
to be drawn from then), not from the moment its waiter resumed.

The server keeps the two waits of its latest moves; `serve` prints them when it stops, and the bench prints them
beside its own figures.
"""

from __future__ import annotations

from array import array

#: The latest moves whose waits are kept: two arrays of 8-byte floats (160 KB), however long the school day.
MOVES_KEPT = 10_000


class MoveWaits:
    """The two waits, in seconds, of the latest `kept` moves the server committed and told."""

    def __init__(self, kept: int = MOVES_KEPT) -> None:
        if type(kept) is not int or kept < 1:
            raise ValueError(f"kept is a whole number of moves, at least 1, not {kept!r}")
        self.kept = kept
        self.moves = 0  # every move noted since the server started
        self._to_commit = array("d")
        self._to_tables = array("d")

    def note(self, arrived: float, committed: float, sent: float) -> None:
        """A move read at `arrived`, committed at `committed`, its room's tables sent at `sent` (one clock)."""
        if len(self._to_commit) < self.kept:
            self._to_commit.append(committed - arrived)
            self._to_tables.append(sent - committed)
        else:
            self._to_commit[self.moves % self.kept] = committed - arrived
            self._to_tables[self.moves % self.kept] = sent - committed
        self.moves += 1

    def summary(self) -> str:
        """One line on the moves kept: each wait's median, 95th percentile and maximum, in ms ("" before any)."""
        if not self._to_commit:
            return ""
        kept = len(self._to_commit)
        of = f"the latest {kept} of {self.moves}" if kept < self.moves else f"{kept}"
        return (f"moves inside the server ({of}): to their commit {_spread(self._to_commit)}; "
                f"then to their tables sent {_spread(self._to_tables)}")


def _spread(seconds: array[float]) -> str:
    ordered = sorted(seconds)
    at95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {1000 * ordered[len(ordered) // 2]:.1f} ms, p95 {1000 * at95:.1f} ms, "
            f"max {1000 * ordered[-1]:.1f} ms")


__all__ = ["MOVES_KEPT", "MoveWaits"]
