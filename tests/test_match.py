"""Matches over several rounds: each variant's round rule on a crafted end of round,
and the Match API (who starts, choices, errors, the match text).

Rules and decisions: docs/rules.md ("Matches") and the "Matches" section of each
variant's doc.  A crafted round is set up through the match text (a match line, then
the round's position), the same path a saved match takes.
"""
import pytest

import mancala
from mancala import Match


def match_at(line, position):
    return Match.from_text(line + "\n" + position)


def drops(trace):
    return [s.pit for s in trace if s.kind == "drop"]


def touched(trace):
    """Every pit a step of the trace lifts, drops into or takes from."""
    return {s.pit for s in trace if s.kind in ("lift", "relay", "drop", "take")}


# ----- the API -----------------------------------------------------------------


def test_a_new_match_is_round_one_of_a_normal_game():
    m = Match("dakon")
    assert m.round == 1 and m.first == 0 and m.off == 0
    assert m.game.pits == [7] * 14 and m.game.to_move == 0
    assert m.points == [49, 49]          # Dakon counts the seeds each player holds
    assert m.history == [] and not m.is_over() and m.outcome() is None


def test_first_player_and_game_options_and_match_options():
    m = Match("egyptian-simple", first=1, target=30, setup="even")
    assert m.game.setup == "even" and m.game.to_move == 1
    assert m.target == 30 and m.lead == 0
    assert m.match_options() == {"target": 30, "lead": 0}


def test_variants_without_match_rules_are_refused():
    with pytest.raises(mancala.NoRulesError) as e:
        Match("oware")
    assert "single games" in str(e.value) and "dakon" in str(e.value)


def test_bad_match_options_are_refused_with_the_allowed_values():
    with pytest.raises(mancala.PositionError) as e:
        Match("enkeshui", series="twigs")
    assert "carry" in str(e.value) and "count" in str(e.value)
    with pytest.raises(mancala.PositionError):
        Match("lukho", first=2)
    with pytest.raises(mancala.PositionError):
        Match("dakon", target=60)        # not a Dakon option, match or game


def test_next_round_needs_a_finished_round():
    m = Match("pandi")
    with pytest.raises(mancala.IllegalMoveError) as e:
        m.next_round()
    assert "not over" in str(e.value)


def test_no_round_after_the_match_is_over():
    m = match_at("match pallam-kuzhi round=1 first=0 points=28,28 off=0",
                 "pallam-kuzhi pits_per_row=7,seeds=4 3,0,0,0,0,0,0/0,0,0,0,0,0,0 0,53 1")
    assert m.is_over()
    with pytest.raises(mancala.IllegalMoveError) as e:
        m.next_round()
    assert "match is over" in str(e.value)


def test_a_starter_fixed_by_the_rules_cannot_be_changed():
    m = match_at("match adi round=1 first=0 points=6,6 off=0", "adi - 0,0,0,0,0,0/0,0,0,0,0,0 32,16 0")
    with pytest.raises(mancala.PositionError) as e:
        m.next_round(first=0)
    assert "player 1 starts round 2" in str(e.value) and "lost the round" in str(e.value)


def test_an_open_starter_may_be_agreed():
    m = match_at("match pandi round=1 first=0 points=35,35 off=0",
                 "pandi pits_per_row=7,seeds=5 0,0,0,0,0,0,0/0,0,0,0,0,0,0 40,30 0")
    assert m.next_first() == 1            # by default the player who did not start
    assert m.next_round(first=0).to_move == 0


def test_choices_a_round_rule_does_not_take_are_refused():
    m = match_at("match pandi round=1 first=0 points=35,35 off=0",
                 "pandi pits_per_row=7,seeds=5 0,0,0,0,0,0,0/0,0,0,0,0,0,0 40,30 0")
    with pytest.raises(mancala.PositionError) as e:
        m.next_round(houses="a")
    assert "houses" in str(e.value)


