"""A sync cut off at every byte: for each offset of a small sync, in each direction, the cable
is pulled at that byte; whatever the first sync managed, nothing the board was told is synced
is missing from the store, and a second sync completes it -- nothing lost, nothing stored twice."""
import pytest

from sowlight.board.link import Link, LinkError
from sowlight.games.sync import MemoryStore, SyncError, sync

from mockboard import BoardServer, MockBoard, Wire, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

GAMES = random_games(2, seed=12, plies=(2, 3))
TOTAL = sum(len(g["records"]) for g in GAMES.values())
OPTIONS = dict(timeout=0.5, retries=3, backoff=0.001, reconnect_for=0, keepalive=False)


class OneCable:
    """An opener with one cable: once it is out, the port is gone."""

    def __init__(self, board, wire):
        self.board = board
        self.wire = wire
        self.server = None

    def __call__(self):
        if self.server is not None:
            raise OSError(2, "No such file or directory")
        self.server = BoardServer(self.board, self.wire.board)
        self.server.start()
        return self.wire.host

    def close(self):
        self.wire.pull()
        if self.server is not None:
            self.server.stop()


def run_sync(board, store, wire):
    """One sync over `wire`; (report, finished)."""
    cable = OneCable(board, wire)
    lk = Link(cable, **OPTIONS)
    try:
        lk.connect()
        return sync(lk, store), True
    except SyncError as e:
        return e.report, False
    except LinkError:  # cut during the hello: nothing was synced
        return None, False
    finally:
        lk.close()
        cable.close()


def clean_traffic():
    board, wire = MockBoard(GAMES), Wire()
    report, finished = run_sync(board, MemoryStore(), wire)
    assert finished and report.stored == TOTAL
    return wire.faults.a_to_b.written, wire.faults.b_to_a.written


def test_a_clean_small_sync():
    up, down = clean_traffic()
    assert 300 < up < 2000 and 1000 < down < 4000


@pytest.mark.parametrize("direction", ["host_to_board", "board_to_host"])
def test_a_cut_at_every_byte_is_completed_by_the_next_sync(direction):
    up, down = clean_traffic()
    total = up if direction == "host_to_board" else down
    outcomes = {"finished": 0, "cut": 0}
    # Cuts at every byte of the clean run's traffic, then on until two syncs outrun their cut:
    # on a loaded machine a retransmission can make a run a little longer than the clean one.
    offset = -1
    while offset < total + 1 or outcomes["finished"] < 2:
        offset += 1
        assert offset <= 2 * total, outcomes
        board = MockBoard(GAMES, seed=offset)
        store = MemoryStore()
        wire = Wire(seed=offset)
        (wire.faults.a_to_b if direction == "host_to_board" else wire.faults.b_to_a).cut_at(offset)
        first, finished = run_sync(board, store, wire)
        outcomes["finished" if finished else "cut"] += 1
        # Whatever happened, the board was never told of a record the store lacks,
        # and the store holds exactly the board's records, as far as it got.
        state = store.sync_state(board.board_id)
        for g, v in board.games.items():
            held = store.journal(board.board_id, g)
            assert held == board.journal(g)[:len(held)], (offset, g)
            assert v["synced"] <= state.get(g, {"stored_upto": -1})["stored_upto"], (offset, g)
        if offset % 2:
            board.reboot()  # a USB-powered board restarts when the cable comes out; half the time
        second, finished = run_sync(board, store, Wire(seed=offset + 1))
        assert finished and second.complete, offset
        for g, v in board.games.items():
            assert store.journal(board.board_id, g) == board.journal(g), (offset, g)
            assert v["synced"] == board.last_ply(g), (offset, g)
        # nothing stored twice: the two syncs stored every record exactly once between them
        assert (first.stored if first else 0) + second.stored == TOTAL, offset
    # Most offsets cut the sync off; the last ones come after its last byte.
    assert outcomes["cut"] >= total - 5 and outcomes["finished"] >= 2, outcomes
