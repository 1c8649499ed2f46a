"""Debouncing the pit sensors: what each cell steadily shows, and when the board is still.

A reading per cell comes in on every scan: for occupancy sensors 0 (empty) or
1 (seeds), for load cells a seed count, and UNKNOWN (-1) for a hand over the
cell or a reading that will not settle; None for a cell without a sensor.

- A cell's *stable* value changes only once a new reading has held for
  `debounce_ms`: a seed rolling past a sensor, a shadow, one noisy sample
  change nothing.
- A cell whose reading keeps changing (`noisy_changes` changes or more, and
  not once holding for `debounce_ms` in `noisy_ms`) is marked noisy: its
  stable value becomes UNKNOWN (it is not compared with anything) until it
  holds still again.  Short spikes between steady spells are not noise: they
  are simply never stable.
- The board is *quiet* once no cell but the noisy ones has changed for
  `settle_ms`: only then does the controller call a disagreement a mistake,
  so hands in the middle of a move are never flashed at.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..ticks import ticks_diff

UNKNOWN = const(-1)
_NEVER = const(-2)   # no reading yet


class Observer:
    def __init__(self, cells, debounce_ms, settle_ms, noisy_changes, now_ms=0, noisy_ms=1500):
        self.cells = cells
        self.debounce_ms = debounce_ms
        self.settle_ms = settle_ms
        self.noisy_changes = noisy_changes
        self.noisy_ms = noisy_ms
        self.raw = [_NEVER] * cells      # the last reading (None: a cell without a sensor)
        self.since = [now_ms] * cells
        self.held = [now_ms] * cells     # when the reading last held still for debounce_ms
        self.stable = [UNKNOWN] * cells
        self.flips = bytearray(cells)
        self.noisy = bytearray(cells)
        self.last_change = now_ms
        self.events = []   # (cell, True) when a cell turns noisy, (cell, False) when it holds still again
        # The cells whose reading changed and has not yet held for debounce_ms (noisy ones
        # included).  Only these need looking at on a scan; every other cell's reading is
        # its stable value, held still up to the last settle().
        self.active = []
        self.listed = bytearray(cells)   # 1 for a cell in active (a look-up, where `in` compares each)
        self.moved = False   # a reading (not a noisy one) changed in the last scan: the board is not idle
        self._settled_at = now_ms

    def feed(self, values, now):
        """Take one scan's readings; True when a stable value changed."""
        raw = self.raw
        if values == raw:
            # Nothing read differs from the last scan (the usual case): one comparison in C.
            self.moved = False
            return self.settle(now) if self.active else False
        self.moved = False
        changed = False
        active = self.active
        listed = self.listed
        noisy = self.noisy
        flips = self.flips
        for c in range(self.cells):
            v = values[c]
            if v == raw[c]:
                continue
            if v is None:
                raw[c] = None
                continue
            if not listed[c]:
                listed[c] = 1
                active.append(c)
                if raw[c] != _NEVER and raw[c] is not None:
                    # It had held still up to the last scan: that is when it last held (settle()
                    # would have said so there, had it looked at this cell).
                    self.held[c] = self._settled_at
            raw[c] = v
            self.since[c] = now
            if noisy[c]:
                continue
            self.moved = True
            self.last_change = now
            f = flips[c] + 1
            if f > 250:
                f = 250
            if f >= self.noisy_changes and ticks_diff(now, self.held[c]) >= self.noisy_ms:
                noisy[c] = 1
                flips[c] = 0
                if self.stable[c] != UNKNOWN:
                    self.stable[c] = UNKNOWN
                    changed = True
                self.events.append((c, True))
            else:
                flips[c] = f
        return self.settle(now) or changed

    def settle(self, now):
        """Let readings that have held long enough become stable; True when one did.  (Called
        alone, as the controller's tick() does: time passed, and no reading changed.)"""
        self._settled_at = now
        active = self.active
        if not active:
            return False
        changed = False
        raw = self.raw
        stable = self.stable
        since = self.since
        listed = self.listed
        noisy = self.noisy
        debounce = self.debounce_ms
        i = 0
        while i < len(active):
            c = active[i]
            if ticks_diff(now, since[c]) < debounce:
                i += 1
                continue
            active.pop(i)
            listed[c] = 0
            v = raw[c]
            self.flips[c] = 0
            self.held[c] = now
            if noisy[c]:
                noisy[c] = 0
                self.events.append((c, False))
            if stable[c] != v:
                stable[c] = v
                changed = True
        return changed

    def due(self, now):
        """Whether a reading that differs from its cell's stable value will have held for
        debounce_ms by `now`: the scan at `now` changes a stable value (unless the reading moves
        again), and the controller then does a move's work."""
        raw = self.raw
        stable = self.stable
        since = self.since
        for c in self.active:
            if raw[c] != stable[c] and ticks_diff(now, since[c]) >= self.debounce_ms:
                return True
        return False

    def quiet(self, now):
        """No cell (noisy ones aside) has changed for settle_ms, and every reading is stable."""
        if ticks_diff(now, self.last_change) < self.settle_ms:
            return False
        for c in self.active:
            if self.raw[c] != self.stable[c] and not self.noisy[c]:
                return False
        return True
