"""Broadcast and remote play through Mosquitto: how many boards at once, messages per second,
and the latency from a drop on one board to the light on the remote board.

    python bench/bench_broadcast.py [--boards 16] [--seeds 2] [--burst 20000] [--games 1]

Starts its own Mosquitto (127.0.0.1, a free port, persistence off) and:

1. `sowlight broadcast --virtual N --demo kalah`: N virtual boards, robot hands
   playing a game on each; a viewer (broadcast/feed.py) rebuilds every game and
   counts what came through the broker while they played;
2. a burst of QoS 1 messages of the size of a move record from one client to
   one subscriber: the broker's own rate on this machine, for comparison;
3. a remote game between two virtual boards (remote.py, robot hands following
   their LEDs): for each move, the time from the last seed dropped on the
   mover's board to the guided pit lit on the other board, p50 and p99.

Every figure is printed; nothing is asserted about speed.  The robot hands act
as fast as the link lets them, so the broadcast's rate is what N boards played
at machine speed need, not a limit.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from brokers import Mosquitto, program  # noqa: E402
from sowlight.board.view import VIRTUAL_SETTINGS, open_board  # noqa: E402
from sowlight.broadcast import broker  # noqa: E402
from sowlight.broadcast.feed import EventFeed  # noqa: E402
from sowlight.broadcast.remote import RemoteGame  # noqa: E402
from sowlight.broadcast.remote_cli import robot_hands  # noqa: E402
from sowlight.broadcast.topics import EventTopics, TableTopics  # noqa: E402
from sowlight.simulation.robot import Robot  # noqa: E402
from sowlight.games.sync import MemoryStore  # noqa: E402
from sowlight.simulation.virtual import VirtualBoard  # noqa: E402


def connect(url, name):
    conn = broker.BrokerConnection(broker.BrokerSettings.from_url(url), name).start()
    conn.wait_connected(10)
    return conn


def bench_boards(url, boards, seeds, games):
    conn = connect(url, "bench-viewer")
    feed = EventFeed(conn, EventTopics("bench")).start()
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "sowlight", "broadcast", "--broker", url, "--event", "bench",
                        "--virtual", str(boards), "--demo", "kalah", "-o", "seeds=%d" % seeds, "--games", str(games),
                        "--seed", "1", "--no-archive"], capture_output=True, text=True)
    took = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("the broadcast failed: %s" % (p.stdout + p.stderr)[-2000:])
    over = feed.wait(lambda f: sum(g.snapshot()["over"] for g in f.games().values()) >= boards * games, 30)
    records = sum(len(g.records) for g in feed.games().values())
    moves = sum(len(g.snapshot()["moves"]) for g in feed.games().values())
    live = conn.received - records
    conn.stop()
    print("broadcast: %d boards at once, %d game%s each (kalah, %d seeds): %d moves, %d records and %d live messages "
          "through the broker in %.1f s (boards started, games played, published): %.0f messages/s, %.1f moves/s%s"
          % (boards, games, "" if games == 1 else "s", seeds, moves, records, live, took, conn.received / took,
             moves / took, "" if over else "  (NOT every game arrived complete)"))


def bench_burst(url, count, size=300):
    sub = connect(url, "bench-sub")
    got = threading.Event()
    seen = [0]

    def take(topic, payload):
        seen[0] += 1
        if seen[0] >= count:
            got.set()
    sub.subscribe("bench/burst/#", take)
    time.sleep(0.5)
    pub = connect(url, "bench-pub")
    body = {"pad": "x" * (size - 20)}
    t0 = time.monotonic()
    for i in range(count):
        body["i"] = i
        pub.publish("bench/burst/%d" % (i % 16), body)
    got.wait(120)
    took = time.monotonic() - t0
    print("broker: %d QoS 1 messages of %d bytes, one publisher to one subscriber: %d arrived in %.2f s: %.0f messages/s"
          % (count, size, seen[0], took, seen[0] / took))
    pub.stop()
    sub.stop()


def bench_remote(url, seeds):
    """A remote game; latency per move from the mover's last drop to the lift lit on the other board."""
    last_drop = {}          # seat -> monotonic time of its board's latest drop
    dropped = {}            # journal ply -> time of the last drop of the move on the mover's board
    lit = {}                # journal ply -> time the other board lit the guided pit
    seats = []
    tmp = tempfile.mkdtemp(prefix="sowlight-bench-")
    for seat in (0, 1):
        vb = VirtualBoard(preset="2x6-stores", settings=VIRTUAL_SETTINGS)
        board = open_board(port=vb.start())
        conn = connect(url, "bench-seat%d" % seat)
        store = MemoryStore()
        rg = RemoteGame(conn, TableTopics("bench-table"), seat, board, lambda s=store: s, variant="kalah",
                        options={"seeds": seeds}, pump=False)
        view = board.view
        sim = view.sim

        def timed_sim(act, _sim=sim, _seat=seat, **fields):
            reply = _sim(act, **fields)
            if act == "drop":
                last_drop[_seat] = time.monotonic()
            return reply
        view.sim = timed_sim

        def watch(kind, p, _seat=seat, _rg=rg, _view=view):
            if kind == "move" and p.get("player") == _seat:
                dropped.setdefault(p["ply"], last_drop.get(_seat))
            elif kind == "leds" and _rg.guided is not None and _rg.guided[1] is not None:
                ply = _rg.guided[0]
                if ply not in lit and any(r == "lift" for _, r, *rest in p["lit"]):
                    lit[ply] = time.monotonic()
        view.watchers += [rg.take, watch]
        stop = threading.Event()
        result = {}
        threads = [threading.Thread(target=lambda r=rg, s=stop, out=result: out.update(done=r.run(s, timeout=600)),
                                    daemon=True),
                   threading.Thread(target=robot_hands, args=(rg, Robot(view, rng=random.Random(seat)), stop),
                                    daemon=True)]
        seats.append((vb, board, conn, rg, stop, threads, result))
    t0 = time.monotonic()
    for s in seats:
        for t in s[5]:
            t.start()
    for s in seats:
        s[5][0].join(600)
    took = time.monotonic() - t0
    for vb, board, conn, rg, stop, threads, result in seats:
        stop.set()
        threads[1].join(10)
        conn.stop()
        board.close()
        vb.stop()
    lat = sorted((lit[p] - dropped[p]) * 1000 for p in dropped if p in lit and dropped[p] is not None)
    moves = len(seats[0][3].moves)
    if not lat:
        print("remote play: no latency measured (%d moves)" % moves)
        return
    p99 = lat[min(len(lat) - 1, int(round(0.99 * (len(lat) - 1))))]
    print("remote play: a game of %d moves in %.1f s; from the last seed dropped on one board to the pit lit on "
          "the other: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d moves measured)"
          % (moves, took, statistics.median(lat), p99, lat[-1], len(lat)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=16, help="virtual boards broadcasting at once (default 16)")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per pit of the demo games of Kalah (default 2)")
    ap.add_argument("--games", type=int, default=1, help="games per board (default 1)")
    ap.add_argument("--burst", type=int, default=20000, help="messages in the broker's burst (default 20000)")
    args = ap.parse_args()
    if program() is None:
        sys.exit("bench_broadcast needs the Mosquitto broker: apt-get install mosquitto")
    with tempfile.TemporaryDirectory(prefix="sowlight-mosquitto-") as d:
        b = Mosquitto(d).start()
        try:
            print("Mosquitto at %s, %d CPUs, load %.1f" % (b.url, os.cpu_count(), os.getloadavg()[0]))
            bench_boards(b.url, args.boards, args.seeds, args.games)
            bench_burst(b.url, args.burst)
            bench_remote(b.url, args.seeds)
        finally:
            b.stop()


if __name__ == "__main__":
    main()
