"""The host's link (host/sowlight/board/link.py) against the scripted board of tests/mockboard.py,
over in-process "cables": the hello and its version check, requests and their
retransmission, damaged and lost frames, the cable pulled, reconnection with
backoff, liveness, board restarts, events, threads and shutdown."""
import threading
import time

import pytest
import serial

from sowlight.board import link as link_mod
from sowlight.board import ports
from sowlight.board.link import BoardError, Link, LinkClosed, LinkDown, NotABoard, VersionMismatch
from sowlight_fw.link import codec

from mockboard import BoardServer, MockBoard, Wire, WireOpener, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

# Quick timings for in-process cables; no test depends on them being met exactly.
FAST = dict(timeout=0.3, backoff=0.005, backoff_max=0.04, reconnect_for=3.0, ping_every=30.0, dead_after=60.0)


def wait_for(cond, limit=5.0):
    """Poll `cond` until it holds (True) or `limit` seconds pass (False): a bound, not a timing check."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


@pytest.fixture
def board():
    return MockBoard(random_games(4, seed=2))


@pytest.fixture
def opener(board):
    op = WireOpener(board)
    yield op
    op.close()


@pytest.fixture
def link(opener):
    lk = Link(opener, **FAST)
    yield lk
    lk.close()


class Tap:
    """A port wrapper that records what the host writes, and can damage its next frame of a type."""

    def __init__(self, port):
        self.port = port
        self.writes = []
        self.damage = set()

    def __getattr__(self, name):
        return getattr(self.port, name)

    def write(self, data):
        data = bytes(data)
        self.writes.append(data)
        for t in list(self.damage):
            if b" %s " % t.encode() in data:
                self.damage.discard(t)
                data = data.replace(b"{", b"[", 1)  # still a line, but its checksum no longer matches
        return self.port.write(data)


# -- the hello ----------------------------------------------------------------------------------

def test_hello_then_requests(link, board):
    hello = link.connect()
    assert hello["board"] == board.board_id == link.board_id
    assert link.board_proto == (codec.PROTO_MAJOR, codec.PROTO_MINOR)
    games = link.request("journal_list")["games"]
    assert [g["game"] for g in games] == list(board.games)
    assert [g["last"] for g in games] == [board.last_ply(n) for n in board.games]
    assert board.executed["hello"] == 1 and board.executed["journal_list"] == 1


def test_a_lone_newline_goes_before_the_hello(board):
    taps = []
    wires = WireOpener(board)

    def opener():
        taps.append(Tap(wires()))
        return taps[-1]
    with Link(opener, **FAST) as lk:
        lk.connect()
    wires.close()
    # It ends whatever partial line the board holds from before.
    assert taps[0].writes[0] == b"\n"
    assert taps[0].writes[1].startswith(b"@") and b" hello " in taps[0].writes[1]


def test_the_board_refuses_another_major_version(opener, board):
    board.proto = [2, 0]
    with Link(opener, **FAST) as lk:
        with pytest.raises(VersionMismatch) as e:
            lk.connect()
    assert "2.0" in str(e.value) and "update the companion" in str(e.value)
    assert not lk.up


def test_an_old_board_is_refused_with_the_deploy_command(opener, board):
    board.proto = [0, 9]
    board.check_version = False  # it answers with its own hello; the host checks it
    with Link(opener, **FAST) as lk:
        with pytest.raises(VersionMismatch) as e:
            lk.connect()
    assert "0.9" in str(e.value) and "sowlight deploy" in str(e.value)


def test_a_newer_minor_version_is_accepted(link, board):
    board.proto = [codec.PROTO_MAJOR, codec.PROTO_MINOR + 3]
    link.connect()
    assert link.board_proto == (codec.PROTO_MAJOR, codec.PROTO_MINOR + 3)


def test_an_echoing_port_is_not_a_board():
    with Link(ports.opener(url="loop://"), **dict(FAST, timeout=0.05)) as lk:
        with pytest.raises(NotABoard, match="sends back what is written"):
            lk.connect()


def test_a_board_at_its_repl_is_told_apart():
    wire = Wire()

    def repl():  # MicroPython's REPL: answers every line with a traceback and a prompt
        try:
            while True:
                data = wire.board.read(64)
                if b"\n" in data:
                    wire.board.write(b"Traceback (most recent call last):\r\nSyntaxError: invalid syntax\r\n>>> ")
        except serial.SerialException:
            pass
    t = threading.Thread(target=repl, daemon=True)
    t.start()
    with Link(lambda: wire.host, **dict(FAST, timeout=0.05)) as lk:
        with pytest.raises(NotABoard) as e:
            lk.connect()
    wire.pull()
    t.join(5)
    assert "REPL" in str(e.value) and "sowlight deploy" in str(e.value)
    assert lk.stats["bad_noise"] >= 3
    assert lk.stats["answers_out"] == 0  # nothing is answered before a good hello


def test_silence_is_reported_as_no_answer():
    wire = Wire()  # nobody at the other end
    with Link(lambda: wire.host, **dict(FAST, timeout=0.05)) as lk:
        with pytest.raises(LinkDown, match="does not answer .*no reply to 'hello' after 4 tries"):
            lk.connect()
    assert lk.stats["resent_timeout"] == 3  # sent 4 times, as docs/protocol.md says


# -- requests, retransmission ----------------------------------------------------------------------

def test_a_lost_request_is_sent_again_with_the_same_seq(link, board):
    link.connect()
    board.deaf["journal_ack"] = 1
    game = next(iter(board.games))
    ok = link.request("journal_ack", {"game": game, "upto": 2})
    assert ok["synced"] == 2
    sent = [seq for seq, t in board.seen if t == "journal_ack"]
    assert len(sent) == 2 and sent[0] == sent[1]
    assert board.acks == [(game, 2)] and link.stats["resent_timeout"] == 1


def test_a_lost_reply_is_sent_again_and_the_command_done_once(link, board):
    link.connect()
    before = len(board.games)
    board.mute["new_game"] = 1
    ok = link.request("new_game", {"variant": "kalah"})
    assert ok["game"] == max(board.games)
    assert len(board.games) == before + 1 and board.executed["new_game"] == 1
    assert board.replayed == 1  # the retransmission was recognised and answered from the cache


def test_a_damaged_reply_is_asked_for_again_at_once(board, opener):
    with Link(opener, **dict(FAST, timeout=30.0)) as lk:
        lk.connect()
        board.garble["journal_list"] = 1
        games = lk.request("journal_list")["games"]
    assert len(games) == len(board.games)
    # Sent again because of the damage, not after waiting out a timeout.
    assert lk.stats["resent_damaged"] == 1 and lk.stats["resent_timeout"] == 0
    assert lk.stats["bad_checksum"] == 1 and board.executed["journal_list"] == 1 and board.replayed == 1


def test_a_damaged_request_is_answered_by_resync_and_sent_again(board):
    wires = WireOpener(board)
    taps = []

    def opener():
        taps.append(Tap(wires()))
        return taps[-1]
    with Link(opener, **dict(FAST, timeout=30.0)) as lk:
        lk.connect()
        taps[-1].damage.add("journal_list")
        assert len(lk.request("journal_list")["games"]) == len(board.games)
    wires.close()
    assert board.bad_in == 1 and board.answers == 1
    assert lk.stats["resyncs_in"] == 1 and lk.stats["resent_timeout"] == 0


def test_an_unfinished_line_counts_as_damage(board, opener):
    with Link(opener, **dict(FAST, timeout=30.0, line_idle=0.02)) as lk:
        lk.connect()
        board.truncate["journal_list"] = 1  # the reply stops half-way: its end never comes
        assert len(lk.request("journal_list")["games"]) == len(board.games)
    assert lk.stats["lines_stalled"] == 1 and lk.stats["resent_timeout"] == 0
    assert board.replayed == 1


def test_a_reply_that_breaks_the_message_table_is_not_asked_for_at_once(board, opener):
    # An intact frame the host refuses (a board bug, not damage): asking again at
    # once would only bring the same frame back; the request times out instead.
    broken = []

    def tamper(rtype, payload):
        if rtype == "journal" and not broken:
            broken.append(payload.pop("games"))
        return payload
    with Link(opener, **dict(FAST, timeout=0.05)) as lk:
        lk.connect()
        board.tamper = tamper
        assert len(lk.request("journal_list")["games"]) == len(board.games)  # on a new connection
    assert lk.stats["resent_damaged"] == 0 and lk.stats["resent_timeout"] == 3 and lk.stats["reconnects"] == 1
    # The board answered each copy from its cache: the same broken reply, four times.
    assert board.replayed == 3 and lk.stats["bad_bad_payload"] == 4
    kind, down = lk.next_event(0)
    assert down["status"] == "down" and "refused: 'journal' needs field 'games'" in down["reason"]


def test_the_boards_ping_is_answered_when_no_request_waits(link, board, opener):
    link.connect()
    opener.server.send(board.event("ping", {}))
    assert wait_for(lambda: any(t == "pong" for _, t in board.seen))


def test_the_boards_error_is_raised_with_its_code(link):
    link.connect()
    with pytest.raises(BoardError) as e:
        link.request("journal_get", {"game": 999, "from": 0})
    assert e.value.code == "no_such_game" and "999" in e.value.msg
    with pytest.raises(BoardError) as e:
        link.request("undo")
    assert e.value.code == "unsupported"


def test_a_bad_request_is_refused_before_it_is_sent(link, board):
    link.connect()
    with pytest.raises(codec.FrameError, match="needs field 'upto'"):
        link.request("journal_ack", {"game": 1})
    with pytest.raises(codec.FrameError, match="sent by the board"):
        link.request("records", {"re": 1, "game": 1, "records": [], "more": False})
    assert board.executed["journal_ack"] == 0


# -- the cable pulled -------------------------------------------------------------------------------

def test_cable_pulled_during_a_read_reconnects_and_asks_again(link, board, opener):
    link.connect()
    pulled = []

    def pull(t):
        if t == "journal_list" and not pulled:
            pulled.append(t)
            opener.wire.pull()
    board.before_reply = pull
    games = link.request("journal_list")["games"]
    assert [g["game"] for g in games] == list(board.games)
    assert link.stats["reconnects"] == 1 and link.stats["requests_retried"] == 1
    assert board.executed["hello"] == 2 and board.executed["journal_list"] == 2
    events = [link.next_event(0) for _ in range(2)]
    assert [e[1]["status"] for e in events] == ["down", "up"]


def test_a_command_cut_off_is_reported_not_repeated(link, board, opener):
    link.connect()
    board.before_reply = lambda t: opener.wire.pull() if t == "new_game" else None
    before = len(board.games)
    with pytest.raises(LinkDown, match="may or may not have been carried out"):
        link.request("new_game", {"variant": "oware"})
    assert board.executed["new_game"] == 1 and len(board.games) == before + 1
    board.before_reply = None
    assert link.request("journal_list")["games"][-1]["game"] == max(board.games)  # and the link comes back


def test_another_board_after_a_reconnect_gets_nothing_meant_for_the_first(board):
    other = MockBoard(random_games(2, seed=9), board_id="sowlight-other0000002")
    op = WireOpener(board)
    first = op.make_wire

    def swap(n):  # the second cable leads to another board
        if n == 1:
            op.board = other
        return first(n)
    op.make_wire = swap
    with Link(op, **FAST) as lk:
        lk.connect()
        op.wire.pull()
        with pytest.raises(link_mod.BoardChanged, match=r"\(sowlight-other0000002\) answers now, not %s" % board.board_id):
            lk.request("journal_ack", {"game": 1, "upto": 0})
        assert lk.board_id == other.board_id
        assert lk.request("journal_list")["games"]  # a request for whichever board is there goes
    op.close()
    assert other.executed["journal_ack"] == 0 and board.executed["journal_ack"] == 0


def test_reconnecting_backs_off_and_gives_up(board):
    op = WireOpener(board, missing=10 ** 6)  # after the first cable, the port never comes back
    with Link(op, **dict(FAST, backoff=0.01, backoff_max=0.04, reconnect_for=0.3)) as lk:
        lk.connect()
        op.wire.pull()
        with pytest.raises(LinkDown, match="gave up"):
            lk.request("journal_list")
    op.close()
    log = lk.backoff_log
    assert log[:3] == [0.01, 0.02, 0.04] and max(log) == 0.04 and len(log) >= 4
    assert op.calls >= len(log)


def test_the_port_coming_back_later_is_picked_up(board):
    op = WireOpener(board, missing=3)
    with Link(op, **FAST) as lk:
        lk.connect()
        op.wire.pull()
        assert lk.request("journal_list")["games"]
    op.close()
    assert op.calls == 1 + 3 + 1 and lk.stats["reconnects"] == 1


# -- liveness -----------------------------------------------------------------------------------------

def test_an_idle_link_pings(board, opener):
    with Link(opener, **dict(FAST, ping_every=0.02)) as lk:
        lk.connect()
        assert wait_for(lambda: board.executed["ping"] >= 3)
    assert lk.stats["pings"] >= 3


def test_a_silent_link_is_declared_dead_and_brought_back(board, opener):
    with Link(opener, **dict(FAST, timeout=0.05, ping_every=0.02, dead_after=0.5)) as lk:
        lk.connect()
        opener.wire.silence()  # bytes vanish, no error: only the pings can tell
        assert wait_for(lambda: lk.stats["reconnects"] >= 1)
        assert lk.request("journal_list")["games"]
        kinds = []
        while True:
            e = lk.next_event(0)
            if e is None:
                break
            kinds.append(e[1]["status"])
    assert kinds[:2] == ["down", "up"] and len(opener.wires) >= 2


def test_a_board_restart_is_noticed_and_greeted_again(link, board, opener):
    link.connect()
    opener.server.send(board.reboot())  # the app starts again and says hello
    assert wait_for(lambda: link.stats["board_restarts"] == 1)
    assert link.next_event(1) == ("link", {"status": "board_restarted", "board": board.board_id})
    assert link.request("journal_list")["games"]
    assert board.executed["hello"] == 2


def test_no_hello_answer_greets_again_and_retries(link, board):
    link.connect()
    board.reboot()  # restarted, but its start-up hello never arrived
    assert link.request("journal_list")["games"]
    assert board.executed["hello"] == 2 and board.executed["journal_list"] == 1


def test_a_restart_during_a_command_is_reported(link, board):
    link.connect()
    board.before_reply = lambda t: "reboot" if t == "new_game" else None
    with pytest.raises(LinkDown, match="restarted while 'new_game'"):
        link.request("new_game", {"variant": "oware"})
    assert board.executed["new_game"] == 1


def test_state_is_refreshed_when_in_doubt(board, opener):
    with Link(opener, **dict(FAST, watch_state=True)) as lk:
        lk.connect()
        assert board.executed["get_state"] == 1 and lk.state["game"] == board._current()
        board.enc.seq += 2  # the board's next frame comes after a gap: frames of its were lost
        opener.server.send(board.event("log", {"level": "info", "msg": "hello"}))
        assert wait_for(lambda: board.executed["get_state"] == 2)
    assert lk.stats["gaps"] == 1


# -- events, answers, threads ----------------------------------------------------------------------

MOVE = {"game": 4, "ply": 9, "player": 0, "move": 2, "name": "C", "trace": [["lift", 2, 1, -1], ["drop", 3, 1, -1]]}


def test_events_reach_the_callback_in_order(board, opener):
    got = []
    done = threading.Event()

    def on_event(kind, payload):
        got.append((kind, payload))
        if len(got) == 4:
            done.set()
    with Link(opener, on_event=on_event, **FAST) as lk:
        lk.connect()
        for mtype, payload in (("step", {"game": 4, "ply": 9, "ev": "lifted", "cell": 2}),
                               ("leds", {"lit": [[3, "drop"]]}), ("move", MOVE),
                               ("log", {"level": "warn", "msg": "cell 7 reads empty"})):
            opener.server.send(board.event(mtype, payload))
        assert done.wait(5)
    assert [k for k, _ in got] == ["step", "leds", "move", "log"] and got[2][1] == MOVE


def test_events_wait_in_the_queue(link, board, opener):
    link.connect()
    opener.server.send(board.event("move", MOVE))
    assert link.next_event(5) == ("move", MOVE)
    assert link.next_event(0) is None


def test_a_damaged_line_while_idle_is_answered_with_resync_at_most_so_often(board, opener):
    with Link(opener, **dict(FAST, answer_every=60.0)) as lk:
        lk.connect()
        bad = bytearray(board.event("log", {"level": "info", "msg": "x"}))
        bad[8] ^= 1
        opener.server.send(bytes(bad) + bytes(bad))
        assert wait_for(lambda: board.resyncs_in == 1)
        # The board answers a resync with a state, unasked.
        assert wait_for(lambda: lk.state is not None)
    assert lk.stats["bad_checksum"] == 2 and lk.stats["answers_out"] == 1


def test_requests_from_many_threads_get_their_own_replies(link, board):
    link.connect()
    errors = []

    def worker(game):
        try:
            for _ in range(15):
                r = link.request("journal_get", {"game": game, "from": 1, "max": 3})
                assert r["game"] == game and r["records"] == board.journal(game)[1:4]
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(g,)) for g in board.games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and board.executed["journal_get"] == 15 * len(board.games)


def test_close_stops_every_thread_and_later_requests_fail(board, opener):
    before = set(threading.enumerate())
    lk = Link(opener, on_event=lambda k, p: None, **dict(FAST, ping_every=0.05))
    lk.connect()
    ours = [t for t in threading.enumerate() if t not in before and t.name.startswith("sowlight-link")]
    assert {t.name for t in ours} == {"sowlight-link-reader", "sowlight-link-keepalive", "sowlight-link-events"}
    lk.close()
    lk.close()  # twice is harmless
    assert not any(t.is_alive() for t in ours)
    with pytest.raises(LinkClosed):
        lk.request("ping")
    assert lk.next_event(0) is None


def test_close_interrupts_a_request_that_waits(board):
    wire = Wire()
    server = BoardServer(board, wire.board)
    server.start()
    lk = Link(lambda: wire.host, **dict(FAST, timeout=60.0))
    lk.connect()
    board.deaf["journal_list"] = 1
    failure = []

    def ask():
        try:
            lk.request("journal_list")
        except LinkClosed as e:
            failure.append(e)
    t = threading.Thread(target=ask)
    t.start()
    assert wait_for(lambda: board.deaf["journal_list"] == 0)
    lk.close()
    t.join(5)
    wire.pull()
    server.stop()
    assert not t.is_alive() and len(failure) == 1


def test_link_names_its_errors_for_the_user():
    # Every failure the CLI prints is a LinkError subclass with a message.
    for cls in (link_mod.LinkDown, link_mod.LinkClosed, link_mod.VersionMismatch, link_mod.NotABoard,
                link_mod.ReplyDamaged):
        assert issubclass(cls, link_mod.LinkError)
    e = BoardError("journal_get", "pruned", "game 3 holds plies from 10 on")
    assert e.code == "pruned" and "journal_get" in str(e) and "plies from 10" in str(e)
