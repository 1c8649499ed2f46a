"""The board's journal (firmware/sowlight_fw/journal.py, storage.py): records on flash,
power cuts at every byte, the laptop's acknowledgements and running out of space."""
import json
from pathlib import Path
from fakeload import load_fake

import pytest

from sowlight_fw import config, journal
from sowlight_fw.link import codec
from sowlight_fw.controller import Controller
from sowlight_fw.journal import Journal, JournalError
from sowlight_fw.journal.records import RECLAIM_AHEAD
from sowlight_fw.storage import FlashStorage, MemoryStorage

ROOT = Path(__file__).resolve().parent.parent




hands = load_fake("hands")
BOARD = config.check(json.loads((ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text()))


class PowerCut(Exception):
    pass


class CutStorage(MemoryStorage):
    """MemoryStorage whose power fails once `cut_at` bytes in all have been written:
    the write in progress keeps the bytes before the cut, the rest never happens."""

    def __init__(self, cut_at, **kw):
        MemoryStorage.__init__(self, **kw)
        self.cut_at = cut_at
        self.written = 0

    def _spend(self, n):
        k = max(0, min(n, self.cut_at - self.written))
        self.written += k
        return k

    def append(self, name, data):
        k = self._spend(len(data))
        if k:
            MemoryStorage.append(self, name, data[:k])
        if k < len(data):
            raise PowerCut()

    def replace(self, name, data):
        k = self._spend(len(data))
        self.files[name + ".tmp"] = bytearray(data[:k])
        if k < len(data):
            raise PowerCut()
        self.files[name] = self.files.pop(name + ".tmp")

    def power_on(self):
        self.cut_at = 1 << 60


def game_records(seed=3, variant="oware"):
    h = hands.start(BOARD, variant, seed=seed)
    h.play()
    return h.c.records


def journalled(records, storage=None):
    """(journal, storage): a Journal on `storage` (a new MemoryStorage) that has taken `records`."""
    st = MemoryStorage() if storage is None else storage
    j = Journal(st)
    j.open()
    for r in records:
        j.append(r)
    return j, st


def strip(rec):
    # (the position digest and an end's last move stay on the board: the link's records leave them out)
    return {k: v for k, v in rec.items() if k not in ("game", "pd", "lm")}


# ----- records -------------------------------------------------------------------------

@pytest.mark.parametrize("rec", [
    {"kind": "start", "variant": "oware", "options": {"grand_slam": "illegal"}},
    {"kind": "start", "variant": "kalah", "options": {}, "pos": {"pits": [1] * 12, "stores": [0, 0], "to_move": 1},
     "t": 1767225600},
    {"kind": "move", "player": 0, "move": 2, "name": "C"},
    {"kind": "move", "player": 1, "move": 11, "name": "f", "t": 1767225612},
    {"kind": "move", "player": 1, "move": [3, -1], "name": "D-"},
    {"kind": "move", "player": 0, "move": [4, 1], "name": "E+"},
    {"kind": "move", "player": 0, "move": ["race"], "name": "race"},
    {"kind": "move", "player": 0, "move": ["place", 3, 2], "name": ""},
    {"kind": "undo"},
    {"kind": "setpos", "pos": {"pits": [0, 3, 2, 8, 2, 10, 8, 0, 7, 6, 0, 0], "stores": [2, 0], "to_move": 1}},
    {"kind": "end", "winner": None, "scores": [24, 24], "reason": "repetition"},
])
def test_every_record_kind_comes_back_as_it_went_in(rec):
    full = dict(rec, game=12, ply=7)
    data = journal.encode(full)
    r = journal.parse(data, 0)
    assert r is not None and r[:3] == (journal._CODES[rec["kind"]], 12, 7) and r[5] == len(data)
    assert journal.decode(r[0], r[2], data[r[3]:r[4]]) == dict(rec, ply=7)


def test_a_move_takes_nineteen_bytes_and_two_more_with_its_position_digest():
    data = journal.encode({"kind": "move", "player": 0, "move": 2, "name": "C", "game": 1, "ply": 1})
    assert len(data) == 19          # 10 header + 4 CRC + player, flags, pit, name length, name
    data = journal.encode({"kind": "move", "player": 0, "move": 2, "name": "C", "game": 1, "ply": 1, "pd": 0xbeef})
    r = journal.parse(data, 0)
    assert len(data) == 21 and journal.move_digest(data[r[3]:r[4]]) == 0xbeef
    assert journal.decode(r[0], r[2], data[r[3]:r[4]]) == {"kind": "move", "player": 0, "move": 2, "name": "C", "ply": 1}


def test_a_damaged_record_is_refused():
    data = bytearray(journal.encode({"kind": "undo", "game": 1, "ply": 3}))
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x10
        assert journal.parse(bad, 0) is None
    assert journal.parse(data[:-1], 0) is None


# ----- a game's journal -------------------------------------------------------------------

def test_a_whole_game_is_journalled_read_back_and_resumed():
    records = game_records()
    st = MemoryStorage()
    j = Journal(st)
    assert j.open() == [] and j.next_game() == 1
    total = sum(j.append(r) for r in records[:-1])
    # Before the end record the game is the current one: it resumes exactly.
    boot = Journal(st)
    assert boot.open() == []
    game, back = boot.current()
    assert game == 1 and back == [strip(r) for r in records[:-1]]
    c = Controller(BOARD)
    assert c.resume(game, back) and c.ply == records[-2]["ply"]
    j.append(records[-1])
    j2 = Journal(st)
    j2.open()
    assert j2.current() is None         # over: nothing to resume
    assert j2.next_game() == 2
    assert j2.list_games() == [{"game": 1, "variant": "oware", "first": 0, "last": records[-1]["ply"],
                                "synced": -1, "over": True}]
    moves = sum(1 for r in records if r["kind"] == "move")
    assert total / moves < 22


def test_records_are_served_in_pages():
    records = game_records()
    j, _ = journalled(records)
    page, more = j.records(1, 0, 50)
    assert len(page) == 50 and more and page[0]["ply"] == 0
    page, more = j.records(1, 50, 50)
    assert page[0]["ply"] == 50
    last = records[-1]["ply"]
    page, more = j.records(1, last, 50)
    assert [r["ply"] for r in page] == [last] and not more
    assert j.records(1, last + 1) == ([], False)
    codec.validate("records", {"re": 4, "game": 1, "records": page, "more": more}, "board")
    with pytest.raises(JournalError) as e:
        j.records(9, 0)
    assert e.value.code == "no_such_game"


class ReadCounter(MemoryStorage):
    """MemoryStorage that counts the bytes its reads hand out."""

    def __init__(self):
        MemoryStorage.__init__(self)
        self.read_bytes = 0

    def read(self, name, start=0, n=None):
        data = MemoryStorage.read(self, name, start, n)
        self.read_bytes += len(data)
        return data


def test_a_game_read_page_after_page_is_read_from_where_the_last_page_began():
    # The laptop asks for a game's records from the ply after the last one it has, a move or two
    # at a time during a game: each read starts at the last page's first record, not at the
    # file's start, and gives what a read of the whole file gives.
    records = game_records()
    st = ReadCounter()
    j = Journal(st)
    j.open()
    whole = []
    at = -1
    for r in records:
        j.append(r)
        # (From the ply before: the record just written alone is given without a read, below.)
        first = max(0, at)
        page, more = j.records(1, first, 50)
        assert [x["ply"] for x in page] == list(range(first, r["ply"] + 1)) and not more
        whole += page[-1:]
        at = r["ply"]
    assert whole == [strip(r) for r in records]
    size = len(st.files[journal.file_name(1)])
    assert st.read_bytes < 4 * size         # (from the start each time: the file's size times the moves)
    # The same page again, and an earlier one: as read from the start.
    again = Journal(st)
    again.open()
    assert j.records(1, at, 50) == again.records(1, at, 50) == ([strip(records[-1])], False)
    assert j.records(1, 3, 5) == again.records(1, 3, 5)


def test_the_record_just_written_is_given_as_written_without_reading_the_file():
    # After each move the laptop asks for the record just written: the journal gives the bytes
    # it wrote (opening the file takes littlefs a 1 KB buffer of the board's heap), the same
    # record a read of the file gives; any other page is read from the file.
    records = game_records(seed=2)[:10]
    st = ReadCounter()
    j = Journal(st)
    j.open()
    for r in records:
        j.append(r)
        assert j.records(1, r["ply"], 50) == ([strip(r)], False)
        if r["ply"] == 4:
            j.ack(1, 4)                 # (an acknowledgement written after it changes nothing)
            assert j.records(1, 4, 50) == ([strip(r)], False)
    assert st.read_bytes == 0
    fresh = Journal(st)
    fresh.open()
    assert fresh.records(1, 9, 50) == j.records(1, 9, 50)
    assert j.records(1, 8, 50) == fresh.records(1, 8, 50) == ([strip(x) for x in records[8:]], False)
    assert st.read_bytes > 0


def test_a_game_file_rewritten_between_pages_is_read_again_from_its_start():
    # A file the journal rewrote (a damaged record dropped at boot, a gap mended) no longer has
    # the last page's first record where it was: the next page is read from the file's start.
    records = game_records(seed=4)[:12]
    j, st = journalled(records)
    assert [x["ply"] for x in j.records(1, 6, 2)[0]] == [6, 7]
    name = journal.file_name(1)
    data = bytes(st.files[name])
    cut = sum(len(journal.written(r)) for r in records[:3])      # ply 3's record taken out
    st.files[name] = bytearray(data[:cut] + data[cut + len(journal.written(records[3])):])
    assert [x["ply"] for x in j.records(1, 6, 3)[0]] == [6, 7, 8]
    assert [x["ply"] for x in j.records(1, 0, 100)[0]] == [0, 1, 2] + list(range(4, 12))


def test_plies_must_follow_on():
    j = Journal(MemoryStorage())
    j.open()
    with pytest.raises(JournalError, match="no start record"):
        j.append({"kind": "move", "game": 1, "ply": 1, "player": 0, "move": 0, "name": "A"})
    j.append({"kind": "start", "game": 1, "ply": 0, "variant": "oware", "options": {}})
    with pytest.raises(JournalError, match="ply 3 follows ply 0"):
        j.append({"kind": "undo", "game": 1, "ply": 3})


# ----- power cuts ---------------------------------------------------------------------------

def _written_through(records, cut_at):
    """How many records were whole when the power failed at byte cut_at (a start or setpos is
    whole once its first copy is)."""
    n = 0
    total = 0
    for r in records:
        if total + len(journal.encode(r)) > cut_at:
            break
        total += len(journal.written(r))
        n += 1
    return n


def test_a_power_cut_at_any_byte_loses_at_most_the_record_being_written():
    records = game_records(seed=4)[:30]
    size = sum(len(journal.written(r)) for r in records)
    for cut in range(size + 1):
        st = CutStorage(cut)
        j = Journal(st)
        j.open()
        try:
            for r in records:
                j.append(r)
        except PowerCut:
            pass
        st.power_on()
        # Boot: the torn record is dropped, everything written before it is there.
        j2 = Journal(st)
        repaired = j2.open()
        whole = _written_through(records, cut)
        got = j2.records(1, 0, 1000)[0] if whole else []
        assert got == [strip(r) for r in records[:whole]], cut
        assert bool(repaired) == (cut not in _boundaries(records) and 0 < cut < size)
        # The game resumes at the last whole record, and the journal takes the rest.
        if whole:
            c = Controller(BOARD)
            assert c.resume(*j2.current())
            assert c.ply == whole - 1
        for r in records[whole:]:
            j2.append(r)
        assert Journal(st).open() == [] and j2.records(1, 0, 1000)[0] == [strip(r) for r in records]


def _boundaries(records):
    out = {0}
    total = 0
    for r in records:
        out.add(total + len(journal.encode(r)))     # (the end of a start's or setpos's first copy)
        total += len(journal.written(r))
        out.add(total)
    return out


def test_a_power_cut_during_the_repair_loses_nothing_more():
    records = game_records(seed=4)[:12]
    data = b"".join(journal.written(r) for r in records)
    torn = data[:-7]                                 # the last record torn
    keep = len(data) - len(journal.written(records[-1]))
    for cut in range(keep + 1):
        st = CutStorage(cut)
        st.files[journal.file_name(1)] = bytearray(torn)
        try:
            Journal(st).open()
        except PowerCut:
            pass
        st.power_on()
        j = Journal(st)
        j.open()
        assert j.records(1, 0, 100)[0] == [strip(r) for r in records[:-1]], cut
        assert not any(n.endswith(".tmp") for n in st.names())


def test_a_damaged_byte_in_the_middle_costs_only_its_record():
    records = game_records(seed=4)[:10]
    j, st = journalled(records)
    name = journal.file_name(1)
    offset = sum(len(journal.written(r)) for r in records[:4]) + 12    # inside record 4
    st.files[name][offset] ^= 0xFF
    j2 = Journal(st)
    assert j2.open() != [] and j2.gaps == {1: [4]}
    plies = [r["ply"] for r in j2.records(1, 0, 100)[0]]
    assert plies == [0, 1, 2, 3, 5, 6, 7, 8, 9]
    # The gap is found again at every boot until it is filled (the damaged bytes are gone).
    j3 = Journal(st)
    assert j3.open() == [] and j3.gaps == {1: [4]}


# ----- the laptop's acknowledgements and space -------------------------------------------------

def _short_game(j, game, moves=3, over=True):
    j.append({"kind": "start", "game": game, "ply": 0, "variant": "oware", "options": {}})
    for i in range(moves):
        j.append({"kind": "move", "game": game, "ply": i + 1, "player": i % 2, "move": i % 6, "name": "A"})
    if over:
        j.append({"kind": "end", "game": game, "ply": moves + 1, "winner": 0, "scores": [25, 23], "reason": "no moves"})


def test_acknowledgements_are_kept_across_a_reboot_and_checked():
    st = MemoryStorage()
    j = Journal(st)
    j.open()
    _short_game(j, 1)
    assert j.ack(1, 2) == 2
    assert j.ack(1, 1) == 2                  # an old ack changes nothing
    with pytest.raises(JournalError) as e:
        j.ack(1, 9)
    assert e.value.code == "ack_ahead"
    with pytest.raises(JournalError) as e:
        j.ack(7, 0)
    assert e.value.code == "no_such_game"
    j2 = Journal(st)
    j2.open()
    assert j2.list_games()[0]["synced"] == 2 and j2.list_games()[0]["last"] == 4
    assert [r["ply"] for r in j2.records(1, 0)[0]] == [0, 1, 2, 3, 4]     # marks are not records
    codec.validate("journal", {"re": 1, "games": j2.list_games()}, "board")


def test_a_game_over_and_acknowledged_to_its_end_is_read_at_its_two_ends_at_boot():
    # A long-used board keeps some 300 old games until the flash fills: reading each one whole
    # at every boot took ~30 ms a game on an emulated Pico.  A game the laptop has in full says
    # so in its last record, and boot reads only that and the start.
    st = ReadCounter()
    j = Journal(st)
    j.open()
    for g in range(1, 6):
        _short_game(j, g, moves=40)
    j.ack(1, j.games[1].last)               # over, and all of it on the laptop
    j.ack(2, 20)                             # part of it
    j.ack(3, j.games[3].last)
    _short_game(j, 6, moves=2, over=False)   # the game in progress
    j.ack(6, 2)
    listing = j.list_games()
    files = {g: len(st.files[journal.file_name(g)]) for g in j.games}
    st.read_bytes = 0
    again = Journal(st)
    again.open()
    whole = sum(files.values()) - files[1] - files[3]
    # Each file's two ends are looked at first (a start, a synced record: 96 and 15 bytes read);
    # games 1 and 3 are read no further.
    assert st.read_bytes <= whole + len(files) * (96 + 15) < whole + files[1] + files[3]
    assert again.list_games() == listing and again.current()[0] == 6
    # A damaged byte in such a game is left alone (the laptop has the game); its listing stands.
    name = journal.file_name(3)
    st.files[name][files[3] // 2] ^= 0x40
    third = Journal(st)
    assert third.open() == [] and third.list_games() == listing
    # A game acknowledged in part is read whole and checked, as before.
    st.files[journal.file_name(2)][files[2] // 2] ^= 0x40
    fourth = Journal(st)
    assert [r.split(":")[0] for r in fourth.open()] == ["game 2"]


def test_a_full_flash_loses_the_oldest_synced_games_first_and_never_an_unsynced_one():
    st = MemoryStorage(capacity=12 * 4096)
    j = Journal(st, reserve=2 * 4096)
    j.open()
    for g in range(1, 9):
        _short_game(j, g)
    for g in (2, 4, 5):
        j.ack(g, j.games[g].last)
    # Space for three more games before the reserve: the journal reclaims games 2 and 4 first.
    _short_game(j, 9)
    _short_game(j, 10)
    kept = sorted(j.games)
    assert 1 in kept and 3 in kept and 6 in kept        # never synced: kept
    assert 2 not in kept                                 # the oldest synced game went first
    assert j.next_game() == 11
    # Once nothing synced is left the flash fills up: the journal says so, and loses nothing.
    with pytest.raises(JournalError) as e:
        for g in range(11, 40):
            _short_game(j, g)
    assert e.value.code == "storage" and "connect the board" in e.value.msg
    j2 = Journal(st)
    j2.open()
    assert {1, 3, 6, 7, 8, 9, 10} <= set(j2.games)
    assert not {2, 4, 5} & set(j2.games)
    assert all(j2.games[g].synced < j2.games[g].last for g in j2.games)


def test_a_reclaim_frees_well_beyond_the_reserve_oldest_synced_games_first():
    """A flash kept full would sit at the reserve's edge, where every record's check asks the
    filesystem: a reclaim deletes enough old synced games to leave RECLAIM_AHEAD more."""
    block = 4096
    st = MemoryStorage(capacity=80 * block, block=block)
    j = Journal(st, reserve=4 * block)
    j.open()
    game = 0
    while st.free() >= 4 * block + 200:        # one block a game, until the next record reaches the reserve
        game += 1
        _short_game(j, game)
    for g in range(1, game + 1, 2):
        j.ack(g, j.games[g].last)               # the odd games are on the laptop
    before = sorted(j.games)
    _short_game(j, game + 1)
    gone = [g for g in before if g not in j.games]
    synced = [g for g in before if g % 2]
    assert gone == synced[:len(gone)]                                 # the oldest synced ones, in order
    assert st.free() >= 4 * block + RECLAIM_AHEAD - block      # (the new game's block taken since)
    assert len(gone) == RECLAIM_AHEAD // block + 1            # no more than that
    assert all(g in j.games for g in before if not g % 2)             # nothing unsynced


class _Filesystem:
    """os.statvfs for FlashStorage, answering for a filesystem of `avail` free 4 KB blocks, counting the asks."""

    def __init__(self, avail):
        self.avail = avail
        self.asked = 0

    def statvfs(self, path):
        self.asked += 1
        return (4096, 4096, 512, self.avail, self.avail, 0, 0, 0, 0, 255)


def test_flash_storage_asks_the_filesystem_for_free_space_only_near_full(tmp_path, monkeypatch):
    import sowlight_fw.storage as storage
    fs = _Filesystem(avail=300)
    monkeypatch.setattr(storage.os, "statvfs", fs.statvfs)
    st = FlashStorage(str(tmp_path / "journal"))
    j = Journal(st)
    j.open()
    _short_game(j, 1, moves=60)              # 62 records, about 4 KB: the check before each record
    assert fs.asked == 1                     # asked once, then counted
    assert st.free() == 299 * 4096           # the file's one block
    _short_game(j, 2, moves=60)
    assert fs.asked == 1 and st.free() == 298 * 4096
    size = st.size(journal.file_name(2))
    _short_game(j, 3, moves=6144 * 62 // size)          # a game of one and a half blocks
    assert 4096 < st.size(journal.file_name(3)) <= 8192
    assert fs.asked == 1 and st.free() == 296 * 4096
    # Near full (below exact_below), every check asks the filesystem for its own figure.
    fs.avail = 6
    st.remove(journal.file_name(3))
    j2 = Journal(st)
    j2.open()
    asked = fs.asked
    _short_game(j2, 4)
    assert fs.asked - asked == 5 and st.free() == 6 * 4096


def test_the_newest_game_is_kept_so_numbers_are_never_reused():
    st = MemoryStorage(capacity=6 * 4096)
    j = Journal(st, reserve=4096)
    j.open()
    for g in (1, 2, 3):
        _short_game(j, g)
        j.ack(g, j.games[g].last)
    j.reclaim(1 << 30)
    assert sorted(j.games) == [3]
    j2 = Journal(st)
    j2.open()
    assert j2.next_game() == 4


def test_flash_storage_works_on_a_real_directory(tmp_path):
    st = FlashStorage(str(tmp_path / "journal"))
    j = Journal(st)
    assert j.open() == []
    records = game_records(seed=2)
    for r in records:
        j.append(r)
    assert st.names() == [journal.file_name(1)]
    assert st.free() > 0
    (tmp_path / "journal" / "g00000001.jnl.tmp").write_bytes(b"half a repair")
    j2 = Journal(st)
    j2.open()
    assert st.names() == [journal.file_name(1)]
    assert j2.records(1, 0, 1000)[0] == [strip(r) for r in records]
    # Acknowledged to its end, the game is opened from its two ends, and lists the same.
    j2.ack(1, j2.games[1].last)
    data = (tmp_path / "journal" / journal.file_name(1)).read_bytes()
    assert st.ends(journal.file_name(1), 96, 15) == (data[:96], data[-15:])
    assert st.read(journal.file_name(1), 10, 5) == data[10:15]
    j3 = Journal(st)
    j3.open()
    assert j3.list_games() == j2.list_games() and j3.games[1].over and j3.current() is None
