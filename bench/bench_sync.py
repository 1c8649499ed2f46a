"""Journal sync throughput: games per second, and bytes per move on the wire.

    python bench/bench_sync.py                  # 200 games unthrottled, 20 at 115200 baud
    python bench/bench_sync.py --games 500 --paced-games 40
    python bench/bench_sync.py --firmware-games 200   # the real firmware's journal (default 100)

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

- "real firmware": the first --firmware-games of those games (the newest one
  ended, so the board boots to its menu) appended record by record to the
  firmware's own Journal, saved in a sowlight_fw.storage.FileStorage file
  (the board's 1 MiB of flash), then served by host/sowlight/simulation/virtual.py's
  VirtualBoard -- the firmware App and BoardLink behind a pty, scanning every
  SCAN_MS as on a board.  Its peer is the mock board syncing the same games
  in the same run, once into the in-memory store and once into the SQLite
  archive; each run starts from a fresh copy of the journal file (a sync
  acknowledges games, and the board keeps that).

Bytes per move are the sync's bytes in both directions divided by the move
records fetched; the peer is the records' own canonical JSON (what a sync
would cost with no framing, requests or acknowledgements).  Not a test:
nothing here asserts a speed.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mockboard import MockBoard, PtyBoard, random_games  # noqa: E402
from sowlight.board import ports  # noqa: E402
from sowlight.games.archive import Archive  # noqa: E402
from sowlight.board.link import Link  # noqa: E402
from sowlight.games.sync import MemoryStore, sync  # noqa: E402
from sowlight.simulation.virtual import VirtualBoard  # noqa: E402
from sowlight_fw.link import codec  # noqa: E402
from sowlight_fw.journal import Journal, JournalError  # noqa: E402
from sowlight_fw.storage import FileStorage, MemoryStorage  # noqa: E402

LINE = 11520  # bytes per second on a 115200-baud 8N1 line
FLASH = 1 << 20      # FileStorage's capacity, which VirtualBoard opens the journal with
ID_ROOM = 4096       # one block left for the board's id file, which VirtualBoard writes at start


def run(games, rate=None, archive_dir=None, journal=None):
    """Sync `games` into a fresh store, from the mock board or (`journal`: a firmware journal
    file holding them) from the real firmware on a VirtualBoard."""
    if journal:
        board = VirtualBoard(journal=journal)
        port = board.start()
    else:
        board = PtyBoard(MockBoard(games), rate=rate)
        port = board.port
    store = Archive(os.path.join(archive_dir, "bench.sqlite3")) if archive_dir else MemoryStore()
    try:
        with Link(ports.opener(port=port), keepalive=False) as lk:
            lk.connect()
            up0, down0 = lk.stats["bytes_out"], lk.stats["bytes_in"]
            t0 = time.perf_counter()
            report = sync(lk, store)
            dt = time.perf_counter() - t0
            up, down = lk.stats["bytes_out"] - up0, lk.stats["bytes_in"] - down0
            requests = lk.stats["requests"]
    finally:
        board.stop() if journal else board.close()
        if archive_dir:
            store.close()
    assert report.complete and report.stored == sum(len(g["records"]) for g in games.values())
    return {"seconds": dt, "up": up, "down": down, "games": len(games), "requests": requests, "report": report}


def ended(games):
    """A copy of `games` whose newest game is over (ended abandoned): a journal holding a game in
    progress would make the virtual board resume it and set its seeds out, not boot to the menu."""
    games = {n: dict(g, records=[dict(r) for r in g["records"]]) for n, g in games.items()}
    last = games[max(games)]
    if not last["over"]:
        last["records"].append({"kind": "end", "winner": None, "scores": [0, 0], "reason": "abandoned",
                                "ply": len(last["records"])})
        last["over"] = True
    return games


def firmware_journal(games, path):
    """Write a FileStorage file at `path` whose firmware Journal holds `games`, appended record by
    record as the controller writes them.  Filled in RAM and saved once: FileStorage saves the
    whole file after every change, which would make the filling quadratic."""
    ram = MemoryStorage(capacity=FLASH - ID_ROOM)
    journal = Journal(ram)
    journal.open()
    try:
        for number, g in sorted(games.items()):
            for r in g["records"]:
                journal.append(dict(r, game=number))
    except JournalError as e:
        sys.exit("bench_sync: %d games do not fit in the firmware journal's 1 MiB (%s); "
                 "give a smaller --firmware-games" % (len(games), e))
    disk = FileStorage(path, capacity=FLASH)
    disk.files = dict(ram.files)
    disk.save()


def run_firmware(games, work, archive=False):
    """One sync from the real firmware, from a fresh copy of the journal file made for `games`."""
    journal = os.path.join(work, "run.journal")
    shutil.copyfile(os.path.join(work, "filled.journal"), journal)
    try:
        return run(games, journal=journal, archive_dir=work if archive else None)
    finally:
        for name in ("run.journal", "bench.sqlite3"):
            if os.path.exists(os.path.join(work, name)):
                os.unlink(os.path.join(work, name))


def move_figures(games):
    moves = sum(1 for g in games.values() for r in g["records"] if r["kind"] == "move")
    json_bytes = sum(len(codec.dumps(r)) for g in games.values() for r in g["records"])
    return moves, json_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games in the unthrottled runs (default 200)")
    ap.add_argument("--paced-games", type=int, default=20, help="games in the 115200-baud run (default 20)")
    ap.add_argument("--firmware-games", type=int, default=100,
                    help="games in the real firmware's journal (default 100; about 250 fill its 1 MiB)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.firmware_games < 1:
        ap.error("--firmware-games must be at least 1")

    big = random_games(args.games, seed=args.seed)
    small = dict(list(big.items())[:args.paced_games])

    paced = run(small, rate=LINE)
    fast_small = run(small)
    fast = run(big)
    with tempfile.TemporaryDirectory() as d:
        fast_archive = run(big, archive_dir=d)

    fw_games = ended(random_games(args.firmware_games, seed=args.seed))
    with tempfile.TemporaryDirectory() as d:
        firmware_journal(fw_games, os.path.join(d, "filled.journal"))
        fw_bytes = os.path.getsize(os.path.join(d, "filled.journal"))
        mock_peer = run(fw_games)
        fw = run_firmware(fw_games, d)
        mock_peer_archive = run(fw_games, archive_dir=d)
        os.unlink(os.path.join(d, "bench.sqlite3"))
        fw_archive = run_firmware(fw_games, d, archive=True)

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

    print()
    print("the real firmware (VirtualBoard: App + BoardLink on a pty, SCAN_MS scans) from its own journal, "
          "%d games (%d records; journal file %d bytes)" % (
              len(fw_games), sum(len(g["records"]) for g in fw_games.values()), fw_bytes))
    print()
    print("%-34s %9s %10s %11s  %s" % ("run", "games/s", "records/s", "bytes", "ratio"))
    rows = [
        ("mock board, memory store", mock_peer, ""),
        ("real firmware, memory store", fw, "%.2fx the mock board's time" % (fw["seconds"] / mock_peer["seconds"])),
        ("mock board, SQLite archive", mock_peer_archive, ""),
        ("real firmware, SQLite archive", fw_archive, "%.2fx the mock board's time" % (
            fw_archive["seconds"] / mock_peer_archive["seconds"])),
    ]
    for name, r, ratio in rows:
        print("%-34s %9.1f %10.0f %11d  %s" % (name, r["games"] / r["seconds"], r["report"].stored / r["seconds"],
                                               r["up"] + r["down"], ratio))
    moves, json_bytes = move_figures(fw_games)
    fw_wire = fw["up"] + fw["down"]
    mock_wire = mock_peer["up"] + mock_peer["down"]
    print()
    print("bytes per move on the wire, real firmware: %.1f (host to board %.1f, board to host %.1f); "
          "mock board, same games: %.1f -> %.2fx; the records' JSON alone: %.1f per move" % (
              fw_wire / float(moves), fw["up"] / float(moves), fw["down"] / float(moves),
              mock_wire / float(moves), fw_wire / float(mock_wire), json_bytes / float(moves)))
    print("requests, real firmware: %d for %d games (%.1f per game); mock board: %d (%.1f per game)" % (
        fw["requests"], fw["games"], fw["requests"] / float(fw["games"]),
        mock_peer["requests"], mock_peer["requests"] / float(mock_peer["games"])))


if __name__ == "__main__":
    main()
