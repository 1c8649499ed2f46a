"""The loss rate up to which `sowlight sync` completes, against the real firmware.

    python bench/bench_link_loss.py                  # drop and corrupt, 0.5 % to 4 %, 3 runs each
    python bench/bench_link_loss.py --runs 5 --rates 0.01,0.02 --moves 60

A 60-move Oware game (the rules core's, then an `end` record: the board boots
to its menu) is written to the firmware's own Journal in a FileStorage file,
served by host/sowlight/simulation/virtual.py's VirtualBoard (the firmware App and
BoardLink behind a pty, scanning every SCAN_MS) whose wire loses (`--drop`)
or damages (`--corrupt`, one bit flipped) that share of the bytes in both
directions.  Each run is `sowlight sync --port PTY` with its default
settings, into a fresh archive, from a fresh copy of the journal; it
completes when it exits 0 with every record stored.  Printed per fault and
rate: runs completed, the median time, and the highest rate at which every
run completed.  Not a test: nothing here asserts a speed.
"""
import argparse
import contextlib
import io
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_sync import ended, firmware_journal  # noqa: E402
from mockboard import random_game  # noqa: E402
from sowlight import cli  # noqa: E402
from sowlight.games.archive import Archive  # noqa: E402
from sowlight.simulation.virtual import VirtualBoard  # noqa: E402


def one_game_journal(path, moves=60, seed=5):
    """A FileStorage journal at `path` holding one finished Oware game of `moves` moves;
    returns the number of its records."""
    game = random_game(random.Random(seed), plies=(moves, moves), variants=["oware"], undo_rate=0)
    games = ended({1: game})
    firmware_journal(games, path)
    return len(games[1]["records"])


def sync_through(journal, fault, rate, seed, work):
    """One `sowlight sync` from a virtual board on a copy of `journal` whose wire has `fault`
    at `rate`: (exit status, records in the archive, seconds, what it printed)."""
    run = os.path.join(work, "run.journal")
    db = os.path.join(work, "run.sqlite3")
    shutil.copyfile(journal, run)
    for name in (db, db + "-wal", db + "-shm"):
        if os.path.exists(name):
            os.unlink(name)
    vb = VirtualBoard(journal=run, seed=seed, **{fault: rate})
    port = vb.start()
    out = io.StringIO()
    t0 = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = cli.main(["sync", "--port", port, "--db", db])
    finally:
        took = time.monotonic() - t0
        vb.stop()
    held = 0
    if os.path.exists(db):
        with Archive(db) as arc:
            held = sum(s["stored_upto"] + 1 for b in arc.boards() for s in arc.sync_state(b["id"]).values())
    return status, held, took, out.getvalue()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rates", default="0.005,0.01,0.02,0.03,0.04", help="byte rates to try, comma-separated")
    ap.add_argument("--faults", default="drop,corrupt", help="drop, corrupt or both")
    ap.add_argument("--runs", type=int, default=3, help="runs per fault and rate (seeds 1..N)")
    ap.add_argument("--moves", type=int, default=60)
    args = ap.parse_args(argv)
    work = tempfile.mkdtemp(prefix="bench-link-loss-")
    try:
        journal = os.path.join(work, "game.journal")
        records = one_game_journal(journal, args.moves)
        print("sync of one %d-move game (%d records) from the real firmware on a virtual board, default settings"
              % (args.moves, records))
        for fault in args.faults.split(","):
            held_up_to = None       # the highest rate below the first one where some run failed
            for rate in sorted(float(r) for r in args.rates.split(",")):
                times = []
                for seed in range(1, args.runs + 1):
                    status, held, took, _ = sync_through(journal, fault, rate, seed, work)
                    if status == 0 and held == records:
                        times.append(took)
                print("  %-7s %5.1f %%  %d/%d completed%s" % (
                    fault, rate * 100, len(times), args.runs,
                    ", median %.1f s" % statistics.median(times) if times else ""), flush=True)
                if len(times) < args.runs:
                    break
                held_up_to = rate
            print("  %s: every run completed up to %s" % (
                fault, "no rate tried" if held_up_to is None else "%.1f %%" % (held_up_to * 100)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