@pytest.mark.parametrize("text, words", [
    ("dakon 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "two lines"),
    ("game dakon round=1\ndakon - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "starts with 'match"),
    ("match dakon round=1 first=0\ndakon - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "points="),
    ("match dakon round=x first=0 points=49,49\ndakon - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "malformed"),
    ("match dakon round=2 first=0 points=49,49\ndakon - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "inconsistent"),
    ("match dakon round=1 first=0 points=49,49 colour=red\ndakon - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "colour"),
    ("match dakon round=1 first=0 points=49,49\nsunca - 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0,0 0", "Sunca"),
    ("match oware round=1 first=0 points=0,0\noware - 4,4,4,4,4,4/4,4,4,4,4,4 0,0 0", "no match rules"),
])
def test_malformed_match_text_says_what_is_wrong(text, words):
    with pytest.raises(mancala.RulesError) as e:
        Match.from_text(text)
    assert words in str(e.value)


def test_match_text_round_trips_and_goes_on_identically():
    m = Match("adi")
    g = m.game
    for move in (0, 7, 2):
        g.play(move)
    text = m.to_text()
    r = Match.from_text(text)
    assert r.to_text() == text
    assert r.game.cells() == g.cells() and r.points == m.points and r.round == 1


# ----- Dakon and Sunca: seeds carried over, fallow land --------------------------


DAKON_END = ("match dakon round=1 first=1 points=49,49 off=0",
             "dakon pits_per_row=7,seeds=7 0,0,0,0,0,0,1/0,0,0,0,0,0,0 29,68 0")


def test_dakon_thirty_seeds_fill_four_cups_and_the_beginning_holes_lie_fallow():
    m = match_at(*DAKON_END)
    m.game.play(6)                      # player 0's last seed into his shed: he finished last
    assert m.game.is_over() and m.game.last_mover() == 0
    r = m.history[-1]
    assert (r.winner, r.scores, r.points, r.next_first) == (1, [30, 68], [30, 68], 0)
    g = m.next_round()
    # 30 seeds: four cups of seven (the four before the shed), two left in the shed;
    # 68: all seven cups and 19 in the shed.  The beginning holes A, B, C are fallow.
    assert g.pits == [0, 0, 0, 7, 7, 7, 7] + [7] * 7
    assert g.stores == [2, 19] and g.closed == (0, 1, 2)
    assert g.to_move == 0 and m.first == 0 and m.round == 2   # who finished last starts, alone
    assert g.legal_moves() == [3, 4, 5, 6]                   # no opening: the board is not full
    assert "closed=A,B,C" in mancala.to_text(g)


def test_dakon_fallow_cups_are_never_sown():
    m = match_at(*DAKON_END)
    m.game.play(6)
    g = m.next_round()
    # Player 1 sows 7 from e round his row and on into player 0's: A, B, C are passed over.
    tr = g.play(3)
    assert not touched(tr) & {0, 1, 2}
    g.play(11)
    assert g.pits[:3] == [0, 0, 0]
    g.undo()
    g.undo()
    assert g.closed == (0, 1, 2) and g.pits == [0, 0, 0, 7, 7, 7, 7] + [7] * 7


def test_dakon_a_finished_round_keeps_who_finished_last_in_its_text():
    m = match_at(*DAKON_END)
    m.game.play(6)
    text = m.to_text()
    assert text.endswith("last=0")
    r = Match.from_text(text)
    assert r.next_first() == 0 and r.to_text() == text


def test_dakon_a_drawn_round_opens_as_the_first():
    m = match_at("match dakon round=1 first=0 points=49,49 off=0",
                 "dakon pits_per_row=7,seeds=7 0,0,0,0,0,0,0/0,0,0,0,0,0,1 49,48 1")
    m.game.play(13)
    g = m.next_round()
    assert g.pits == [7] * 14 and g.stores == [0, 0] and g.closed == () and g.to_move == 1
    assert g.legal_moves() == [7]       # the opening, both players at once


def test_dakon_match_ends_when_a_player_cannot_fill_a_cup():
    m = match_at("match dakon round=3 first=0 points=10,88 off=0 history=0:1:30,68:30,68:0:1:0|0:1:10,88:10,88:0:1:0",
                 "dakon pits_per_row=7,seeds=7 0,0,0,0,0,0,0/0,0,0,0,0,0,1 6,91 1")
    m.game.play(13)
    assert m.is_over()
    assert m.outcome() == mancala.Outcome(1, [6, 92], "player 0 cannot fill a single cup")


def test_sunca_the_unfilled_holes_are_the_first_going_clockwise():
    # Player 0's home is at his left: one stone in A goes home, and the round is over.
    m = match_at("match sunca round=1 first=0 points=49,49 off=0",
                 "sunca pits_per_row=7,seeds=7 1,0,0,0,0,0,0/0,0,0,0,0,0,0 62,35 0")
    m.game.play(0)
    g = m.next_round()
    # 35 stones: five holes for player 1; his corner hole g and then f stay empty.
    assert g.pits == [7] * 7 + [7, 7, 7, 7, 7, 0, 0]
    assert g.closed == (12, 13) and g.stores == [14, 0] and g.to_move == 0
    for _ in range(6):
        if g.is_over():
            break
        tr = g.play(g.legal_moves()[-1])
        assert not touched(tr) & {12, 13}
        assert g.pits[12:] == [0, 0]


# ----- Pandi and Pallam Kuzhi: closed shops -----------------------------------------


def test_pandi_the_loser_closes_his_seventh_then_sixth_shop():
    m = match_at("match pandi round=1 first=0 points=35,35 off=0",
                 "pandi pits_per_row=7,seeds=5 0,0,0,0,0,0,0/0,0,0,0,0,0,0 43,27 0")
    r = m.history[-1]
    assert (r.winner, r.points, r.over) == (0, [43, 27], False)
    g = m.next_round()
    assert g.pits == [5] * 7 + [5, 5, 5, 5, 5, 0, 0]
    assert g.closed == (12, 13) and g.stores == [8, 2] and g.to_move == 1


def test_pandi_closed_shops_are_passed_over_when_looking_for_the_next_hole():
    # Player 1's last stone falls in e (11); f and g are closed, so the next hole is A,
    # which holds two: they are sown on into B and C; D is empty: E and its opposite c win.
    g = mancala.from_text("pandi pits_per_row=7,seeds=5 2,0,0,0,3,0,0/0,0,4,1,0,0,0 30,30 1 closed=f,g")
    tr = g.play(10)
    assert [(s.kind, s.pit) for s in tr][:5] == [("lift", 10), ("drop", 11), ("relay", 0), ("drop", 1), ("drop", 2)]
    assert [(s.pit, s.count) for s in tr if s.kind == "take"] == [(4, 3), (9, 4)]
    assert g.stores == [30, 37] and g.pits[12:] == [0, 0]


def test_pandi_capture_beyond_an_empty_hole_skips_closed_shops():
    # The last stone in e, f and g closed: the hole after is A, empty; beyond it B is won.
    g = mancala.from_text("pandi pits_per_row=7,seeds=5 0,3,0,0,0,2,0/0,0,0,1,0,0,0 30,30 1 closed=f,g")
    tr = g.play(10)
    assert [(s.pit, s.count) for s in tr if s.kind == "take"] == [(1, 3)]


def test_pallam_kuzhi_match_is_over_without_four_seeds_for_a_cup():
    m = match_at("match pallam-kuzhi round=1 first=0 points=28,28 off=0",
                 "pallam-kuzhi pits_per_row=7,seeds=4 3,0,0,0,0,0,0/0,0,0,0,0,0,0 0,53 1")
    # Player 1 has nothing to move: player 0 keeps his three seeds, and cannot fill a cup.
    assert m.is_over()
    assert m.outcome() == mancala.Outcome(1, [3, 53], "player 0 cannot fill a single cup")


def test_pallam_kuzhi_unfilled_cups_are_covered():
    m = match_at("match pallam-kuzhi round=1 first=0 points=28,28 off=0",
                 "pallam-kuzhi pits_per_row=7,seeds=4 0,0,0,0,0,0,0/0,0,0,0,0,0,0 37,19 0")
    g = m.next_round()
    assert g.pits == [4] * 7 + [4, 4, 4, 4, 0, 0, 0] and g.closed == (11, 12, 13)
    assert g.stores == [9, 3]


# ----- Adi: houses bought and won back -------------------------------------------


ADI_END = ("match adi round=1 first=0 points=6,6 off=0", "adi - 0,0,0,0,0,0/0,0,0,0,0,0 32,16 0")


def test_adi_the_winner_buys_the_houses_the_loser_cannot_fill_and_the_loser_starts():
    m = match_at(*ADI_END)
    r = m.history[-1]
    assert (r.winner, r.points, r.next_first) == (0, [8, 4], 1)
    g = m.next_round()
    # Bought from the middle outwards: c and d.
    assert g.pits == [4] * 12 and g.stores == [0, 0] and g.to_move == 1
    assert [g.owner(i) for i in range(12)] == [0] * 6 + [1, 1, 0, 0, 1, 1]
    assert g.bought(0) == (8, 9) and g.legal_moves() == [6, 7, 10, 11]
    assert mancala.to_text(g) == "adi - 4,4,4,4,4,4/4,4,4,4,4,4 0,0 1 bought0=c,d"
    assert m.points == [8, 4]


def test_adi_the_winner_chooses_the_houses_he_buys():
    m = match_at(*ADI_END)
    g = m.next_round(houses="a,f")
    assert g.bought(0) == (6, 11)
    for bad in ("a", "a,b,c", "a,A", "a,a"):
        m = match_at(*ADI_END)
        with pytest.raises(mancala.PositionError) as e:
            m.next_round(houses=bad)
        assert "exactly 2" in str(e.value)


def test_adi_fours_in_a_bought_house_go_to_the_buyer():
    # Player 0 owns c and d.  Player 1 sows b (3): c makes four on the way: player 0's.
    g = mancala.from_text("adi - 4,4,4,4,4,4/1,3,3,0,0,2 0,0 1 bought0=c,d")
    g.play(7)
    assert g.stores == [4, 0] and g.pits[8] == 0


def test_adi_the_seller_wins_a_four_in_a_sold_house_only_with_his_last_seed():
    g = mancala.from_text("adi - 4,4,4,4,4,4/1,1,3,0,0,2 0,0 1 bought0=c,d")
    g.play(7)                           # one seed into c (3 -> 4): the sower takes it
    assert g.stores == [0, 4]


def test_adi_the_buyer_may_start_from_a_bought_house_and_the_seller_may_not():
    g = mancala.from_text("adi - 4,4,4,4,4,4/1,1,3,2,0,2 0,0 0 bought0=c,d")
    assert 8 in g.legal_moves() and 9 in g.legal_moves()
    h = mancala.from_text("adi - 4,4,4,4,4,4/1,1,3,2,0,2 0,0 1 bought0=c,d")
    with pytest.raises(mancala.IllegalMoveError) as e:
        h.play(8)
    assert "belongs to player 0" in str(e.value)


def test_adi_leftovers_go_to_the_owner_of_the_house():
    # Fewer than four seeds in the houses: each owner takes his, bought houses included.
    g = mancala.from_text("adi - 0,0,0,0,0,0/0,0,2,1,0,0 24,21 1 bought0=c,d")
    assert g.is_over() and g.stores == [27, 21]


def test_adi_a_round_is_won_by_having_more_than_enough_for_ones_own_houses():
    # Player 0 owns 8 houses and needs 32: 30 is not enough although it is more than 18.
    g = mancala.from_text("adi - 0,0,0,0,0,0/0,0,0,0,0,0 30,18 0 bought0=c,d")
    assert g.outcome().winner == 1


def test_adi_houses_are_won_back_first_then_bought():
    m = match_at("match adi round=2 first=1 points=8,4 off=0 history=0:0:32,16:8,4:1:1:0",
                 "adi - 0,0,0,0,0,0/0,0,0,0,0,0 20,28 1 bought0=c,d")
    r = m.history[-1]
    # Player 0 needs 32 and has 20: he keeps 5 houses; player 1 takes over 3.
    assert (r.winner, r.points, r.next_first) == (1, [5, 7], 0)
    with pytest.raises(mancala.PositionError) as e:
        m.next_round(houses="c,C,D")
    assert "win back" in str(e.value)
    g = m.next_round()
    assert g.bought(0) == () and g.bought(1) == (2,)   # c and d back, then C bought
    assert g.to_move == 0 and g.legal_moves() == [0, 1, 3, 4, 5]


def test_adi_match_is_won_by_buying_every_house():
    m = match_at("match adi round=2 first=1 points=11,1 off=0 history=0:0:44,4:11,1:1:1:0",
                 "adi - 0,0,0,0,0,0/0,0,0,0,0,0 46,2 1 bought0=a,b,c,d,e")
    assert m.is_over()
    assert m.outcome() == mancala.Outcome(0, [12, 0], "player 0 has bought all of player 1's houses")


def test_adi_odd_seeds_of_a_repetition_ending_still_refill_every_house():
    m = match_at(*("match adi round=1 first=0 points=6,6 off=0", "adi - 0,0,0,0,0,0/0,0,0,0,0,0 30,18 0"))
    assert m.history[-1].points == [8, 4]
    g = m.next_round()
    assert g.pits == [4] * 12 and sum(g.cells()) == 48


# ----- Egyptian games: gains to sixty --------------------------------------------


def board_over(ident, opts, stores):
    return "%s %s 0,0,0,0,0,0/0,0,0,0,0,0 %d,%d 0" % (ident, opts, stores[0], stores[1])


def test_egyptian_gains_add_up_and_the_gainer_begins_the_next_board():
    m = match_at("match egyptian-simple target=60 lead=0 round=1 first=0 points=0,0 off=0",
                 board_over("egyptian-simple", "setup=ignorant", (30, 42)))
    r = m.history[-1]
    assert (r.winner, r.points, r.next_first, r.over) == (1, [0, 12], 1, False)
    g = m.next_round()
    # The loser distributes the seeds, the gainer chooses (and so begins).
    assert g.phase == "setup" and g.to_move == 0 and g.outside() == 72 and m.first == 1


def test_egyptian_match_ends_when_gains_reach_sixty():
    m = match_at("match egyptian-simple target=60 lead=0 round=3 first=0 points=40,10 off=0 "
                 "history=0:0:52,20:32,0:0:1:0|0:0:40,32:40,0:0:1:0",
                 board_over("egyptian-simple", "setup=ignorant", (20, 52)))
    assert not m.is_over() and m.points == [40, 42]
    m = match_at("match egyptian-simple target=60 lead=0 round=3 first=0 points=40,10 off=0 "
                 "history=0:0:52,20:32,0:0:1:0|0:0:40,32:40,0:0:1:0",
                 board_over("egyptian-simple", "setup=ignorant", (46, 26)))
    assert m.outcome() == mancala.Outcome(0, [60, 10], "player 0 reached 60 points")


def test_egyptian_advanced_needs_sixty_and_twenty_four_more_than_the_other():
    line = "match egyptian-advanced target=60 lead=24 round=2 first=0 points=40,%d off=0 history=0:0:56,16:40,0:0:1:0"
    m = match_at(line % 30, board_over("egyptian-advanced", "setup=wise", (46, 26)))
    assert m.outcome() == mancala.Outcome(0, [60, 30], "player 0 reached 60 points, 30 ahead")
    m = match_at(line % 50, board_over("egyptian-advanced", "setup=wise", (46, 26)))
    assert not m.is_over() and m.points == [60, 50]
    assert Match("egyptian-advanced").lead == 24 and Match("lane").lead == 0


def test_egyptian_a_drawn_board_gains_nothing():
    m = match_at("match lane target=60 lead=0 round=1 first=0 points=0,0 off=0",
                 board_over("lane", "setup=lane", (36, 36)))
    r = m.history[-1]
    assert (r.winner, r.points, r.next_first, r.fixed) == (None, [0, 0], 1, False)


# ----- Enkeshui: series -------------------------------------------------------------


def test_enkeshui_cows_go_back_from_the_right_and_a_surplus_leaves_the_game():
    m = match_at("match enkeshui series=carry games=5 round=1 first=0 points=24,24 off=0",
                 "enkeshui pits_per_row=8,zeros=left,race=first-to-sleep,advance=no "
                 "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 30,18 0")
    r = m.history[-1]
    assert (r.points, r.off, r.over) == ([24, 18], 6, False)
    g = m.next_round()
    assert g.pits == [0, 0, 4, 4, 4, 4, 4, 4] + [0, 0, 0, 2, 4, 4, 4, 4]
    assert m.off == 6 and sum(g.cells()) + g.outside() + m.off == 48
    assert g.phase == "setup" and g.legal_moves() == [("race",)]   # each round opens with the race


def test_enkeshui_a_player_who_cannot_fill_his_right_hand_boma_loses_the_series():
    m = match_at("match enkeshui series=carry games=5 round=2 first=1 points=24,18 off=6 "
                 "history=0:0:30,18:24,18:1:0:6",
                 "enkeshui pits_per_row=8,zeros=left,race=first-to-sleep,advance=no "
                 "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 39,3 0")
    assert m.outcome() == mancala.Outcome(0, [24, 3], "player 1 cannot fill his right-hand boma")


def test_enkeshui_zeros_on_the_right_are_filled_from_the_right_too():
    m = match_at("match enkeshui series=carry games=5 round=1 first=0 points=24,24 off=0",
                 "enkeshui pits_per_row=8,zeros=right,race=none,advance=no "
                 "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 37,11 0")
    g = m.next_round()
    assert g.pits == [4, 4, 4, 4, 4, 4, 0, 0] + [0, 0, 0, 3, 4, 4, 0, 0]
    assert g.phase == "play" and g.to_move == 1 and m.off == 13


def test_enkeshui_a_counted_series_is_a_number_of_games():
    m = Match("enkeshui", series="count", games=2)
    assert m.points == [0, 0]
    m = match_at("match enkeshui series=count games=2 round=2 first=1 points=1,0 off=0 history=0:0:30,18:1,0:1:0:0",
                 "enkeshui pits_per_row=8,zeros=left,race=first-to-sleep,advance=no "
                 "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 20,28 0")
    assert m.outcome() == mancala.Outcome(None, [1, 1], "after 2 rounds the points are equal (1 each)")


# ----- Giuthi: Part II, and Driedger's second game --------------------------------


GIUTHI_END = ("match giuthi round=1 first=0 points=36,36 off=0",
              "giuthi pits_per_row=6,seeds=6 0,0,0,0,0,0/0,0,0,0,0,0 45,27 0")


def test_giuthi_the_poor_man_arranges_and_the_rich_man_doubles():
    m = match_at(*GIUTHI_END)
    g = m.next_round(arrangement=[1, 7, 1, 0, 0, 0])
    # The poor man's a, b, c hold 1, 7, 1; the rich man's facing F, E, D hold 2, 14, 2.
    assert g.pits == [0, 0, 0, 2, 14, 2] + [1, 7, 1, 0, 0, 0]
    assert g.closed == (0, 1, 2, 9, 10, 11)
    assert g.stores == [45 - 18, 27 - 9] and g.to_move == 0      # the rich man plays first
    assert sum(g.cells()) == 72


def test_giuthi_part_two_plays_on_the_cups_in_use_only():
    m = match_at(*GIUTHI_END)
    g = m.next_round(arrangement="7,1,1,1,0,0")
    assert g.closed == (0, 1, 10, 11)
    # The rich man sows E (2) clockwise: D then C; C is lifted (3) and sown back towards
    # F and on round to player 1's row, never into the unused cups.
    while not g.is_over():
        tr = g.play(g.legal_moves()[0])
        assert not touched(tr) & set(g.closed)
        assert all(g.pits[i] == 0 for i in g.closed)


def test_giuthi_part_two_arrangement_is_checked():
    for arrangement, words in (([1, 7, 0, 0, 0, 0], "at least three cups"),
                               ([9, 9, 9, 0, 0, 0], "at most 22 seeds"),
                               ([1, 1], "needs 6 counts")):
        m = match_at(*GIUTHI_END)
        with pytest.raises(mancala.PositionError) as e:
            m.next_round(arrangement=arrangement)
        assert words in str(e.value)


def test_giuthi_match_ends_when_the_poor_man_cannot_fill_three_cups():
    m = match_at("match giuthi round=1 first=0 points=36,36 off=0",
                 "giuthi pits_per_row=6,seeds=6 0,0,0,0,0,0/0,0,0,0,0,0 70,2 0")
    assert m.outcome().winner == 0 and "too few" in m.outcome().reason


def test_giuthi_a_drawn_game_is_played_again_from_the_start():
    m = match_at("match giuthi round=1 first=0 points=36,36 off=0",
                 "giuthi pits_per_row=6,seeds=6 0,0,0,0,0,0/0,0,0,0,0,0 36,36 0")
    g = m.next_round()
    assert g.pits == [6] * 12 and g.closed == () and g.to_move == 1


DRIEDGER_END = "giuthi-driedger pits_per_row=8,seeds=6 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 %d,%d 0"


def test_driedger_the_loser_rearranges_the_winner_matches_and_the_loser_begins():
    m = match_at("match giuthi-driedger double=no keep=no round=1 first=0 points=48,48 off=0", DRIEDGER_END % (60, 36))
    assert m.next_first() == 1
    g = m.next_round(arrangement=[0, 10, 2, 0, 8, 8, 8, 0])
    assert g.pits[8:] == [0, 10, 2, 0, 8, 8, 8, 0]
    assert [g.pits[g.opposite(8 + i)] for i in range(8)] == [0, 10, 2, 0, 8, 8, 8, 0]
    assert g.stores == [24, 0] and g.to_move == 1 and g.closed == ()


def test_driedger_the_loser_puts_back_all_his_stones_unless_keep_is_allowed():
    m = match_at("match giuthi-driedger double=no keep=no round=1 first=0 points=48,48 off=0", DRIEDGER_END % (60, 36))
    with pytest.raises(mancala.PositionError) as e:
        m.next_round(arrangement=[6, 6, 6, 6, 0, 0, 0, 0])
    assert "all his 36" in str(e.value)
    m = match_at("match giuthi-driedger double=no keep=yes round=1 first=0 points=48,48 off=0", DRIEDGER_END % (60, 36))
    g = m.next_round(arrangement=[6, 6, 6, 6, 0, 0, 0, 0])
    assert g.stores == [36, 12]


def test_driedger_a_poor_loser_may_shorten_the_board_and_the_winner_may_double():
    m = match_at("match giuthi-driedger double=yes keep=no round=1 first=0 points=48,48 off=0", DRIEDGER_END % (76, 20))
    g = m.next_round(shorten=True, arrangement=[0, 4, 4, 4, 4, 4, 0, 0])
    assert g.closed == (0, 7, 8, 15)
    assert g.pits == [0, 0, 8, 8, 8, 8, 8, 0] + [0, 4, 4, 4, 4, 4, 0, 0]
    assert g.stores == [36, 0]
    m = match_at("match giuthi-driedger double=yes keep=no round=1 first=0 points=48,48 off=0", DRIEDGER_END % (60, 36))
    with pytest.raises(mancala.PositionError) as e:
        m.next_round(shorten=True)
    assert "less than half" in str(e.value)


def test_driedger_after_the_second_game_the_players_take_turns_to_begin():
    m = match_at("match giuthi-driedger double=no keep=no round=2 first=1 points=60,36 off=0 history=0:0:60,36:60,36:1:1:0",
                 DRIEDGER_END % (70, 26))
    assert m.next_first() == 0          # player 1 began game 2, so player 0 begins game 3
    with pytest.raises(mancala.PositionError):
        m.next_round(first=1)


# ----- Lukho and Kiothi: points over a set ---------------------------------------


LUKHO_OVER = "lukho pits_per_row=8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 %d,%d 0"


@pytest.mark.parametrize("round, stores, points", [
    (1, (25, 23), [12, 0]),   # the first game of a set won by a bull
    (2, (25, 23), [4, 0]),    # a bull later in the set
    (1, (30, 18), [2, 0]),    # both captured
    (1, (0, 17), [0, 4]),     # only one player captured
    (1, (20, 20), [0, 0]),    # a draw
])
def test_lukho_scores_two_four_or_twelve(round, stores, points):
    history = " history=0:1:0,2:0,0:1:0:0" if round == 2 else ""
    m = match_at("match lukho games=12 round=%d first=0 points=0,0 off=0%s" % (round, history), LUKHO_OVER % stores)
    assert m.points == points


def test_lukho_a_set_is_twelve_games():
    history = "|".join("0:0:30,18:%d,0:1:0:0" % (2 * i) for i in range(1, 12))
    m = match_at("match lukho games=12 round=12 first=1 points=22,0 off=0 history=" + history, LUKHO_OVER % (30, 18))
    assert m.outcome() == mancala.Outcome(0, [24, 0], "after 12 rounds player 0 has more points (24 to 0)")


def test_kiothi_the_supreme_victory_counts_as_more_wins():
    over = "kiothi redeploy=yes 0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0 31,29 0"
    assert match_at("match kiothi games=5 supreme=2 round=1 first=0 points=0,0 off=0", over).points == [2, 0]
    assert match_at("match kiothi games=5 supreme=10 round=1 first=0 points=0,0 off=0", over).points == [10, 0]
    over = "kiothi redeploy=yes 0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0 36,24 0"
    assert match_at("match kiothi games=5 supreme=10 round=1 first=0 points=0,0 off=0", over).points == [1, 0]


# ----- closed pits and bought houses in the position text --------------------------


def test_closed_pits_round_trip_and_are_checked():
    text = "dakon pits_per_row=7,seeds=7 0,0,7,7,7,7,7/7,7,7,7,7,7,7 3,10 0 closed=A,B"
    assert mancala.to_text(mancala.from_text(text)) == text
    with pytest.raises(mancala.PositionError) as e:
        mancala.from_text("dakon pits_per_row=7,seeds=7 1,0,7,7,7,7,7/7,7,7,7,7,7,7 2,10 0 closed=A,B")
    assert "closed" in str(e.value)
    with pytest.raises(mancala.PositionError):
        mancala.from_text("dakon pits_per_row=7,seeds=7 0,0,7,7,7,7,7/7,7,7,7,7,7,7 3,10 0 closed=Z")
    with pytest.raises(mancala.PositionError):
        mancala.from_text("pandi pits_per_row=7,seeds=5 0,0,0,0,0,0,0/5,5,5,5,5,5,5 35,0 1 closed=A,B,C,D,E,F,G")
    with pytest.raises(mancala.PositionError):
        mancala.from_text("dakon pits_per_row=7,seeds=7 0,0,7,7,7,7,7/7,7,7,7,7,7,7 3,10 0 last=0")


def test_bought_houses_round_trip_and_are_checked():
    text = "adi - 4,4,4,4,4,4/4,4,4,4,4,4 0,0 1 bought0=c,d bought1=A"
    assert mancala.to_text(mancala.from_text(text)) == text
    for bad in ("bought0=A", "bought1=a", "colour=red"):
        with pytest.raises(mancala.PositionError):
            mancala.from_text("adi - 4,4,4,4,4,4/4,4,4,4,4,4 0,0 1 " + bad)
