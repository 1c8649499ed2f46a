"""The web view in a real browser: headless Chromium (Debian's package) driven by Playwright.

The live board follows a virtual board on which robot hands play (`sowlight serve --virtual
--demo`); a game is replayed move by move and seed by seed; its analysis shows.  Screenshots
are taken and read: lit pits in their LED colour, pictures that change between steps and come
back when a step is taken back.  Set SOWLIGHT_WEB_SHOTS=DIR to keep copies of them.

Needs `chromium` (apt-get install chromium) and the `playwright` package (pip; its own browser
download, `playwright install`, is not used).  Missing, these tests are skipped -- but fail on CI.
"""
import os
import random
import shutil
import subprocess
import sys

import pytest

import mancala
from mancala.search import best_move
from sowlight.games import record as gamerecord
from webserver import Png, Serve, near, shots_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

PIT = "#6b4f2a"       # an unlit pit (static/board.js)


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    missing = []
    if _chromium() is None:
        missing.append("Chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing.append("Playwright (pip install playwright; the system's chromium is used, "
                       "no `playwright install`)")
    if missing:
        text = "the browser tests need " + " and ".join(missing)
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(text, pytrace=False)
        pytest.skip(text)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1100, "height": 900})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, errors


def keep(path, name):
    d = shots_dir()
    if d:
        shutil.copy(path, os.path.join(d, name))


def counts_shown(page, box):
    """{cell: count} as the board in `box` shows them."""
    return page.eval_on_selector_all(box + " .cell", "els => Object.fromEntries(els.map(e => "
                                     "[e.dataset.cell, e.querySelector('.count').textContent]))")


# ----- the live board ----------------------------------------------------------------------------

def test_the_live_board_follows_robot_hands_on_a_virtual_board(page, tmp_path):
    db = str(tmp_path / "a.sqlite3")
    with Serve(["--virtual", "--demo", "--hints", "--variant", "kalah", "--pace", "0.4", "--no-archive",
                "--db", db]) as srv:
        page.goto(srv.url + "/#/live")
        page.wait_for_selector("#live-board svg.board .cell[data-role='lift']", timeout=30000)
        # The board's hint: its pit lit green, and named.
        page.wait_for_function("""() => { const c = document.querySelector("#live-board .cell[data-role='hint']");
                                          const f = document.querySelector("[data-fact='hint']");
                                          return c && f && f.textContent.includes(c.dataset.name); }""",
                               timeout=30000)
        # The values of every legal move where the board is.
        page.click("#live-analyse")
        page.wait_for_selector("#live-values-table")
        assert page.locator("#live-values-table tr").count() >= 2
        first = page.locator("#live-board").screenshot(path=str(tmp_path / "live-1.png"))
        # What the page receives: snapshots as the hands go, several within one move.
        page.evaluate("""() => { window.snaps = []; const es = new EventSource('/api/live/events');
                                 es.onmessage = e => window.snaps.push(JSON.parse(e.data)); }""")
        page.wait_for_function("""() => { const moves = new Set(window.snaps.filter(s => s.last_move)
                                                   .map(s => s.last_move.ply));
                                          return moves.size >= 3; }""", timeout=60000)
        snaps = page.evaluate("window.snaps")
        steps = [s for s in snaps if s.get("step")]
        assert steps, "no snapshot in the middle of a move"
        # Seed by seed: within one move the counts change from one snapshot to the next.
        by_ply = {}
        for s in steps:
            by_ply.setdefault((s["board_game"], s["ply"]), []).append(tuple(s["counts"]))
        assert any(len(set(c)) >= 3 for c in by_ply.values()), by_ply
        # ... and the seeds are always all there: on the board or in the hand.
        total = sum(snaps[0]["counts"]) + snaps[0].get("hand", 0)
        assert all(sum(s["counts"]) + s.get("hand", 0) == total for s in snaps if s.get("counts"))
        assert page.locator("[data-fact='game']").inner_text().startswith("Kalah (board game 1")
        assert page.locator("[data-fact='last move']").inner_text().startswith("player ")
        # Freeze the page in the middle of a move (its stream closed) to read its picture.
        page.wait_for_function("""() => { if (!document.querySelector('#live-board .focus')) return false;
                                          liveSource.close(); return true; }""", timeout=30000, polling=10)
        shot = tmp_path / "live-2.png"
        second = page.locator("#live-board").screenshot(path=str(shot))
        keep(shot, "live-board.png")
        page.screenshot(path=str(tmp_path / "live-page.png"))
        keep(tmp_path / "live-page.png", "live-page.png")
        assert second != first
        img = Png(second)
        origin = page.locator("#live-board").bounding_box()
        meta = srv.json("/api/meta")
        to_move = int(page.locator("[data-fact='to move']").inner_text().split()[-1])
        lit = unlit = 0
        for cell in page.locator("#live-board .cell").all():
            box = cell.locator(".pit").bounding_box()
            x = box["x"] - origin["x"] + box["width"] * 0.22
            y = box["y"] - origin["y"] + box["height"] * 0.5
            rgb = img.pixel(x, y)
            role = cell.get_attribute("data-role")
            if role is None:
                unlit += 1
                assert near(rgb, PIT, 12), (rgb, cell.get_attribute("data-name"))
            else:
                lit += 1
                colour = meta["colours"]["lift%d" % to_move if role == "lift" else role]
                assert near(rgb, colour, 30), (rgb, role, cell.get_attribute("data-name"))
        assert lit and unlit
        assert len(img.colours()) > 20          # a picture, not a blank


