"""Guarded: what every sensor kind shares, `busy` while its pins or readings are in use.

watch.py's look at the sensors runs in a timer's interrupt, which may come in the
middle of a scan's read: it leaves the sensors alone while `busy`.  A kind reads
in _read_raw() and turns readings into states in _read(); read_raw() and read()
set the flag around them.  After a scan's read the watch is handed the readings
a look of its own would have taken (`looked`, or None), so a change that comes
while the scan reads is shown as soon as the read ends, not a tick later.
"""


class Guarded:
    busy = False
    looked = None         # the last read's readings of the kind peek() takes, None if there were none
    watcher = None        # watch.Watch.saw, once a watch is started

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
