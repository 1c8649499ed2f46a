"""Random playouts of Oware and Kalah on a packed board: game.playout()'s fast path.

The whole board is one int: cell c (the pits, then the two stores) is the
field of w bits at bit w*c, w being at least one bit more than the seeds in
play need (a byte for up to 127 seeds), so that the top bit of every field,
its guard, is 0.  Adding 2**(w-1) - 1 to every pit field sets the guard of
exactly the pits that hold seeds (no carry leaves a field): one add and one
mask give the nonzero pits of a side.  Oware adds the player to move as a bit
above the fields, so the int is the whole position and its repetition key.

Worked out once per variant and options from the engine's own tracks, and
kept in the engine's track cache (which every game with them shares):
- for every pit and every count up to _LAPS laps, the int to add that lifts
  the pit and sows the count (whole laps, then the rest, as the engine's _sow
  does: Oware's track skips the origin, Kalah's has the mover's store and not
  the opponent's), the cell where the last seed may capture, and whose move
  it is next; a bigger handful adds whole laps to the entry for the rest;
- the legal moves for each mask of the mover's nonzero pits, as a tuple,
  filled in as met.

A ply is then: the mask and one dict look-up for the legal moves,
rng.choice, one shift and one add to sow, the capture test when the last seed
is where it may capture, and for Oware the repetition set.  What the tables
do not decide goes to the engine's own code on the unpacked counts: Oware's
legal moves when a side is empty (the feeding rule, the end of the game) and,
with grand_slam="illegal", whenever a move ends with 2 or 3 seeds on the
opponent's side.

It plays the push() loop's game: rng.choice is called once a move on the same
legal moves in the same order (as a tuple), the sowing, captures, extra turns
and ends are the variants' rules, and the Outcome is the one _finish makes.
tests/test_packed.py plays both and compares the moves and the Outcome for
every option, from the start and from positions that reach feeding, each
grand-slam rule, both ends, repetitions and big handfuls, on CPython and
MicroPython.  A game that is not exactly Oware or Kalah, or whose engine
attributes or methods are not the ones the kernel is written for, is played
by the general engine (playout() returns False).
"""
from .game import Mancala, Outcome

# The rules the kernel is written for: the engine attributes it relies on,
# and the engine methods that must be Mancala's (another value or a method
# of the variant's own, and the general engine plays).
_COMMON = (("rows", 2), ("players", 2), ("relay", 0), ("direction", 1), ("min_seeds", 1), ("has_state", False),
           ("pass_when_stuck", False), ("min_seeds_in_play", 0), ("fours", False), ("lazy_moves", False))
_OWARE = (("stores_sown", False), ("skip_origin", True), ("extra_turn_in_store", False), ("end_on_repetition", True),
          ("pits_per_row", 6))
_KALAH = (("stores_sown", True), ("skip_origin", False), ("extra_turn_in_store", True), ("end_on_repetition", False))
_METHODS = ("_move", "_after", "_sow", "_sowable", "_ring", "_make_track", "_finish", "_collect_leftovers",
            "_judge", "_no_moves", "_take", "_position_key")

_CPYTHON = hasattr([], "__getitem__")   # (as in game.py)

# The table sows handfuls of up to this many laps: two on CPython (one move
# in 8000 of Oware's is bigger), one on MicroPython (half the heap).
_LAPS = 2 if _CPYTHON else 1

# The most masks whose legal moves are kept (Oware and Kalah's six pits a
# side have 2 * 64; Kalah's twelve can have 8192, too many for MicroPython).
_MASKS = 8192 if _CPYTHON else 256

# The most moves a round of the kernel's loop (a small int on MicroPython
# too); a longer limit, or none, takes more rounds.
_ROUND = 0x3FFFFFFF


