"""Random playouts of Oware and Kalah on a packed board (game.playout's fast path).

The board is one int: cell c (pits, then the stores) is the field of w bits
at bit w*c, w being one more bit than the variant's seed total needs, so that
the field's top bit (its guard) is always 0.  Adding (2**(w-1) - 1) to every
pit field then sets the guard of exactly the pits that hold a seed, and
masking the guards gives the nonzero pits of the whole board at once.

Per variant and options, worked out once from the engine's own tracks:
- for each (pit, count), the int to add that lifts the pit and sows the count
  (whole laps and the rest, as the engine's _sow does), and the last cell;
- for each mask of nonzero pits, the legal moves as a tuple (filled as met).

So a ply is: the nonzero mask, one dict look-up, rng.choice, one add of a
table entry, and the capture test only where the last seed can capture.  Every
case the tables do not decide falls to the engine on the unpacked counts: the
legal moves of Oware when a side is empty (feeding, the end of the game), with
grand_slam="illegal" whenever a move could capture everything, and a handful
too big for the table; the end of the game is the engine's _finish.

It is only a faster way to the same game: the same moves (rng.choice on the
same legal moves in the same order, a tuple instead of a list), the same
Outcome.  tests/test_packed.py compares it with the push() loop.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(-1)


# The rules the kernel is written for: the engine attributes it relies on,
# checked on the variant when its tables are made (another value means the
# general engine plays the game).
_OWARE_RULES = (("rows", 2), ("pits_per_row", 6), ("players", 2), ("stores_sown", False), ("skip_origin", True),
                ("relay", 0), ("direction", 1), ("min_seeds", 1), ("extra_turn_in_store", False),
                ("end_on_repetition", True), ("has_state", False), ("pass_when_stuck", False),
                ("min_seeds_in_play", 0), ("fours", False), ("lazy_moves", False))
_KALAH_RULES = (("rows", 2), ("players", 2), ("stores_sown", True), ("skip_origin", False),
                ("relay", 0), ("direction", 1), ("min_seeds", 1), ("extra_turn_in_store", True),
                ("end_on_repetition", False), ("has_state", False), ("pass_when_stuck", False),
                ("min_seeds_in_play", 0), ("fours", False), ("lazy_moves", False))


def playout(game, choice, left, moves):
    """game.playout() for the variants the kernel covers; False for the others.

    choice: rng.choice.  left: moves still allowed (-1: no limit).  moves: a
    list or None.  Returns the Outcome, None when `left` ran out first, or
    False when the general engine must play this game.
    """
    t = _tables(game)
    if t is None:
        return False
    if game._over is not None:
        return game._over
    x = _pack(game._b, game.to_move, t)
    rec = None if moves is None else moves.append
    if t[0] == "oware":
        seen = set()
        for h in game._hist:
            if h[1] is None:
                return False
            seen.add(_pack(h[1], h[2], t))
        seen.add(x)
        if len(seen) != len(game._seen):
            return False   # not the positions the engine has seen (cannot happen on a played game)
        return _oware(game, t, x, seen, choice, rec, left)
    return _kalah(game, t, x, game.to_move, choice, rec, left)


def _tables(game):
    # Kept in the track cache, which the engine shares between every game of
    # the variant with the same options.
    tracks = game._tracks
    t = tracks.get("packed", False)
    if t is False:
        t = tracks["packed"] = _make(game)
    return t


def _make(game):
    ident = game.id
    if ident == "oware":
        from .variants.oware import Oware
        if game.__class__ is not Oware or not _follows(game, _OWARE_RULES):
            return None
    elif ident == "kalah":
        from .variants.kalah import Kalah
        if game.__class__ is not Kalah or not _follows(game, _KALAH_RULES):
            return None
    else:
        return None
    n = game.n_pits
    k = game._per_player
    total = game.total_seeds()
    # A field holds up to `total` seeds and its guard bit: a byte where it
    # can (the counts are then packed and unpacked as bytes), else as few
    # bits as it takes.
    w = 8
    while total >= 1 << (w - 1):
        w += 1
    cells = n + 2
    sh = tuple([w * c for c in range(cells)])
    fm = (1 << (w - 1)) - 1
    pbit = 1 << (w * cells)
    ones = 0
    guards = [0, 0]
    for c in range(n):
        ones += fm << sh[c]
        guards[c // k] |= 1 << (sh[c] + w - 1)
    # A handful of up to two laps comes from the table; a bigger one (rare)
    # is worked out when met.
    lap = len(game.track(0, 1, 0))
    kmax = min(total, 2 * lap)
    oware = ident == "oware"
    delta = []
    last = []
    nxt = []
    for count in range(kmax + 1):
        for pit in range(n):
            d, c, p = _sowing(game, pit, count, sh, pbit, oware)
            delta.append(d)
            last.append(c)
            nxt.append(p)
    # Index: count * n + pit (a count past kmax is past the end: IndexError).
    return (ident, n, k, w, sh, fm, pbit, ones, guards[0] | guards[1] | pbit, tuple(guards), tuple(delta),
            tuple(last), {}, getattr(game, "grand_slam", None), kmax, tuple(nxt))


def _follows(game, rules):
    for name, value in rules:
        if getattr(game, name) != value:
            return False
    return True


def _sowing(game, pit, count, sh, pbit, oware):
    """(the int to add, the cell that may capture or -1, the next player) for a move of `count` seeds from `pit`.

    The cells come from the engine's track for the pit (its skip of the
    origin, its stores), sown as the engine's _sow sows them."""
    n = game.n_pits
    p = pit // game._per_player
    d = -(count << sh[pit])
    if not count:
        return d, _NONE, p
    t = game.track(p, 1, pit)
    lap = len(t)
    q = (count - 1) // lap
    for c in t:
        d += q << sh[c]
    rest = count - q * lap
    for c in t[:rest]:
        d += 1 << sh[c]
    c = t[rest - 1]
    if oware:
        # The turn passes (the player bit flips); a capture may take the last pit's side.
        d += pbit if p == 0 else -pbit
        return d, (c if c < n and c // game._per_player != p else _NONE), 1 - p
    # Kalah: another move if the last seed is in the own store; a capture if in an own pit.
    nxt = p if c == n + p else 1 - p
    return d, (c if c < n and c // game._per_player == p else _NONE), nxt


def _pack(cells, to_move, t):
    if t[3] == 8:
        x = int.from_bytes(bytes(cells), "little")
    else:
        sh = t[4]
        x = 0
        for c in range(len(cells)):
            x += cells[c] << sh[c]
    if t[0] == "oware":
        x += to_move * t[6]
    return x


def _unpack(x, t):
    n = t[1] + 2
    if t[3] == 8:
        return list((x & ((1 << (8 * n)) - 1)).to_bytes(n, "little"))
    sh = t[4]
    fm = t[5]
    out = []
    for s in sh:
        out.append((x >> s) & fm)
    return out


def _engine(game, x, p, t):
    """A bare game of the same variant holding the unpacked position: the engine's code on it."""
    g = object.__new__(game.__class__)
    g.n_pits = t[1]
    g._per_player = t[2]
    g._sides = game._sides
    g._tracks = game._tracks
    g.grand_slam = game.grand_slam if t[0] == "oware" else None
    g._b = _unpack(x, t)
    g.to_move = p
    g._over = None
    g._legal = None
    return g


def _end(game, x, p, t, reason):
    g = _engine(game, x, p, t)
    g._finish(None, reason if reason else g.no_moves_reason)
    return g._over


def _oware(game, t, x, seen, choice, rec, left):
    n = t[1]
    sh = t[4]
    fm = t[5]
    pbit = t[6]
    ones = t[7]
    gm = t[8]
    delta = t[10]
    last = t[11]
    legal_of = t[12]
    slam_rule = t[13]
    fair = slam_rule == "illegal"
    while True:
        nz = (x + ones) & gm
        legal = legal_of.get(nz)
        if legal is None or fair:
            legal = _oware_moves(game, t, x, nz)
            if not legal:
                return _end(game, x, 1 if x & pbit else 0, t, None)
        if not left:
            return None
        m = choice(legal)
        if rec is not None:
            rec(m)
        i = ((x >> sh[m]) & fm) * n + m
        try:
            x += delta[i]
            c = last[i]
        except IndexError:
            d, c, _ = _sowing(game, m, (x >> sh[m]) & fm, sh, pbit, True)
            x += d
        if c >= 0:
            v = (x >> sh[c]) & fm
            if v == 2 or v == 3:
                x = _oware_capture(t, x, c)
        if x in seen:
            return _end(game, x, 1 if x & pbit else 0, t, "repetition")
        seen.add(x)
        left -= 1


def _oware_moves(game, t, x, nz):
    """The legal moves where the table has none: from the guards when both
    sides hold seeds (and then kept), from the engine otherwise."""
    guards = t[9]
    p = 1 if x & t[6] else 0
    if nz & guards[1 - p] and nz & guards[p]:
        legal = t[12].get(nz)
        if legal is None:
            w = t[3]
            sh = t[4]
            k = t[2]
            own = []
            for c in range(p * k, p * k + k):
                if nz >> (sh[c] + w - 1) & 1:
                    own.append(c)
            legal = t[12][nz] = tuple(own)
        if t[13] != "illegal" or not _slam_possible(t, x, legal):
            return legal
    # Feeding, no move at all, or a move that may capture every seed the
    # opponent has while such moves are illegal: the engine decides.
    return tuple(_engine(game, x, p, t)._moves())


def _slam_possible(t, x, legal):
    """Whether a move of `legal` might capture every seed the opponent has
    (its last seed makes 2 or 3 on the opponent's side): a cheap test that
    sends the rare positions where it might to the engine."""
    n = t[1]
    sh = t[4]
    fm = t[5]
    for m in legal:
        i = ((x >> sh[m]) & fm) * n + m
        if i >= len(t[10]):
            return True
        c = t[11][i]
        if c >= 0:
            v = ((x + t[10][i]) >> sh[c]) & fm
            if v == 2 or v == 3:
                return True
    return False


def _oware_capture(t, x, c):
    """Capture from the last pit c backwards (2 or 3 seeds each, on the opponent's side).

    A capture that would take every seed the opponent has (a grand slam)
    takes nothing unless grand_slam is "sow-again": then it stands and the
    mover moves again."""
    k = t[2]
    sh = t[4]
    fm = t[5]
    opp = c // k
    lo = opp * k
    y = x
    taken = 0
    while c >= lo:
        v = (y >> sh[c]) & fm
        if v != 2 and v != 3:
            break
        taken += v
        y -= v << sh[c]
        c -= 1
    mover = 1 - opp
    y += taken << sh[t[1] + mover]
    if (y + t[7]) & t[9][opp]:
        return y
    if t[13] != "sow-again":
        return x
    # The player bit back to the mover.
    return y - t[6] if mover == 0 else y + t[6]


def _kalah(game, t, x, p, choice, rec, left):
    n = t[1]
    k = t[2]
    sh = t[4]
    fm = t[5]
    ones = t[7]
    guards = t[9]
    delta = t[10]
    last = t[11]
    legal_of = t[12]
    nxt = t[15]
    while True:
        key = (x + ones) & guards[p]
        legal = legal_of.get(key)
        if legal is None:
            if not key:
                return _end(game, x, p, t, None)
            w = t[3]
            own = []
            for c in range(p * k, p * k + k):
                if key >> (sh[c] + w - 1) & 1:
                    own.append(c)
            legal = legal_of[key] = tuple(own)
        if not left:
            return None
        m = choice(legal)
        if rec is not None:
            rec(m)
        i = ((x >> sh[m]) & fm) * n + m
        try:
            x += delta[i]
            c = last[i]
            p = nxt[i]
        except IndexError:
            d, c, p = _sowing(game, m, (x >> sh[m]) & fm, sh, 0, False)
            x += d
        if c >= 0 and (x >> sh[c]) & fm == 1:
            # The last seed in an empty pit of the mover's: it and the seeds opposite go to the store.
            o = n - 1 - c
            v = (x >> sh[o]) & fm
            x += ((v + 1) << sh[n + 1 - p]) - (1 << sh[c]) - (v << sh[o])
        left -= 1
