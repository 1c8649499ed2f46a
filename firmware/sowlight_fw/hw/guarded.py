"""Guarded: what every sensor kind shares, `busy` while its pins are read.

watch.py's look at the sensors runs from a timer, between two bytecodes of a
scan, which may be reading them: it leaves them alone while `busy`.  A kind
reads in _read_raw(); read_raw() sets the flag around it.
"""


class Guarded:
    busy = False

    def read_raw(self, raw):
        self.busy = True
        try:                            # (an exception must not leave the watch locked out)
            return self._read_raw(raw)
        finally:
            self.busy = False
