"""The engine's shared parts, through the public API (variant rules have their own tests)."""
import random

import pytest

import mancala
from mancala.trace import TAKE, Trace, format_step


def steps(trace):
    return [(s.kind, s.pit, s.count, s.to) for s in trace]


# ----- names ------------------------------------------------------------------

@pytest.mark.parametrize("name, ident", [
    ("Wari", "oware"), ("AWELE", "oware"), ("ourri", "oware"), ("Ayo", "oware"),
    ("Pallam Kuzhi", "pallam-kuzhi"), ("pallam-kuzhi", "pallam-kuzhi"), ("Pallanguzhi", "pallam-kuzhi"),
    ("Sita's Solitaire", "sitas-solitaire"), ("sitas_solitaire", "sitas-solitaire"),
    ("Kpo", "kpo"), ("Egyptian Mankalah", "egyptian-simple"), ("Mancala after Lane", "lane"),
    ("Syrian Mancala", "syrian"), ("Gayothe", "giuthi"), ("Djamo", "annana"), ("Kale", "annana"),
])
def test_names_resolve_ignoring_case_spaces_hyphens_apostrophes(name, ident):
    assert mancala.variant_info(name)["id"] == ident


def test_every_catalog_name_resolves():
    from mancala.catalog import entries
    for e in entries():
        for n in (e[0], e[3]) + e[4]:
            assert mancala.variant_info(n)["id"] == e[0]


def test_no_name_belongs_to_two_rows():
    # catalog.by_id (the registry's look-up of an id as written) finds a row without reading
    # the others: right only while no other row has the same name, normalized.
    from mancala.catalog import entries, by_id
    ENTRIES = entries()
    from mancala.registry import _names
    owner = {}
    for n, e in _names(ENTRIES):
        assert owner.setdefault(n, e[0]) == e[0], "%r names both %s and %s" % (n, owner[n], e[0])
    for e in ENTRIES:
        assert by_id(e[0]) == e
    assert by_id("Oware") is None and by_id("owar") is None and by_id("oware|oware") is None


def test_variant_infos_reads_the_catalog_once_for_many_names():
    every = mancala.variant_infos()
    assert [i["id"] for i in every] == mancala.variants()
    assert every == [mancala.variant_info(v) for v in mancala.variants()]
    asked = ["Wari", "Sita's Solitaire", "choro", "KALAH"]
    assert mancala.variant_infos(asked) == [mancala.variant_info(n) for n in asked]
    with pytest.raises(mancala.UnknownVariantError) as e:
        mancala.variant_infos(["oware", "Owarre"])
    assert "oware" in str(e.value)


def test_variant_infos_allocates_less_than_a_look_up_a_name_on_micropython(micropython):
    # A board asks for every variant at boot; each variant_info() reads and parses the
    # whole catalog again.
    one_read = micropython.heap_used("infos = mancala.variant_infos()", setup="import mancala")
    per_name = micropython.heap_used("infos = [mancala.variant_info(v) for v in mancala.variants()]",
                                     setup="import mancala")
    assert one_read.allocated * 5 < per_name.allocated, (one_read.allocated, per_name.allocated)


def test_unknown_name_lists_close_matches():
    with pytest.raises(mancala.UnknownVariantError) as e:
        mancala.Game("Owarre")
    assert "oware" in str(e.value)
    with pytest.raises(mancala.UnknownVariantError) as e:
        mancala.Game("chess")
    assert "chess" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_no_rules_entries_are_documented_not_playable():
    for name in ("Choro", "Gabatta"):
        with pytest.raises(mancala.NoRulesError) as e:
            mancala.Game(name)
        assert "no rules" in str(e.value)
        assert not mancala.variant_info(name)["playable"]
    assert "choro" not in mancala.variants()
    assert "choro" in mancala.variants(include_unplayable=True)


