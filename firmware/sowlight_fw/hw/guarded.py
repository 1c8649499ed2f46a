"""Guarded: what every sensor kind shares, `busy` while its pins or readings are in use, and
whether its pins can be driven through the RP2040's registers (sio_usable).

watch.py's look at the sensors runs in a timer's interrupt, which may come in the
middle of a scan's read: it leaves the sensors alone while `busy`.  A kind reads
in _read_raw() and turns readings into states in _read(); read_raw() and read()
set the flag around them.  After a scan's read the watch is handed the readings
a look of its own would have taken (`looked`, or None), so a change that comes
while the scan reads is shown as soon as the read ends, not a tick later.
"""


def sio_usable(pins):
    """Whether viper code can drive `pins` through the RP2040's SIO registers: on the rp2 port,
    GPIO 0-29 only (muxrp2.py, hx711rp2.py)."""
    import sys
    return sys.platform == "rp2" and all(0 <= p < 30 for p in pins)


class Guarded:
    busy = False
    looked = None         # the last read's readings of the kind peek() takes, None if there were none
    watcher = None        # watch.Watch.saw, once a watch is started

    def watched_by(self, saw):
        """From now on a scan's read hands `saw` its readings.  peek() may then run in a timer's
        interrupt, which cannot grow this object's dict: every attribute it sets is made here
        (`busy` is otherwise first set by a scan's read)."""
        self.busy = False
        self.watcher = saw

    def read_raw(self, raw):
        self.busy = True
        try:                            # (an exception must not leave the watch locked out)
            return self._read_raw(raw)
        finally:
            self.busy = False

    def read(self, values):
        self.busy = True
        try:
            self.looked = None
            out = self._read(values)
            if self.watcher is not None and self.looked is not None:
                self.watcher(self.looked)
            return out
        finally:
            self.busy = False
