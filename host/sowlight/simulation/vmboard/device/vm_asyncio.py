"""`asyncio` on the VM board: asyncio.run() blocks until the main task ends, as on a Pico.

The WebAssembly port's own asyncio runs its tasks from JavaScript timers, so
its run() cannot block and the code after it would carry on at once.  This
one steps the tasks itself and, while every task sleeps, waits in the bridge
(_vmboard.sleep), where the host's bytes are read, Ctrl-C is heard and the
console is written.  KeyboardInterrupt and SystemExit leave run() at once,
other exceptions end their task, as in MicroPython's asyncio.

The API is the part of MicroPython's asyncio that apps use: run, sleep,
sleep_ms, create_task, current_task, gather, wait_for, wait_for_ms, Event,
Lock, Task (cancel, done, result), CancelledError, TimeoutError,
get_event_loop, new_event_loop and the Loop's methods.  Streams and
ThreadSafeFlag are not here.
"""
from time import ticks_ms, ticks_diff, ticks_add

import _vmboard

__name__ = "asyncio"
__version__ = (3, 0, 0)


class CancelledError(BaseException):
    pass


class TimeoutError(Exception):
    pass


_SLEEP = "sleep"        # what a task yields to be woken at its `wake` time
_IDLE_MS = 1000         # the longest wait when nothing is scheduled (tasks waiting on events)


class Task:
    def __init__(self, coro):
        self.coro = coro
        self.ended = False
        self.value = None       # what the coroutine returned
        self.error = None       # the exception it ended with
        self.waiters = []       # tasks awaiting this one
        self.wake = None        # ticks_ms when it sleeps, else None
        self.throw = None       # an exception to throw in at its next step (cancel)
        self.owned = False      # its outcome is taken by run_until_complete or an await

    def done(self):
        return self.ended

    def cancel(self):
        if self.ended:
            return False
        self.throw = CancelledError()
        _loop._ready(self)
        return True

    def result(self):
        if not self.ended:
            raise RuntimeError("the task has not finished")
        if self.error is not None:
            raise self.error
        return self.value

    def __iter__(self):
        if not self.ended:
            self.owned = True
            self.waiters.append(_loop.cur)
            yield           # woken when this task ends
        self.owned = True
        if self.error is not None:
            raise self.error
        return self.value

    def __repr__(self):
        return "<Task %s>" % ("done" if self.ended else "pending")


def _suspend():
    # A bare suspension: someone else makes the task ready again.
    yield


def _sleep_until(when):
    _loop.cur.wake = when
    yield _SLEEP


def sleep_ms(ms):
    return _sleep_until(ticks_add(ticks_ms(), ms if ms > 0 else 0))


def sleep(s):
    return sleep_ms(int(s * 1000))


