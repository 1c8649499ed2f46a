"""The work a scan leaves for later scans: one queue of named jobs.

A scan does at most one *scan job*, the first queued, before anything new the
sensors see is looked at, so that no scan takes long (playing a move, tracing
the next and lighting it in one would).  Scans in which nothing happens do the
*idle jobs*, one a scan, in the order they were queued.

Scan jobs, at most one of each, done in this order:

    PLAY       a finished move played in the rules core, journalled and told
               (arg: (trail, move, trace))
    NEXT_TURN  the next move expected, or the game's end (arg: the trail left lit)
    SHOW_NEXT  the lights for it
    PROGRESS   what follows a lift seen alone (arg: the move the lift began)
    LIGHTS     the lights for what the last look found
    LOOK       what the sensors see, looked at again
    STILL      what the board disagrees on, dealt with once the board is still:
               the mismatch flagged, or (arg True) in a placing stage the
               handfuls taken as placements.  Waiting, it lets the idle jobs
               run in the scans in which nothing moves.

Idle jobs:

    TRIM       the game's spare undo record let go (before the other idle jobs)
    MESSAGE    a `move` message, made already (arg: the message)
    STEPS      `step` events, a few a scan (arg: a StepMessages)
    LEDS       the `leds` message, made from what is lit when its turn comes
    STATE      the `state` message, made from what the board is doing then
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PLAY = const(0)
NEXT_TURN = const(1)
SHOW_NEXT = const(2)
PROGRESS = const(3)
LIGHTS = const(4)
LOOK = const(5)
STILL = const(6)
IDLE = const(7)         # the kinds from here on are idle jobs
TRIM = const(7)
MESSAGE = const(8)
STEPS = const(9)
LEDS = const(10)
STATE = const(11)

NAMES = ("play", "next_turn", "show_next", "progress", "lights", "look", "still", "trim", "message", "steps",
         "leds", "state")


class Jobs:
    """The queue: [kind, arg] entries, the scan jobs first (in their order), then the idle jobs."""

    def __init__(self):
        self.q = []

    def __len__(self):
        return len(self.q)

    def add(self, kind, arg=None):
        """Queue a job; a scan job already queued gets the new arg instead."""
        q = self.q
        if kind < IDLE:
            i = 0
            while i < len(q) and q[i][0] < kind:
                i += 1
            if i < len(q) and q[i][0] == kind:
                q[i][1] = arg
            else:
                q.insert(i, [kind, arg])
        elif kind == TRIM:
            q.insert(self._idle_start(), [kind, arg])
        else:
            q.append([kind, arg])

    def _idle_start(self):
        q = self.q
        i = 0
        while i < len(q) and q[i][0] < IDLE:
            i += 1
        return i

    def scan_job(self):
        """The scan job to do now ([kind, arg]), or None."""
        q = self.q
        return q[0] if q and q[0][0] < IDLE else None

    def idle_job(self):
        """The first idle job ([kind, arg]), or None."""
        i = self._idle_start()
        return self.q[i] if i < len(self.q) else None

    def remove(self, job):
        self.q.remove(job)

    def find(self, kind):
        for job in self.q:
            if job[0] == kind:
                return job
        return None

    def drop(self, kind):
        """Forget the job of `kind` (a scan job), if queued; its arg, or None."""
        job = self.find(kind)
        if job is None:
            return None
        self.q.remove(job)
        return job[1]

    def moving(self):
        """A finished move still has work queued (PLAY, NEXT_TURN or SHOW_NEXT)."""
        q = self.q
        return bool(q) and q[0][0] <= SHOW_NEXT

    def last(self):
        """The last job queued if it is an idle one, else None."""
        q = self.q
        return q[-1] if q and q[-1][0] >= IDLE else None
