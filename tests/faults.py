"""A fault-injecting link for tests: two endpoints joined by two lossy pipes.

    link = FaultyLink(seed=7, drop=0.001, corrupt=0.001, duplicate=0.001)
    link.a.write(frame)          # the host's side
    data = link.b.read()         # the board's side gets it, maybe damaged

Each direction is a FaultyPipe.  For every byte written, one draw of a seeded
random.Random decides: drop it, replace it with another byte, deliver it
twice, or deliver it as it is.  `repeat` delivers a whole write a second time
(a frame repeated), and `cut_at(offset)` / `cut()` take the link down: bytes
written while it is down are lost, as with a pulled cable, until `restore()`.
Everything is deterministic for a given seed, and every fault is counted.

The endpoints have the small part of pyserial's API the link code uses
(write, read, in_waiting), so they can stand in for a serial port.
"""
import random


class FaultyPipe:
    """One direction: bytes written come out of read() with faults at the set rates."""

    def __init__(self, seed=0, drop=0.0, corrupt=0.0, duplicate=0.0, repeat=0.0):
        for name, rate in (("drop", drop), ("corrupt", corrupt), ("duplicate", duplicate), ("repeat", repeat)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError("%s rate must be between 0 and 1, not %r" % (name, rate))
        if drop + corrupt + duplicate > 1.0:
            raise ValueError("drop + corrupt + duplicate must not exceed 1 (each byte gets at most one fault)")
        self.rng = random.Random(seed)
        self.drop = drop
        self.corrupt = corrupt
        self.duplicate = duplicate
        self.repeat = repeat
        self.up = True
        self._cuts = []            # offsets (bytes written so far) where the link goes down
        self._waiting = bytearray()
        # what happened, byte by byte
        self.written = 0           # bytes given to write()
        self.delivered = 0         # bytes put out for read()
        self.dropped = 0
        self.corrupted = 0
        self.duplicated = 0
        self.repeated = 0          # whole writes delivered twice
        self.lost_to_cuts = 0      # bytes written or waiting while the link went down

    # --- the link going down and up ----------------------------------------

    def cut_at(self, offset):
        """Take the link down when `offset` bytes in total have been written (byte `offset` is lost)."""
        if offset < self.written:
            raise ValueError("cannot cut at byte %d: %d bytes were already written" % (offset, self.written))
        self._cuts.append(offset)
        self._cuts.sort()

    def cut(self, discard_waiting=True):
        """Take the link down now; bytes not yet read are lost too unless discard_waiting is False."""
        self.up = False
        if discard_waiting:
            self.lost_to_cuts += len(self._waiting)
            self._waiting = bytearray()

    def restore(self):
        """Bring the link up again."""
        self.up = True

    # --- the two ends -------------------------------------------------------

    def write(self, data):
        data = bytes(data)
        start = len(self._waiting)
        if self._cuts or not self.up or self.drop or self.corrupt or self.duplicate:
            self._write_faulty(data)
        else:
            self._waiting += data
            self.written += len(data)
            self.delivered += len(data)
        if self.repeat and self.up and len(self._waiting) > start and self.rng.random() < self.repeat:
            again = bytes(self._waiting[start:])
            self._waiting += again
            self.delivered += len(again)
            self.repeated += 1
        return len(data)

    def _write_faulty(self, data):
        rng = self.rng
        drop = self.drop
        corrupt = drop + self.corrupt
        duplicate = corrupt + self.duplicate
        out = self._waiting
        for b in data:
            while self._cuts and self._cuts[0] <= self.written:
                self._cuts.pop(0)
                self.cut(discard_waiting=False)
            self.written += 1
            if not self.up:
                self.lost_to_cuts += 1
                continue
            x = rng.random()
            if x < drop:
                self.dropped += 1
                continue
            if x < corrupt:
                b ^= rng.randrange(1, 256)  # never 0: the byte really changes
                self.corrupted += 1
            elif x < duplicate:
                out.append(b)
                self.delivered += 1
                self.duplicated += 1
            out.append(b)
            self.delivered += 1

    @property
    def in_waiting(self):
        return len(self._waiting)

    def read(self, size=-1):
        """Up to `size` waiting bytes (all of them when size < 0); b"" when none."""
        if size < 0 or size >= len(self._waiting):
            data = bytes(self._waiting)
            self._waiting = bytearray()
        else:
            data = bytes(self._waiting[:size])
            del self._waiting[:size]
        return data


class Endpoint:
    """One end of a FaultyLink: writes go out on one pipe, reads come from the other."""

    def __init__(self, outgoing, incoming):
        self.outgoing = outgoing
        self.incoming = incoming

    def write(self, data):
        return self.outgoing.write(data)

    def read(self, size=-1):
        return self.incoming.read(size)

    @property
    def in_waiting(self):
        return self.incoming.in_waiting


class FaultyLink:
    """Two endpoints, `a` and `b`, joined by two FaultyPipes with the same rates and seeds of their own."""

    def __init__(self, seed=0, drop=0.0, corrupt=0.0, duplicate=0.0, repeat=0.0):
        seeds = random.Random(seed)
        self.a_to_b = FaultyPipe(seeds.getrandbits(32), drop, corrupt, duplicate, repeat)
        self.b_to_a = FaultyPipe(seeds.getrandbits(32), drop, corrupt, duplicate, repeat)
        self.a = Endpoint(self.a_to_b, self.b_to_a)
        self.b = Endpoint(self.b_to_a, self.a_to_b)

    def cut(self, discard_waiting=True):
        """Both directions down (a pulled cable)."""
        self.a_to_b.cut(discard_waiting)
        self.b_to_a.cut(discard_waiting)

    def restore(self):
        self.a_to_b.restore()
        self.b_to_a.restore()