def test_the_catalog_imported_by_itself_has_every_row():
    # The registry reads the catalog for a look-up only (test_the_catalogs_rows_are_not_kept_on_
    # micropython); code that imports the catalog itself still gets every row.
    assert "oware" in mancala.variants()
    mancala.Game("Kalah Champion")
    from mancala.catalog import entries
    ENTRIES = entries()
    assert [e[0] for e in ENTRIES if e[1]] == mancala.variants()
    assert ENTRIES[0] == ("oware", "oware", "Oware", "Oware", ("wari", "awele", "awale", "ayo", "ourri"),
                          2, 6, 0, (2,), "003 OWARE")


def test_the_catalogs_rows_are_not_kept_on_micropython(micropython):
    # variant_infos (a board's boot), a refused name and a look-up read the catalog's rows and
    # descriptions (mancala.infos) for the call only: holding them after takes heap they did not
    # keep (some 10 KB on a board).
    out = micropython.run(
        "import gc, mancala\n"
        "n = len(mancala.variant_infos())\n"
        "try:\n"
        "    mancala.Game('owarre')\n"
        "except mancala.UnknownVariantError as e:\n"
        "    print(e)\n"
        "wid = mancala.variant_info('wari')['id']\n"
        "gc.collect()\n"
        "before = gc.mem_alloc()\n"
        "import mancala.catalog, mancala.infos\n"
        "gc.collect()\n"
        "print(n, wid, gc.mem_alloc() - before)\n")
    said, figures = out.splitlines()
    assert said == "no variant is called 'owarre'; did you mean oware? (sowlight variants lists them all)"
    n, wid, held = figures.split()
    assert (int(n), wid) == (len(mancala.variants()), "oware") and int(held) >= 8192, figures


def test_every_variant_fits_the_boards_heap(micropython):
    # What the board keeps once it imported the core and a variant and set up
    # a game (code compiled from source, as the VM runs it): 40 KB for a board
    # of two rows, 48 KB for four (bench/bench_micropython_rules.py prints it).
    # MicroPython's collector is conservative: a word of live data that happens to hold the
    # address of a dead block keeps it, and a look-up leaves the catalog's rows (15 KB) dead.
    # Over the budget, a few heap layouts (a few bytes allocated first) are tried: the least
    # figure is the game's own (as tests/test_firmware_heap.py and bench/bench_heap.py do).
    over = []
    for name in mancala.variants():
        budget = (48 if mancala.variant_info(name)["rows"] == 4 else 40) * 1024
        figures = []
        for pad in range(4):
            figures.append(micropython.heap_used("import mancala\ng = mancala.Game(%r)" % name,
                                                 setup="_pad = bytearray(%d)" % (48 * pad) if pad else "").retained)
            if min(figures) <= budget:
                break
        if min(figures) > budget:
            over.append("%s keeps %s bytes (budget %d)" % (name, figures, budget))
    assert not over, "; ".join(over)


# ----- positions ----------------------------------------------------------------

def test_position_is_checked():
    with pytest.raises(mancala.PositionError, match="12 pits"):
        mancala.Game("oware", pits=[4] * 11)
    with pytest.raises(mancala.PositionError, match="0 or more"):
        mancala.Game("oware", pits=[4] * 11 + [-1])
    with pytest.raises(mancala.PositionError, match="cannot arise"):
        mancala.Game("oware", pits=[5] * 12)
    with pytest.raises(mancala.PositionError, match="stores needs 2"):
        mancala.Game("oware", pits=[4] * 12, stores=[0])
    with pytest.raises(mancala.PositionError, match="to_move"):
        mancala.Game("oware", to_move=2)
    with pytest.raises(mancala.PositionError, match="no option"):
        mancala.Game("oware", seeds=5)
    with pytest.raises(mancala.PositionError, match="grand_slam"):
        mancala.Game("oware", grand_slam="sometimes")


def test_given_position_plays_on():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], stores=[20, 20], to_move=0)
    assert g.pits == [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0] and g.stores == [20, 20]
    assert g.legal_moves() == [5]


