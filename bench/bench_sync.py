"""Journal sync throughput: games per second, and bytes per move on the wire.

    python bench/bench_sync.py                  # 200 games unthrottled, 20 at 115200 baud
    python bench/bench_sync.py --games 500 --paced-games 40

The host's real Link and sync() talk through a pseudo-terminal that pyserial
opens by path, to the scripted board of tests/mockboard.py (random games of
every variant, made with the rules core).  Two runs, measured here and now:

- "115200 baud": the pty is set to 115200, but a pty moves bytes as fast as
  they are written whatever its speed -- so the board paces both directions
  at 11,520 bytes/s (10 bits a byte on an 8N1 line), reading no byte before it
  could have arrived and writing none faster than the line could carry it.
  Its peer is the line itself: the time the same bytes need at 11,520 B/s,
  one direction after the other (stop-and-wait), so the ratio is the share of
  the line the protocol keeps busy.
- "unthrottled": the same, unpaced; its peer is the paced run (how much the
  line, not the code, limits a sync).  Run once with the in-memory store and
  once with the SQLite archive (a transaction and an fsync per reply).

Bytes per move are the sync's bytes in both directions divided by the move
records fetched; the peer is the records' own canonical JSON (what a sync
would cost with no framing, requests or acknowledgements).  Not a test:
nothing here asserts a speed.
"""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mockboard import MockBoard, PtyBoard, random_games  # noqa: E402
from sowlight import ports  # noqa: E402
from sowlight.archive import Archive  # noqa: E402
from sowlight.link import Link  # noqa: E402
from sowlight.sync import MemoryStore, sync  # noqa: E402
from sowlight_fw import codec  # noqa: E402

LINE = 11520  # bytes per second on a 115200-baud 8N1 line


def run(games, rate=None, archive_dir=None):
    board = MockBoard(games)
    pb = PtyBoard(board, rate=rate)
    store = Archive(os.path.join(archive_dir, "bench.sqlite3")) if archive_dir else MemoryStore()
    try:
        with Link(ports.opener(port=pb.port), keepalive=False) as lk:
            lk.connect()
            up0, down0 = lk.stats["bytes_out"], lk.stats["bytes_in"]
            t0 = time.perf_counter()
            report = sync(lk, store)
            dt = time.perf_counter() - t0
            up, down = lk.stats["bytes_out"] - up0, lk.stats["bytes_in"] - down0
            requests = lk.stats["requests"]
    finally:
        pb.close()
        if archive_dir:
            store.close()
    assert report.complete and report.stored == sum(len(g["records"]) for g in games.values())
    return {"seconds": dt, "up": up, "down": down, "games": len(games), "requests": requests, "report": report}


def move_figures(games):
    moves = sum(1 for g in games.values() for r in g["records"] if r["kind"] == "move")
    json_bytes = sum(len(codec.dumps(r)) for g in games.values() for r in g["records"])
    return moves, json_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games in the unthrottled runs (default 200)")
    ap.add_argument("--paced-games", type=int, default=20, help="games in the 115200-baud run (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    big = random_games(args.games, seed=args.seed)
    small = dict(list(big.items())[:args.paced_games])

    paced = run(small, rate=LINE)
    fast_small = run(small)
    fast = run(big)
    with tempfile.TemporaryDirectory() as d:
        fast_archive = run(big, archive_dir=d)

    print("journal sync over a pty, %s games of random variants (%d records; %d in the paced run)" % (
        args.games, sum(len(g["records"]) for g in big.values()), sum(len(g["records"]) for g in small.values())))
    print()
    print("%-34s %9s %10s %11s  %s" % ("run", "games/s", "records/s", "bytes", "ratio"))
    line_time = (paced["up"] + paced["down"]) / float(LINE)
    rows = [
        ("115200 baud (paced), memory store", paced, "%.2f of the line's own rate (%.2f games/s)" % (
            line_time / paced["seconds"], paced["games"] / line_time)),
        ("unthrottled, same games", fast_small, "%.0fx the paced run" % (paced["seconds"] / fast_small["seconds"])),
        ("unthrottled, memory store", fast, ""),
        ("unthrottled, SQLite archive", fast_archive, "%.2fx the memory store's time" % (
            fast_archive["seconds"] / fast["seconds"])),
    ]
    for name, r, ratio in rows:
        records = r["report"].stored
        print("%-34s %9.1f %10.0f %11d  %s" % (name, r["games"] / r["seconds"], records / r["seconds"],
                                               r["up"] + r["down"], ratio))
    moves, json_bytes = move_figures(big)
    wire = fast["up"] + fast["down"]
    print()
    print("bytes per move on the wire: %.1f (host to board %.1f, board to host %.1f); "
          "the records' JSON alone: %.1f per move -> framing, requests and acks cost %.2fx" % (
              wire / float(moves), fast["up"] / float(moves), fast["down"] / float(moves),
              json_bytes / float(moves), wire / float(json_bytes)))
    print("requests: %d for %d games (%.1f per game)" % (fast["requests"], fast["games"],
                                                         fast["requests"] / float(fast["games"])))


if __name__ == "__main__":
    main()
