"""`sowlight sync` with its default settings holds at 1 % of the bytes lost, and at 1 % damaged,
in both directions, against the real firmware on a virtual board (docs/protocol.md promises it).

One 60-move game in the firmware's journal, the CLI as a user runs it; it must exit 0 with every
record in the archive.  bench/bench_link_loss.py (whose helpers these are) prints the rate up to
which it holds.  About 10 s a run."""
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_link_loss import one_game_journal, sync_through  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


@pytest.mark.parametrize("fault", ["drop", "corrupt"])
def test_sync_of_a_60_move_game_completes_at_1_percent(fault, tmp_path):
    journal = str(tmp_path / "game.journal")
    records = one_game_journal(journal, moves=60)
    status, held, took, said = sync_through(journal, fault, 0.01, 3, str(tmp_path))
    assert status == 0, said
    assert held == records == 62, said
    assert "1 game acknowledged" in said


# ----- what makes it hold, on the scripted board -----------------------------------------------

def test_requests_are_sent_again_after_a_few_round_trips_and_silence_alone_takes_the_link_down():
    from mockboard import MockBoard, Wire, WireOpener, random_games
    from sowlight.board.link import Link, LinkDown
    board = MockBoard(random_games(2, seed=4))
    opener = WireOpener(board)
    try:
        with Link(opener, timeout=1.0, rto_min=0.05, reconnect_for=3.0, ping_every=30.0, dead_after=60.0) as lk:
            lk.connect()
            for _ in range(5):
                lk.request("get_state")
            assert lk.srtt is not None
            board.deaf["journal_list"] = 1          # the request is lost once: sent again, same seq
            start = time.monotonic()
            assert lk.request("journal_list")["games"]
            took = time.monotonic() - start
            assert lk.stats["resent_timeout"] == 1
            # Sent again after a timeout timed from replies to a first copy, within
            # [rto_min, timeout]: a few scans, not a second.
            assert 0.05 <= took < 1.0
    finally:
        opener.close()
    # Nobody there: copies go every retransmission timeout, and the link is down only after
    # (retries + 1) x timeout of silence -- more tries than the 4 of a timeout of a whole second.
    wire = Wire()
    with Link(lambda: wire.host, timeout=0.5, reconnect_for=0, ping_every=30.0, dead_after=60.0) as lk:
        with pytest.raises(LinkDown, match=r"no reply to 'hello' after (\d+) tries") as e:
            lk.connect()
    tries = int(re.search(r"after (\d+) tries", str(e.value)).group(1))
    assert tries > 4 and lk.stats["resent_timeout"] == tries - 1


def test_a_brief_hello_is_asked_for_by_sync_and_a_board_answers_it_without_config_and_variants(tmp_path):
    from sowlight.board import ports
    from sowlight.board.link import Link
    from sowlight.simulation.virtual import VirtualBoard
    vb = VirtualBoard()
    port = vb.start()
    try:
        with Link(ports.opener(port=port), brief=True) as lk:
            hello = lk.connect()
        assert hello["brief"] is True and "config" not in hello and "variants" not in hello
        assert hello["board"].startswith("sowlight-") and hello["proto"][:1] == [1]
        with Link(ports.opener(port=port)) as lk:
            hello = lk.connect()
        assert "brief" not in hello and hello["variants"] and hello["config"]["geometry"]
    finally:
        vb.stop()