def test_position_text_round_trip_and_errors():
    g = mancala.Game("kalah", seeds=3)
    g.play(2)
    text = mancala.to_text(g)
    assert text.startswith("kalah pits_per_row=6,seeds=3,empty_capture=take ")
    assert mancala.from_text("kalah pits_per_row=6,seeds=3 3,3,3,3,3,3/3,3,3,3,3,3 0,0 0").empty_capture == "take"   # (texts from before the option)
    h = mancala.from_text(text)
    assert h.cells() == g.cells() and h.to_move == g.to_move and h.seeds == 3
    for bad in ("kalah", "kalah - 1,2/3 0,0 0", "kalah - x/y 0,0 0", "kalah seeds 3,3,3,3,3,3/3,3,3,3,3,3 0,0 0",
                "kalah - 3,3,3,3,3,3/3,3,3,3,3,3 0,0 z", "nosuch - 1 0 0"):
        with pytest.raises(mancala.RulesError):
            mancala.from_text(bad)


# ----- sowing, relays, captures --------------------------------------------------------

def test_skip_origin_on_a_full_lap():
    # Oware: 12 seeds from pit A go round and pass over A itself.
    g = mancala.Game("oware", pits=[12, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], stores=[0, 0])
    tr = g.play(0)
    drops = [s.pit for s in tr if s.kind == "drop"]
    assert drops == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1]
    assert g.pits[0] == 0


def test_whole_laps_fast_path_matches_traced_path():
    for pits in ([30, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3], [23, 1, 0, 2, 0, 0, 2, 2, 2, 2, 2, 2]):
        a = mancala.Game("oware", pits=pits, stores=[0, 0])
        b = a.copy()
        a.play(0)
        b.push(0)
        assert a.cells() == b.cells()


@pytest.mark.parametrize("name, lap", [("oware", 11), ("kalah", 13)])
def test_every_handful_size_sows_the_same_on_both_paths(name, lap):
    # push() sows whole laps at once, play() seed by seed: the same counts for
    # every size of handful, exact laps and one seed either side of them included.
    for n in range(1, 3 * lap + 2):
        pits = [n] + [1] * 11
        a = mancala.Game(name, pits=pits, stores=[0, 0], **({} if name == "oware" else {"seeds": 6}))
        b = a.copy()
        a.play(0)
        b.push(0)
        assert a.cells() == b.cells() and a.to_move == b.to_move, "%s, %d seeds" % (name, n)


def test_games_with_other_options_keep_their_own_board():
    # What a variant works out once per set of options (board, sides, tracks,
    # rule attributes) must not leak into a game with other options.
    small = mancala.Game("kalah", pits_per_row=3, seeds=2)
    big = mancala.Game("kalah")
    small_again = mancala.Game("kalah", pits_per_row=3, seeds=2)
    assert (small.n_pits, big.n_pits, small_again.n_pits) == (6, 12, 6)
    assert small.side(1) == (3, 4, 5) and big.side(1) == (6, 7, 8, 9, 10, 11)
    assert [s.pit for s in small.play(2) if s.kind == "drop"] == [6, 3]   # own store, then the opponent's first pit
    assert small.cells() == [2, 2, 0, 3, 2, 2, 1, 0]
    two, three = mancala.Game("kpo"), mancala.Game("kpo", players=3)
    assert two.legal_moves() == [0, 1, 2, 3, 4, 5]
    assert three.legal_moves()[:2] == [(0, 1), (0, -1)]
    assert mancala.Game("kpo").legal_moves() == [0, 1, 2, 3, 4, 5]


def test_own_store_sown_opponent_store_skipped():
    # Kalah: player 1 sows from its last pit round past its own store and over player 0's.
    g = mancala.Game("kalah", pits=[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9], stores=[0, 0], to_move=1)
    tr = g.play(11)
    drops = [s.pit for s in tr if s.kind == "drop"]
    assert drops == [13, 0, 1, 2, 3, 4, 5, 6, 7]
    assert 12 not in drops