class Loop:
    def __init__(self):
        self.ready = []       # tasks to step, in order
        self.timed = []       # sleeping tasks, soonest first
        self.cur = None       # the task being stepped
        self.stopping = False
        self.handler = None

    def _ready(self, task):
        if task.wake is not None:
            task.wake = None
            if task in self.timed:
                self.timed.remove(task)
        if task not in self.ready:
            self.ready.append(task)

    def _timed(self, task):
        when = task.wake
        i = 0
        for t in self.timed:
            if ticks_diff(t.wake, when) > 0:
                break
            i += 1
        self.timed.insert(i, task)

    def _step(self, task):
        self.cur = task
        try:
            if task.throw is not None:
                exc = task.throw
                task.throw = None
                task.wake = None
                got = task.coro.throw(exc)
            else:
                got = task.coro.send(None)
        except StopIteration as e:
            self._end(task, e.value, None)
        except (CancelledError, Exception) as e:
            self._end(task, None, e)
        else:
            if got is _SLEEP and task.wake is not None:
                self._timed(task)
        finally:
            self.cur = None

    def _end(self, task, value, error):
        task.ended = True
        task.value = value
        task.error = error
        waiters = task.waiters
        task.waiters = []
        for t in waiters:
            self._ready(t)
        if error is not None and not waiters and not task.owned and not isinstance(error, CancelledError):
            self.call_exception_handler({"message": "Task exception wasn't retrieved",
                                         "future": task, "exception": error})

    def _run_once(self):
        now = ticks_ms()
        timed = self.timed
        while timed and ticks_diff(timed[0].wake, now) <= 0:
            t = timed.pop(0)
            t.wake = None
            self.ready.append(t)
        if self.ready:
            batch = self.ready
            self.ready = []
            for t in batch:
                if not t.ended:
                    self._step(t)
            _vmboard.sleep(0)       # the console and the host's bytes, even for a busy task
        else:
            _vmboard.sleep(ticks_diff(timed[0].wake, now) if timed else _IDLE_MS)

    # ----- the Loop API -----

    def create_task(self, coro):
        return create_task(coro)

    def run_until_complete(self, aw):
        task = aw if isinstance(aw, Task) else create_task(aw)
        task.owned = True
        while not task.ended:
            self._run_once()
        return task.result()

    def run_forever(self):
        self.stopping = False
        while not self.stopping:
            self._run_once()

    def stop(self):
        self.stopping = True

    def close(self):
        pass

    def set_exception_handler(self, handler):
        self.handler = handler

    def get_exception_handler(self):
        return self.handler

    def default_exception_handler(self, loop, context):
        import sys
        print(context["message"])
        print("future:", context["future"], "coro=", context["future"].coro)
        sys.print_exception(context["exception"])

    def call_exception_handler(self, context):
        (self.handler or Loop.default_exception_handler)(self, context)


_loop = Loop()


def get_event_loop():
    return _loop


def new_event_loop():
    global _loop
    _loop = Loop()
    return _loop


def create_task(coro):
    if not hasattr(coro, "send"):
        raise TypeError("coroutine expected")
    task = Task(coro)
    _loop._ready(task)
    return task


def current_task():
    if _loop.cur is None:
        raise RuntimeError("no running task")
    return _loop.cur


def run(coro):
    return _loop.run_until_complete(create_task(coro))


async def wait_for(aw, timeout):
    task = aw if isinstance(aw, Task) else create_task(aw)
    if timeout is None:
        return await task
    me = _loop.cur
    if not task.ended:
        task.owned = True
        task.waiters.append(me)
        await _sleep_until(ticks_add(ticks_ms(), int(timeout * 1000)))
        if not task.ended:
            if me in task.waiters:
                task.waiters.remove(me)
            task.cancel()
            try:
                await task
            except CancelledError:
                pass
            raise TimeoutError
    return task.result()


def wait_for_ms(aw, timeout):
    return wait_for(aw, None if timeout is None else timeout / 1000)


async def gather(*aws, return_exceptions=False):
    tasks = [a if isinstance(a, Task) else create_task(a) for a in aws]
    results = []
    for t in tasks:
        try:
            results.append(await t)
        except (CancelledError, Exception) as e:
            if not return_exceptions:
                raise
            results.append(e)
    return results


class Event:
    def __init__(self):
        self.state = False
        self.waiting = []

    def is_set(self):
        return self.state

    def set(self):
        self.state = True
        waiting = self.waiting
        self.waiting = []
        for t in waiting:
            _loop._ready(t)

    def clear(self):
        self.state = False

    async def wait(self):
        if not self.state:
            self.waiting.append(_loop.cur)
            await _suspend()
        return True


class Lock:
    def __init__(self):
        self.held = False
        self.waiting = []

    def locked(self):
        return self.held

    async def acquire(self):
        while self.held:
            self.waiting.append(_loop.cur)
            await _suspend()
        self.held = True
        return True

    def release(self):
        if not self.held:
            raise RuntimeError("Lock not acquired")
        self.held = False
        if self.waiting:
            _loop._ready(self.waiting.pop(0))

    async def __aenter__(self):
        return await self.acquire()

    async def __aexit__(self, *exc):
        self.release()


def ticks():
    return ticks_ms()
