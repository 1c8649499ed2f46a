"""A progress bar on stderr for long commands (`sowlight sync`, `sowlight games import`).

    bar = Bar("syncing")
    bar.show(3, 12, "140 records stored")    # syncing [#######.......] 3/12 140 records stored
    bar.close()

It draws only when the stream is a terminal: logs, pipes and tests get no
carriage returns.  The total may grow as it goes (a journal listed page by
page): the bar is redrawn against the total known so far.
"""
import sys

WIDTH = 30


def is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Bar:
    def __init__(self, label, stream=None, width=WIDTH, force=False):
        self.stream = sys.stderr if stream is None else stream
        self.label = label
        self.width = width
        self.on = force or is_terminal(self.stream)
        self._last = None
        self._length = 0

    def show(self, done, total, detail=""):
        if not self.on or total <= 0:
            return
        done = min(done, total)
        filled = self.width * done // total
        line = "%s [%s%s] %d/%d%s" % (self.label, "#" * filled, "." * (self.width - filled), done, total,
                                      " " + detail if detail else "")
        if line == self._last:
            return
        # Blank out what a longer line before left behind.
        self.stream.write("\r" + line + " " * max(0, self._length - len(line)))
        self.stream.flush()
        self._last = line
        self._length = len(line)

    def close(self):
        if self.on and self._last is not None:
            self.stream.write("\n")
            self.stream.flush()
            self._last = None


def sync_bar(stream=None, force=False):
    """(callback for sync.sync's `progress`, the Bar): games gone through in the current pass
    of the board's listing, against the games listed so far."""
    bar = Bar("syncing", stream, force=force)
    seen = {"pass": 0, "done": 0}

    def progress(report):
        if report.passes != seen["pass"]:
            seen["pass"] = report.passes
            seen["done"] = 0
        seen["done"] += 1
        bar.show(seen["done"], len(report.games), "game%s, %d record%s stored" % (
            "" if len(report.games) == 1 else "s", report.stored, "" if report.stored == 1 else "s"))
    return progress, bar