def test_extra_turn_in_own_store():
    g = mancala.Game("kalah")
    tr = g.play(2)  # 4 seeds from pit C: D, E, F, store
    assert tr[-1].kind == "extra_turn" and g.to_move == 0


def test_relay_lifts_the_last_pit_again():
    g = mancala.Game("ayoayo", pits=[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], stores=[0, 0])
    g2 = mancala.Game("ayoayo", pits=[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], stores=[0, 0])
    assert [s.kind for s in g.play(0)] == ["lift", "drop"]
    tr = g2.play(0)
    assert steps(tr)[:4] == [("lift", 0, 1, -1), ("drop", 1, 1, -1), ("relay", 1, 3, -1), ("drop", 2, 1, -1)]


def test_count_capture_chains_backwards_and_stops():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 3, 1, 2, 1, 5, 5, 5], stores=[0, 15])
    tr = g.play(5)  # lands in 6, 7, 8: 8 has 2 -> take, 7 has 3 -> take, 6 has 2 -> take
    takes = [(s.pit, s.count, s.to) for s in tr if s.kind == "take"]
    assert takes == [(8, 2, 12), (7, 3, 12), (6, 2, 12)]
    assert g.stores == [7, 15]


def test_capture_chain_stops_at_a_pit_that_does_not_qualify():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 3, 1, 0, 1, 5, 5, 5], stores=[0, 16])
    tr = g.play(5)  # 6 -> 2, 7 -> 1, 8 -> 2: take 8 only (7 holds 1)
    assert [(s.pit, s.count) for s in tr if s.kind == "take"] == [(8, 2)]


# ----- game end, repetition, undo ------------------------------------------------------

def test_game_ends_when_the_player_to_move_cannot_move_and_leftovers_go_to_owners():
    g = mancala.Game("kalah", pits=[0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0], stores=[20, 25], to_move=0)
    tr = g.play(5)  # the last seed into player 0's store: extra turn, but player 0 has no seeds
    assert g.is_over()
    assert [s.kind for s in tr][-2:] == ["take", "end"]
    assert g.outcome() == mancala.Outcome(1, [21, 27], "no moves")
    assert g.legal_moves() == []
    with pytest.raises(mancala.IllegalMoveError, match="over"):
        g.play(6)


def test_the_leftovers_taken_at_the_end_are_the_steps_trace_add_makes():
    # The game's end appends the take steps' codes itself (Trace.add inlined): the same steps,
    # pit, count and store for store, and the same codes, so that a board decoding both with
    # one dict (Trace.shared) holds one tuple for each.
    g = mancala.Game("kalah", pits=[0, 0, 0, 0, 0, 1, 3, 0, 12, 0, 0, 2], stores=[10, 20], to_move=0)
    tr = g.play(5)
    assert [tuple(s) for s in tr if s.kind == "take"] == [("take", 6, 3, 13), ("take", 8, 12, 13), ("take", 11, 2, 13)]
    want = Trace()
    for pit, k in ((6, 3), (8, 12), (11, 2)):
        want.add(TAKE, pit, k, 13)
    known = {}
    got = [s for s in tr.shared(known) if s.kind == "take"]
    made = want.shared(known)
    assert len(got) == len(made) == 3 and all(a is b for a, b in zip(got, made))


def test_a_repeated_position_ends_the_game():
    # Two lone seeds chase each other round an Oware board and can never be captured.
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], stores=[23, 23])
    n = 0
    while not g.is_over():
        g.play(g.legal_moves()[0])
        n += 1
        assert n < 50
    assert g.outcome().reason == "repetition"
    assert sum(g.stores) == 48