def playout(game, choice, left, moves):
    """game.playout() for the variants the kernel covers; False for the others.

    choice: rng.choice.  left: how many moves may be made (-1: no limit).
    moves: a list each move is appended to, or None.  Returns the Outcome,
    None when `left` ran out first, or False when the engine must play it.
    """
    tracks = game._tracks
    t = tracks.get("packed", False)
    if t is False:
        t = tracks["packed"] = _make(game)
    if t is None:
        return False
    if game._over is not None:
        return game._over
    if t[3] == 8:
        x = int.from_bytes(bytes(game._b), "little") + game.to_move * t[6]   # (_pack, inline)
    else:
        x = _pack(game._b, game.to_move, t)
    rec = None if moves is None else moves.append
    if t[0]:
        # Oware: the positions seen so far, for the repetition rule.
        seen = {x}
        for h in game._hist:
            if h[1] is None:
                return False
            seen.add(_pack(h[1], h[2], t))
        if len(seen) != len(game._seen):
            return False   # not the positions the engine has seen (no played game has that)
        return _oware(game, t, x, seen, choice, rec, left)
    return _kalah(game, t, x, t[9][game.to_move], choice, rec, left)


# ----- the tables ---------------------------------------------------------------
#
# t = (oware, n, k, w, sh, fm, pbit, ones, gm, guards, delta, last, nxt, legal_of, slam, lap, lapx)
#   oware: True for Oware, False for Kalah; n pits, k a player; w bits a field
#   sh[c]: where cell c's field starts; fm: a field's count mask
#   pbit: Oware's player-to-move bit; ones: 2**(w-1)-1 in every pit field
#   gm: every pit's guard; guards[p]: player p's pits' guards
#   delta[i], last[i], nxt[i] for i = count * n + pit (count up to _LAPS laps):
#     the int to add (with Oware's player bit), the cell where the last seed
#     may capture (-1: none), the guards of the player to move next
#   legal_of: the mover's nonzero pits' guards -> legal moves (when the
#     other side has seeds); slam: Oware's grand_slam option, Kalah's
#     empty_capture option
#   lap: the cells of one lap of a track; lapx[pit]: the int to add for one
#     more lap of a handful from the pit (a seed in each cell of its track,
#     one more lifted from the pit)


