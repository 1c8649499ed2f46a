"""bench/bench_sync.py runs end to end on a few games, the real firmware's journal included.

Only that it completes and prints every figure: the bench itself checks each sync stored every
record; nothing here (or there) asserts a speed."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_sync_runs_on_a_few_games_against_the_mock_board_and_the_real_firmware():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_sync.py"), "--games", "6",
                          "--paced-games", "2", "--firmware-games", "5"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for row in ("real firmware, memory store", "real firmware, SQLite archive", "mock board, memory store",
                "bytes per move on the wire, real firmware:", "5 games ("):
        assert row in out.stdout, (row, out.stdout)
