"""`sowlight sync` with its default settings holds at 1 % of the bytes lost, and at 1 % damaged,
in both directions, against the real firmware on a virtual board (docs/protocol.md promises it).

One 60-move game in the firmware's journal, the CLI as a user runs it; it must exit 0 with every
record in the archive.  bench/bench_link_loss.py (whose helpers these are) prints the rate up to
which it holds.  About 10 s a run."""
import sys
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