def test_a_repeated_position_ends_the_game_on_the_search_path_too():
    # push() notes positions as play() does; undo forgets them again, so the
    # same moves end the game at the same move a second time.
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], stores=[23, 23])
    moves = []
    while not g.is_over():
        moves.append(g.legal_moves()[0])
        g.push(moves[-1])
    assert g.outcome().reason == "repetition" and len(moves) < 50
    while g.ply:
        g.pop()
    for m in moves[:-1]:
        g.push(m)
        assert not g.is_over()
    g.push(moves[-1])
    assert g.outcome().reason == "repetition"


@pytest.mark.parametrize("variant", ["kpo", "mankaleh"])
def test_undo_of_a_move_that_left_too_few_seeds_keeps_the_repetition_counts(variant):
    # The game ends before the position is counted for the repetition rule; taking the move
    # back must not take back the count of the position before it (which it did: that position
    # could then come round again without ending the game, and a search's push/pop drifted).
    # So the game plays on as the same moves played afresh do: with few seeds left, positions
    # soon come round again, and the random playouts below end by repetition.
    ended = repeated = 0
    for seed in range(30):
        rnd = random.Random(seed)
        g = mancala.Game(variant)
        while not g.is_over() and g.ply < 300:
            g.push(rnd.choice(g.legal_moves())) if seed % 2 else g.play(rnd.choice(g.legal_moves()))
            if g.is_over() and g.outcome().reason == g.few_seeds_reason:
                g.undo()
                assert not g.is_over()
                afresh = mancala.Game(variant)
                for m in g.moves_played():
                    afresh.play(m)
                for k in range(10):
                    played, again = [], []
                    outcome = g.playout(random.Random(k), 200, played)
                    assert outcome == afresh.playout(random.Random(k), 200, again) and played == again, (variant, seed, k)
                    repeated += outcome is not None and outcome.reason == "repetition"
                ended += 1
                break
    assert ended >= 5 and repeated >= 10


def test_undo_after_the_end_and_after_a_capture():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 3, 1, 2, 1, 5, 5, 5], stores=[0, 15])
    before = g.cells()
    g.play(5)
    assert g.undo() == 5
    assert g.cells() == before and g.to_move == 0 and g.legal_moves() == [5]


# ----- traces -----------------------------------------------------------------------

def test_trace_steps_encode_every_field():
    t = Trace()
    t.add(4, 13, 1023, mancala.HAND)
    t.add(4, 0, 5, mancala.OFF)
    t.drop(255 - 2)
    assert steps(t) == [("take", 13, 1023, -1), ("take", 0, 5, -2), ("drop", 253, 1, -1)]
    assert format_step(t[0]) == "take 13 (1023) -> hand"
    assert "take 0 (5) -> off" in repr(t)


def test_notation():
    g = mancala.Game("oware")
    assert [g.move_name(m) for m in g.legal_moves()] == list("ABCDEF")
    g.play(0)
    assert [g.move_name(m) for m in g.legal_moves()] == list("abcdef")
    assert g.parse_move(" c ") == 8
    with pytest.raises(mancala.NotationError, match="not a pit"):
        g.parse_move("G")


def test_a_traces_shared_steps_are_its_steps_one_tuple_per_distinct_step():
    known = {}
    g = mancala.Game("oware", pits=[0, 0, 0, 30, 0, 0, 1, 1, 1, 1, 1, 1], stores=[4, 8], to_move=0)
    long = g.play(3)                        # thirty seeds: more than two laps, drops repeat
    g.undo()
    steps = long.shared(known)
    assert steps == list(long)
    drops = [s for s in steps if s.kind == "drop"]
    assert len(drops) == 30
    # A drop into the same cell is the same tuple, in this trace and in another decoded later.
    by_cell = {}
    for s in drops:
        assert by_cell.setdefault(s.pit, s) is s
    other = mancala.Game("oware").play(2).shared(known, [])
    again = [s for s in other if s.kind == "drop" and s.pit in by_cell]
    assert len(again) == 3             # (pit 3, the long move's origin, it skipped)
    assert all(s is by_cell[s.pit] for s in again)
    # out= appends to a list given.
    out = ["x"]
    assert long.shared(known, out) is out and out[1:] == steps