# ----- replay and analysis ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def archive_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replay")
    rng = random.Random(11)
    g = mancala.Game("kalah")
    while not g.is_over():
        g.play(rng.choice(g.legal_moves()) if g.to_move == 1 else best_move(g, depth=3).best)
    path = tmp / "g.json"
    path.write_text(gamerecord.dumps([gamerecord.from_game(g, players=["Ann", "Bob"], started="2026-11-20T18:00:00Z")]))
    db = str(tmp / "a.sqlite3")
    r = subprocess.run([sys.executable, "-m", "sowlight", "games", "import", str(path), "--db", db],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with Serve(["--no-board", "--db", db, "--depth", "3"]) as srv:
        yield srv


def open_game(page, srv, number, from_list=False):
    """The game's page, opened from the list of games or by its address."""
    if from_list:
        page.goto(srv.url + "/#/games")
        page.click("tr[data-game='%d'] a" % number)
    else:
        page.goto(srv.url + "/#/game/%d" % number)
    page.wait_for_selector("#replay-board svg.board")


def test_a_game_is_replayed_move_by_move_and_seed_by_seed(page, archive_server, tmp_path):
    srv = archive_server
    d = srv.json("/api/games/1")
    open_game(page, srv, 1, from_list=True)
    board = page.locator("#replay-board")

    def at(ply):
        assert board.get_attribute("data-ply") == str(ply)
        shown = counts_shown(page, "#replay-board")
        assert [int(shown[str(c)]) for c in range(len(d["positions"][ply]["counts"]))] == d["positions"][ply]["counts"]

    at(0)
    start = board.screenshot()
    page.click("#forward")
    at(1)
    one = board.screenshot()
    assert one != start
    page.click("#back")
    at(0)
    assert board.screenshot() == start           # the same picture again
    page.click("#moves a.mv[data-ply='5']")
    at(5)
    page.keyboard.press("ArrowRight")
    at(6)
    page.click("#last")
    at(len(d["plies"]))
    assert "game over" in page.inner_text("#replay-status")
    page.click("#first")
    at(0)
    # Seed by seed: the first move's frames, the step's pit ringed, then the position after it.
    page.click("#animate")
    page.wait_for_selector("#replay-board .focus")
    frames = []
    for _ in range(3):
        frames.append((page.inner_text("#replay-status"), board.screenshot()))
        page.wait_for_function("t => document.getElementById('replay-status').textContent !== t", arg=frames[-1][0])
    assert frames[0][0].startswith("ply 1, %s: lift" % d["plies"][0]["notation"])
    assert len({f[1] for f in frames}) == 3
    page.wait_for_function("document.getElementById('replay-board').dataset.ply === '1'", timeout=20000)
    at(1)
    assert page.locator("#replay-board .focus").count() == 0
    status, headers, body = srv.get(page.get_attribute("#dl-record", "href"))
    assert status == 200 and body.startswith(b'[Variant "kalah"]')


def test_the_analysis_shows(page, archive_server, tmp_path):
    srv = archive_server
    rep = srv.json("/api/games/1/analysis?depth=3")
    open_game(page, srv, 1)
    page.click("#analyse")
    page.wait_for_selector("#eval-graph")
    assert page.locator("#eval-graph circle.pt").count() == len(rep["moves"])
    assert page.locator("#mistakes li").count() == len(rep["mistakes"]) > 0
    first = rep["mistakes"][0]
    assert page.locator("#moves a.mv[data-ply='%d']" % first["ply"]).get_attribute("class").split()[-1] in (
        "mistake", "blunder")
    # The values of every legal move of the position shown (the start: Kalah's 6 pits).
    assert page.locator("#values-table tr").count() == 1 + len(rep["moves"][0]["moves"])
    for s in rep["share"]:
        pct = "no choice" if s["share"] is None else "%d%% (%d of %d)" % (round(100 * s["share"]), s["best"], s["moves"])
        assert pct in page.inner_text("#share-table")
    # A mistake's point on the graph takes the board to the position it was played in.
    page.click("#eval-graph circle.pt[data-ply='%d']" % first["ply"])
    assert page.get_attribute("#replay-board", "data-ply") == str(first["ply"] - 1)
    assert page.locator("#values-table tr.played td").first.inner_text().startswith(first["notation"])
    shot = tmp_path / "analysis.png"
    page.screenshot(path=str(shot), full_page=True)
    keep(shot, "game-analysis.png")
    graph = Png(page.locator("#eval-graph").screenshot())
    colours = graph.colours()
    assert any(near(tuple(c), "#1565c0", 30) for c in colours)      # the line
    assert any(near(tuple(c), "#c62828", 30) for c in colours)      # the mistakes' points
    page.goto(srv.url + "/#/stats")
    page.wait_for_selector("#plot-results svg rect")
    assert "Ann" in page.inner_text("#plot-results")
