"""The link over real transports: a pseudo-terminal opened by path with pyserial (as a user's
laptop opens a board), a socket:// URL, and the cable pulled from both."""
import pytest

from sowlight.board import ports
from sowlight.board.link import Link
from sowlight.games.sync import MemoryStore, sync

from mockboard import MockBoard, PtyBoard, TcpBoard, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

FAST = dict(timeout=0.5, backoff=0.01, backoff_max=0.05, reconnect_for=5.0, ping_every=30.0, dead_after=60.0)


@pytest.fixture
def board():
    return MockBoard(random_games(6, seed=4))


def check_synced(store, board):
    for g in board.games:
        assert store.journal(board.board_id, g) == board.journal(g)
        assert board.games[g]["synced"] == board.last_ply(g)


def test_sync_over_a_pty_opened_by_path(board):
    pb = PtyBoard(board)
    try:
        with Link(ports.opener(port=pb.port), **FAST) as lk:
            lk.connect()
            report = sync(lk, MemoryStore())
    finally:
        pb.close()
    assert report.complete and report.stored == sum(len(g["records"]) for g in board.games.values())


def test_pty_cable_pulled_and_plugged_back_under_another_name(board):
    pb = PtyBoard(board)
    names = [pb.port]
    try:
        with Link(lambda: ports.open_port(pb.port), **FAST) as lk:
            lk.connect()
            pb.pull()  # the host's next read fails (EIO), as with a USB cable
            names.append(pb.replug())
            store = MemoryStore()
            report = sync(lk, store)
    finally:
        pb.close()
    assert report.complete
    check_synced(store, board)
    assert lk.stats["reconnects"] == 1 and lk.stats["downs"] == 1
    assert board.executed["hello"] == 2


def test_a_port_in_use_is_refused(board):
    pb = PtyBoard(board)
    try:
        first = ports.open_port(pb.port)
        try:
            with pytest.raises(ports.PortBusyError, match="in use by another program"):
                ports.open_port(pb.port)
        finally:
            first.close()
        ports.open_port(pb.port).close()  # free again once the first one closed it
    finally:
        pb.close()


def test_the_pty_runs_at_115200_baud(board):
    import termios
    pb = PtyBoard(board)
    try:
        attrs = termios.tcgetattr(pb.slave)
        assert attrs[4] == attrs[5] == termios.B115200
    finally:
        pb.close()


def test_sync_over_a_socket_url_and_a_dropped_connection(board):
    tcp = TcpBoard(board)
    try:
        with Link.open(url=tcp.url, **FAST) as lk:
            lk.connect()
            assert lk.board_id == board.board_id
            tcp.drop()  # the connection goes; the board listens again
            store = MemoryStore()
            report = sync(lk, store)
    finally:
        tcp.close()
    assert report.complete
    check_synced(store, board)
    assert lk.stats["reconnects"] == 1 and len(tcp.connections) == 2