def _make(game):
    ident = game.id
    if ident == "oware":
        from .variants.oware import Oware as cls
        rules = _OWARE
    elif ident == "kalah":
        from .variants.kalah import Kalah as cls
        rules = _KALAH
    else:
        return None
    if game.__class__ is not cls:
        return None
    for name, value in _COMMON + rules:
        if getattr(game, name) != value:
            return None
    for name in _METHODS:
        if getattr(cls, name) is not getattr(Mancala, name):
            return None
    if ident == "kalah" and cls._moves is not Mancala._moves:
        return None
    oware = ident == "oware"
    n = game.n_pits
    k = game._per_player
    total = game.total_seeds()
    # A field holds every seed in play and its guard: a byte where it can
    # (the counts then go in and out as bytes), else as many bits as it takes.
    w = 8
    while total >= 1 << (w - 1):
        w += 1
    sh = tuple([w * c for c in range(n + 2)])
    fm = (1 << (w - 1)) - 1
    pbit = (1 << (w * (n + 2))) if oware else 0
    ones = 0
    guards = [0, 0]
    for c in range(n):
        ones += fm << sh[c]
        guards[c // k] += 1 << (sh[c] + w - 1)
    guards = tuple(guards)
    # One lap of a pit's track is the same length for every pit.
    lap = len(game.track(0, 1, 0))
    lapx = []
    for pit in range(n):
        track = game.track(pit // k, 1, pit)
        if len(track) != lap:
            return None
        d = -(lap << sh[pit])
        for c in track:
            d += 1 << sh[c]
        lapx.append(d)
    delta = []
    last = []
    nxt = []
    for count in range(min(total, _LAPS * lap) + 1):
        for pit in range(n):
            d, c, p = _sowing(game, pit, count, sh, pbit)
            delta.append(d)
            last.append(c)
            nxt.append(guards[p])
    return (oware, n, k, w, sh, fm, pbit, ones, guards[0] + guards[1], guards, tuple(delta), tuple(last),
            tuple(nxt), {}, game.grand_slam if oware else game.empty_capture, lap, tuple(lapx))


def _sowing(game, pit, count, sh, pbit):
    """(the int to add, the cell where the last seed may capture or -1, the
    player to move next) for a move of `count` seeds from `pit`, on the
    engine's track for the pit, sown as the engine's _sow sows it (whole laps,
    then the rest).  pbit: Oware's player bit (0 for Kalah)."""
    n = game.n_pits
    k = game._per_player
    p = pit // k
    d = -(count << sh[pit])
    if not count:
        return d, -1, p
    t = game.track(p, 1, pit)
    lap = len(t)
    q = (count - 1) // lap
    rest = count - q * lap
    for i in range(lap):
        d += (q + (i < rest)) << sh[t[i]]
    c = t[rest - 1]
    if pbit:
        # Oware: the turn passes; the last seed may capture on the opponent's side.
        return d + (pbit if p == 0 else -pbit), (c if c // k != p else -1), 1 - p
    # Kalah: the last seed in the mover's store gives another move; in a pit of his, it may capture.
    if c == n + p:
        return d, -1, p
    return d, (c if c < n and c // k == p else -1), 1 - p


def _pack(cells, to_move, t):
    if t[3] == 8:
        x = int.from_bytes(bytes(cells), "little")
    else:
        sh = t[4]
        x = 0
        for c in range(len(cells)):
            x += cells[c] << sh[c]
    return x + to_move * t[6]


def _unpack(x, t):
    """The cells (pits, then stores) of packed board x, as a list."""
    cells = t[1] + 2
    if t[3] == 8:
        return list((x & ((1 << (8 * cells)) - 1)).to_bytes(cells, "little"))
    sh = t[4]
    fm = t[5]
    out = []
    for c in range(cells):
        out.append((x >> sh[c]) & fm)
    return out


def _from_guards(t, key, p):
    """The pits of player p whose guard is set in `key`, in order, as a tuple."""
    k = t[2]
    w = t[3]
    sh = t[4]
    own = []
    for c in range(p * k, p * k + k):
        if (key >> (sh[c] + w - 1)) & 1:
            own.append(c)
    return tuple(own)


def _outcome(x, t, reason):
    """The end of the game, as the engine's _finish makes it: every seed left
    goes to the store of its pit's owner; the larger store wins."""
    n = t[1]
    k = t[2]
    if t[3] == 8:
        b = x.to_bytes(n + 3, "little")   # (with Oware's player byte, unread)
        s0 = b[n] + sum(b[:k])
        s1 = b[n + 1] + sum(b[k:n])
    else:
        b = _unpack(x, t)
        s0 = b[n]
        s1 = b[n + 1]
        for c in range(k):
            s0 += b[c]
            s1 += b[k + c]
    return Outcome(0 if s0 > s1 else (1 if s1 > s0 else None), [s0, s1], reason)


def _engine(game, x, p, t):
    """A bare game of the same variant and options holding the unpacked
    position, for the engine's own code on the rare cases."""
    g = object.__new__(game.__class__)
    g.n_pits = t[1]
    g._per_player = t[2]
    g._sides = game._sides
    g._tracks = game._tracks
    if t[0]:
        g.grand_slam = t[14]
    g._b = _unpack(x, t)
    g.to_move = p
    return g


# ----- Oware --------------------------------------------------------------------


def _oware(game, t, x, seen, choice, rec, left):
    oware, n, k, w, sh, fm, pbit, ones, gm, guards, delta, last, nxt, legal_of, slam, lap, lapx = t
    fair = slam == "illegal"
    gp = guards[1 if x & pbit else 0]   # the guards of the player to move
    while True:
        steps = _ROUND if left < 0 or left > _ROUND else left
        for _ in range(steps):
            nz = (x + ones) & gm
            key = nz & gp
            try:
                legal = legal_of[key]
            except KeyError:
                legal = None
            if legal is None or key == nz or fair:
                # A side with no seeds (or a new mask), or grand slams to rule out.
                legal = _oware_moves(game, t, x, nz, key)
                if not legal:
                    return _outcome(x, t, game.no_moves_reason)
            m = choice(legal)
            if rec is not None:
                rec(m)
            i = (x >> sh[m] & fm) * n + m
            try:
                x += delta[i]
                c = last[i]
                gp = nxt[i]
            except IndexError:   # a handful past the table: its whole laps, then the rest from the table
                i = x >> sh[m] & fm
                q = (i - 1) // lap
                i = (i - q * lap) * n + m
                x += delta[i] + q * lapx[m]
                c = last[i]
                gp = nxt[i]
            if c >= 0:
                v = x >> sh[c] & fm
                if v == 2 or v == 3:
                    x = _oware_capture(t, x, c)
                    gp = guards[1 if x & pbit else 0]   # (the mover again after a grand slam with "sow-again")
            if x in seen:
                return _outcome(x, t, "repetition")
            seen.add(x)
        if left >= 0:
            left -= steps
        if not left:
            # The last move allowed: the game goes on unless it ended there.
            nz = (x + ones) & gm
            if _oware_moves(game, t, x, nz, nz & gp):
                return None
            return _outcome(x, t, game.no_moves_reason)


def _oware_moves(game, t, x, nz, key):
    """The legal moves the table does not give: from the guards when both
    sides hold seeds (and kept in the table), else from the engine's _moves
    (feeding, no move at all); with grand_slam="illegal", from the engine too
    whenever a move might capture every seed the opponent has."""
    p = 1 if x & t[6] else 0
    if key and key != nz:
        legal = t[13].get(key)
        if legal is None:
            legal = _from_guards(t, key, p)
            if len(t[13]) < _MASKS:
                t[13][key] = legal
        if t[14] != "illegal" or not _slam_possible(t, x, legal):
            return legal
    return tuple(_engine(game, x, p, t)._moves())


def _slam_possible(t, x, legal):
    """Whether a move of `legal` ends with 2 or 3 seeds on the opponent's side
    (what any grand slam needs), or is too big for the table."""
    n = t[1]
    sh = t[4]
    fm = t[5]
    delta = t[10]
    last = t[11]
    for m in legal:
        i = (x >> sh[m] & fm) * n + m
        if i >= len(delta):
            return True
        c = last[i]
        if c >= 0:
            v = (x + delta[i]) >> sh[c] & fm
            if v == 2 or v == 3:
                return True
    return False


def _oware_capture(t, x, c):
    """The capture of the last pit c (it holds 2 or 3, on the opponent's side)
    and of the pits before it on that side while they hold 2 or 3.  One that
    would take every seed the opponent has (a grand slam) takes nothing,
    unless grand_slam is "sow-again": then it stands, and the mover moves again."""
    k = t[2]
    sh = t[4]
    fm = t[5]
    opp = c // k
    lo = opp * k
    y = x
    taken = 0
    while c >= lo:
        v = y >> sh[c] & fm
        if v != 2 and v != 3:
            break
        taken += v
        y -= v << sh[c]
        c -= 1
    mover = 1 - opp
    y += taken << sh[t[1] + mover]
    if (y + t[7]) & t[9][opp]:
        return y
    if t[14] != "sow-again":
        return x
    return y - t[6] if mover == 0 else y + t[6]   # the player bit back to the mover


# ----- Kalah --------------------------------------------------------------------


def _kalah(game, t, x, gp, choice, rec, left):
    # gp: the guards of the player to move (the player's identity, too).
    oware, n, k, w, sh, fm, pbit, ones, gm, guards, delta, last, nxt, legal_of, empty, lap, lapx = t
    take = empty == "take"      # the lone seed is taken when nothing faces it (Kalah's decision 2)
    while True:
        steps = _ROUND if left < 0 or left > _ROUND else left
        for _ in range(steps):
            key = (x + ones) & gp
            try:
                legal = legal_of[key]
            except KeyError:   # a mask not met yet (0: no seeds, no move)
                legal = _from_guards(t, key, 0 if gp == guards[0] else 1)
                if len(legal_of) < _MASKS:
                    legal_of[key] = legal
            if not legal:
                return _outcome(x, t, game.no_moves_reason)
            m = choice(legal)
            if rec is not None:
                rec(m)
            i = (x >> sh[m] & fm) * n + m
            try:
                x += delta[i]
                c = last[i]
                gp = nxt[i]
            except IndexError:   # a handful past the table: its whole laps, then the rest from the table
                i = x >> sh[m] & fm
                q = (i - 1) // lap
                i = (i - q * lap) * n + m
                x += delta[i] + q * lapx[m]
                c = last[i]
                gp = nxt[i]
            if c >= 0 and x >> sh[c] & fm == 1:
                # The last seed in an empty pit of the mover's: it and the seeds
                # of the pit opposite go to the mover's store.
                o = n - 1 - c
                v = x >> sh[o] & fm
                if v or take:
                    x += (v + 1 << sh[n + c // k]) - (1 << sh[c]) - (v << sh[o])
        if left >= 0:
            left -= steps
        if not left:
            # The last move allowed: the game goes on unless it ended there.
            if (x + ones) & gp:
                return None
            return _outcome(x, t, game.no_moves_reason)
