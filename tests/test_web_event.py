"""`sowlight serve --event`: an event's boards, broadcasting through a real Mosquitto, in a real browser.

Virtual boards play demo games under `sowlight broadcast`; the page shows them as a grid of live
boards that follows their moves, and a board opens its game (moves, replay) made from the records
the broker brought.  SOWLIGHT_WEB_SHOTS=DIR keeps the grid's screenshot (event-grid.png).
"""
import os
import subprocess
import sys

import pytest

from sowlight.broadcast import broker
from sowlight.broadcast.feed import EventFeed
from sowlight.broadcast.topics import EventTopics
from webserver import Png, Serve, near

from brokers import mosquitto, need_mosquitto  # noqa: F401 (the fixture)
from test_web_browser import browser, counts_shown, keep, page  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

SOWLIGHT = [sys.executable, "-m", "sowlight"]
WOOD = "#c9a36b"        # the board (static/board.js)


def broadcast(log, url, event, variant, boards, seed, *more):
    with open(log, "w") as f:
        return subprocess.Popen(SOWLIGHT + ["broadcast", "--broker", url, "--event", event, "--virtual", str(boards),
                                            "--demo", variant, "--games", "1", "--seed", str(seed), "--no-archive",
                                            "--for", "300"] + list(more),
                                stdout=f, stderr=subprocess.STDOUT)


def cells(page):
    """{board: (ply, {cell: count})} as the grid shows them."""
    out = {}
    for e in page.locator("#event-grid .event-cell").all():
        board = e.get_attribute("data-board")
        out[board] = (int(e.get_attribute("data-ply")),
                      counts_shown(page, "#event-grid .event-cell[data-board='%s']" % board))
    return out


def test_an_event_is_a_grid_of_live_boards_each_opening_its_game(page, tmp_path, mosquitto):
    conn = broker.BrokerConnection(broker.BrokerSettings.from_url(mosquitto.url), "test-viewer").start()
    conn.wait_connected(10)
    feed = EventFeed(conn, EventTopics("friday")).start()
    logs = [str(tmp_path / "kalah.log"), str(tmp_path / "oware.log")]
    procs = [broadcast(logs[0], mosquitto.url, "friday", "kalah", 2, 1, "-o", "seeds=3"),
             broadcast(logs[1], mosquitto.url, "friday", "oware", 1, 2)]
    try:
        with Serve(["--broker", mosquitto.url, "--event", "friday", "--db", str(tmp_path / "a.sqlite3")]) as srv:
            page.goto(srv.url + "/")                     # an event's server opens on its grid
            page.wait_for_function("document.querySelectorAll('#event-grid .event-cell svg.board').length === 3",
                                   timeout=60000)
            assert page.locator("#nav-event").is_visible()
            assert "friday" in page.inner_text("h1")
            titles = sorted(page.locator("#event-grid .cell-title b").all_inner_texts())
            assert titles == ["Kalah", "Kalah", "Oware"]
            before = cells(page)
            assert feed.wait(lambda f: set(before) <= {b for b, _ in f.games()}, 20)
            # Every board drawn as its records leave it: the seeds all there.
            for board, (ply, counts) in before.items():
                total = sum(int(n) for n in counts.values())
                assert total == (2 * 6 * 3 if "Kalah" in page.inner_text(
                    "#event-grid .event-cell[data-board='%s'] .cell-title" % board) else 48)

            # Live: every board moves on, and its picture with it.
            page.wait_for_function("""before => [...document.querySelectorAll('#event-grid .event-cell')]
                                        .every(e => +e.dataset.ply > before[e.dataset.board])""",
                                   arg={b: p for b, (p, _) in before.items()}, timeout=60000)
            after = cells(page)
            assert all(after[b][1] != before[b][1] for b in before), (before, after)
            shot = tmp_path / "event-grid.png"
            page.screenshot(path=str(shot), full_page=True)
            keep(shot, "event-grid.png")
            img = Png(page.locator("#event-grid").screenshot())
            assert len(img.colours()) > 20                     # a picture, not a blank
            assert any(near(tuple(c), WOOD, 6) for c in img.colours())
            # The boards' pits show their counts, in the grid's cells, where board.js draws them.
            # (Measured in one step in the page: every record redraws its cell, so a handle to the
            # cell can go stale between finding it and measuring it.)
            box = page.evaluate("""() => { const r = document.querySelector('#event-grid .event-cell')
                                                 .getBoundingClientRect(); return {width: r.width, height: r.height}; }""")
            assert box["width"] > 250 and box["height"] > 150, box

            # A board opens its game: its moves, from the broker's records, replayed.
            oware = page.locator("#event-grid .event-cell:has(.cell-title b:text-is('Oware'))")
            board = oware.get_attribute("data-board")
            oware.click()
            page.wait_for_selector("#replay-board svg.board")
            assert page.evaluate("location.hash").startswith("#/event/%s/" % board)
            game = int(page.evaluate("location.hash").split("/")[-1])
            shown = page.locator("#moves a.mv").all_inner_texts()
            # (This test's own subscription may be a record or two behind the server's.)
            assert feed.wait(lambda f: len(f.game(board, game).snapshot()["moves"]) >= len(shown), 20)
            snap = feed.game(board, game).snapshot()
            assert shown and shown == snap["moves"][:len(shown)]
            page.click("#forward")
            assert page.get_attribute("#replay-board", "data-ply") == "1"
            page.click("#last")
            assert page.get_attribute("#replay-board", "data-ply") == str(len(shown))
            d = srv.json("/api/event/boards/%s/games/%d" % (board, game))
            assert d["board"] == board and d["variant"] == "oware" and len(d["plies"]) >= len(shown)
            # The board goes on: the page says so, and shows the moves since when asked.
            page.wait_for_selector("#newer-show", timeout=30000)
            page.click("#newer-show")
            page.wait_for_function("n => document.querySelectorAll('#moves a.mv').length > n", arg=len(shown))
            more = page.locator("#moves a.mv").all_inner_texts()
            assert more[:len(shown)] == shown
            status, _, body = srv.get("/api/event/boards/%s/games/%d/record.txt" % (board, game))
            assert status == 200 and body.startswith(b'[Variant "oware"]') and b"[Board \"%s\"]" % board.encode() in body
            page.click("#back-event")
            page.wait_for_selector("#event-grid .event-cell svg.board")
            assert srv.json("/api/event/boards/%s/games/999" % board, status=404)["error"]
            # Its host stopped: the board is shown offline (the host's presence), the others not.
            procs[1].terminate()
            assert procs[1].wait(30) == 0
            page.wait_for_selector("#event-grid .event-cell.offline[data-board='%s']" % board, timeout=20000)
            assert page.locator("#event-grid .event-cell.offline").count() == 1
    except Exception:
        for log in logs:
            with open(log) as f:
                print(log, f.read()[-3000:])
        raise
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        feed.stop()
        conn.stop()


def test_serve_says_plainly_when_the_event_s_broker_is_not_there(tmp_path):
    from brokers import free_port
    r = subprocess.run(SOWLIGHT + ["serve", "--port", "1", "--broker", "mqtt://127.0.0.1:%d" % free_port(),
                                   "--event", "x"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "no broker answers at mqtt://127.0.0.1" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(SOWLIGHT + ["serve", "--broker", "mqtt://127.0.0.1"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "add --event NAME" in r.stderr
