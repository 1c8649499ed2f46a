"""Damaged bytes in a board's journal: how many intact moves survive, how many damaged records
are rebuilt.

    python bench/bench_journal_damage.py                   # oware and kalah, every byte of every record
    python bench/bench_journal_damage.py --variants oware --seeds 1,2

A whole game is played by the fake hands (tests/micropython/fakes/hands.py)
on the real controller, and its records appended to the firmware's Journal as
the app does.  Then, for every byte of every record in the game's file in
turn, one bit pattern (0x40) is flipped in a fresh copy and the board's boot
path reads it back: Journal.open() (repairs, gaps) and Journal.mend() (the
missing record rebuilt from the records after it, or marked lost).  Printed:
bytes flipped, intact moves lost (must be 0), damaged records rebuilt, lost,
and dropped as a torn end (the last record: a power cut looks the same).
"""
import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fakeload import load_fake  # noqa: E402
from sowlight_fw import config, journal  # noqa: E402
from sowlight_fw.controller import Controller, games  # noqa: E402
from sowlight_fw.journal import Journal  # noqa: E402
from sowlight_fw.storage import MemoryStorage  # noqa: E402

BOARD = config.check(json.loads((ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text()))


def game_file(variant="oware", seed=3):
    """(the game's file bytes, its records) for a whole game of `variant` played by the fake hands."""
    hands = load_fake("hands")
    h = hands.start(BOARD, variant, seed=seed)
    h.play()
    st = MemoryStorage()
    j = Journal(st)
    j.open()
    for r in h.c.records:
        j.append(r)
    return bytes(st.files[journal.file_name(1)]), h.c.records


def record_spans(data):
    """[(start, end)] of every record in a game's file (both copies of a start or setpos)."""
    out = []
    i = 0
    while i < len(data):
        r = journal.parse(data, i)
        out.append((i, r[5]))
        i = r[5]
    return out


def boot(data):
    """The records a board booting on this game file serves (after open() and mend()), and
    what mend() did: [(ply, record or None)]."""
    st = MemoryStorage()
    st.files[journal.file_name(1)] = bytearray(data)
    j = Journal(st)
    j.open()
    c = Controller(BOARD)
    mended = j.mend(lambda v, o, pos: games.make(c, v, o, pos), c.variants) if j.gaps else []
    recs = j.records(1, 0, 1 << 16)[0] if 1 in j.games else []
    return recs, [(p, rec) for _, p, rec in mended]


def flip(data, offset, bits=0x40):
    bad = bytearray(data)
    bad[offset] ^= bits
    return bytes(bad)


def tally(data, records, offsets):
    """Flip each byte at `offsets` in turn; the figures (dict)."""
    moves = {r["ply"]: r for r in records if r["kind"] == "move"}
    spans = record_spans(data)
    last = spans[-1]
    fig = {"flipped": 0, "intact_moves_lost": 0, "rebuilt": 0, "lost": 0, "torn_end": 0, "unchanged": 0}
    for off in offsets:
        hit = [k for k, (a, b) in enumerate(spans) if a <= off < b][0]
        recs, mended = boot(flip(data, off))
        fig["flipped"] += 1
        got = {r["ply"]: r for r in recs}
        damaged_ply = journal.parse(data, spans[hit][0])[2]
        for ply, want in moves.items():
            r = got.get(ply)
            same = r is not None and r["kind"] == "move" and r["move"] == want["move"] and r["player"] == want["player"]
            if not same and ply != damaged_ply:
                fig["intact_moves_lost"] += 1
        if mended:
            fig["rebuilt"] += sum(1 for _, rec in mended if rec is not None)
            fig["lost"] += sum(1 for _, rec in mended if rec is None)
        elif spans[hit] == last and damaged_ply not in got:
            fig["torn_end"] += 1
        else:
            fig["unchanged"] += 1      # the other copy of a start or setpos holds it
    return fig


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", default="oware,kalah")
    ap.add_argument("--seeds", default="3")
    args = ap.parse_args(argv)
    for variant in args.variants.split(","):
        for seed in (int(s) for s in args.seeds.split(",")):
            data, records = game_file(variant, seed)
            t0 = time.perf_counter()
            fig = tally(data, records, range(len(data)))
            moves = sum(1 for r in records if r["kind"] == "move")
            print("%s (seed %d): %d records (%d moves), %d bytes; every byte flipped in turn (%.1f s):"
                  % (variant, seed, len(records), moves, len(data), time.perf_counter() - t0))
            print("  intact moves lost %d; damaged records rebuilt %d, lost %d, dropped as a torn end %d; "
                  "held by the other copy %d" % (fig["intact_moves_lost"], fig["rebuilt"], fig["lost"],
                                                fig["torn_end"], fig["unchanged"]), flush=True)


if __name__ == "__main__":
    main()
