"""The engine every variant shares: board, sowing, relays, captures, turns, undo.

A variant is a subclass that sets class attributes (its board and rule parts)
and overrides a hook where its rules are its own.  The engine does no I/O.

Cells: pits 0..N-1 in canonical order, then one store per player (cell N+p).
Two rows of n pits: player 0 owns 0..n-1 (from that player's left to right),
player 1 owns n..2n-1 (from that player's left); counter-clockwise sowing goes
up the numbers, and pit i faces pit 2n-1-i.  Player p's store comes right
after that player's last pit in the counter-clockwise ring.

Two ways to make a move:
- play(move): checks the move, returns its Trace (the physical steps);
- push(move): the fast path for search - no check, no trace.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# (And playout(): random moves to the end of the game on a copy, for
# Monte-Carlo hints: by the same steps as push() without the undo records.  A
# comment, not docstring text: the test VM keeps module docstrings in its heap.)
from .errors import IllegalMoveError
from .trace import Trace, LIFT, RELAY, TAKE, EXTRA, PASS, END, DROP_CODE, TAKE_CODE

# How a move goes on when its last seed lands in an occupied pit.
RELAY_NONE = const(0)
RELAY_LAST = const(1)   # lift the last pit again (it holds more than the seed just dropped)

# Which pits a count capture may take.
SIDE_OPPONENT = const(0)
SIDE_OWN = const(1)
SIDE_ANY = const(2)

# A single move that keeps relaying this many times is stopped where it is
# (a decision for every relay game: see docs/rules.md, "Endless relays").
RELAY_LIMIT = const(1000)

# Per variant and options: what _setup_board gives each game (_shape()).
_SHAPES = {}

# mancala.playout.playout once a playout has been asked for (an import
# statement a call would cost more than a short playout's setup).
_playout = [None]

# Where CPython and MicroPython differ in what is fast (True on CPython: it has
# list.__getitem__, MicroPython does not).  CPython sows a handful fastest over
# a slice of the track, and copies the counts for undo fastest into a tuple;
# MicroPython would allocate the slice, and its tuple(list) is slow.
_CPYTHON = hasattr([], "__getitem__")

# Repetition needs a key per position.  CPython's hash of a tuple is a good
# 64-bit hash; MicroPython's adds the items' hashes (every position with the
# same counts in another order would collide), so there the key is the exact
# counts as bytes (every variant has fewer than 256 seeds) plus the player.
_TUPLE_HASH = hash((1, 2)) != hash((2, 1))
_PLAYER_BYTE = (b"\x00", b"\x01", b"\x02", b"\x03")


def _counts_before(b):
    """The counts an undo record keeps on MicroPython: bytes, 32 bytes of heap
    where a copy of a 14-cell list takes 112 (about 10 KB over a 127-move game
    of Oware on a board); a list only if a count is over 255."""
    try:
        return bytes(b)
    except ValueError:
        return b[:]


def _put_counts(b, saved):
    """Set the counts list `b` to `saved` (a _counts_before()) in place, allocating nothing:
    MicroPython assigns a list's slice from a list or tuple only, and a list made of the bytes
    would be garbage at once."""
    if type(saved) is bytes:
        for i in range(len(saved)):
            b[i] = saved[i]
    else:
        b[:] = saved


def _undo_counts(g):
    """The counts the undo record of a move from this position keeps on MicroPython: none when
    the position's repetition key begins with those counts (bytes: the engine's key, the player
    after them, and a staged variant's marks after that; the rule on), which the record keeps
    anyway (undo reads the counts there); else _counts_before()."""
    if type(g._key) is bytes and g.end_on_repetition:
        return None
    return _counts_before(g._b)


class Outcome:
    """How a finished game ended: winner (player index, None for a draw), scores, reason."""

    def __init__(self, winner, scores, reason):
        self.winner = winner
        self.scores = scores
        self.reason = reason

    def __eq__(self, other):
        return isinstance(other, Outcome) and (self.winner, self.scores, self.reason) == (other.winner, other.scores, other.reason)

    def __repr__(self):
        return "Outcome(winner=%r, scores=%r, reason=%r)" % (self.winner, self.scores, self.reason)


class Mancala:
    """Base of every variant.  Class attributes describe the rules; see docs/rules.md."""

    id = "mancala"
    title = "Mancala"
    rows = 2
    pits_per_row = 6
    seeds = 4                 # seeds in each pit at the start
    players = 2
    stores_sown = False       # a player's own store is a cell of the sowing track
    stores_at_left = False    # each store lies at its owner's left end (a board swaps its end stores)
    skip_origin = False       # the emptied pit is passed over when a lap comes round
    relay = RELAY_NONE
    direction = 1             # +1 counter-clockwise, -1 clockwise, 0 the player chooses
    min_seeds = 1             # a pit needs this many seeds to be lifted
    extra_turn_in_store = False   # a move ending in the mover's store gives another move
    end_on_repetition = True  # a position that comes round again ends the game
    pits_drain = False        # seeds that leave the pits never come back: their total never rises
    options = ()              # (name, default, allowed values) - allowed is a tuple or a range
    has_state = False         # the variant keeps state beyond counts and player to move (_save/_restore)
    pass_when_stuck = False   # a player with no legal move passes; the game ends when nobody can move
    min_seeds_in_play = 0     # the game ends when fewer seeds than this are left in the pits
    few_seeds_reason = "too few seeds left"
    no_moves_reason = "no moves"
    fours = False             # a seed that brings a pit to four mid-sowing: _four_made (Adi, Annana)
    phase = "play"
    # The move list is built only when asked for (legal_moves, is_legal): for
    # variants where listing the moves means playing a whole turn for each, so
    # _after asks _can_move() instead and is_legal() answers without the list.
    lazy_moves = False
    # The repetition keys of positions undo can no longer reach, when limit_undo() keeps them
    # apart from _seen as digests (mancala/recent.py): None until it first does.
    _old = None

    def __init__(self, pits=None, stores=None, to_move=0, **options):
        self._set_options(options)
        self._setup_board()
        n = self.n_pits
        b = [0] * (n + self.players)
        if pits is None:
            if stores is not None:
                from .reasons import stores_without_pits
                raise stores_without_pits()
            self._initial(b)
        else:
            self._load(b, pits, stores)
        if not (isinstance(to_move, int) and 0 <= to_move < self.players):
            from .reasons import bad_to_move
            raise bad_to_move(self, to_move)
        self._b = b
        self.to_move = to_move
        self._hist = []
        self._seen = {}
        self._over = None
        self._legal = None
        self._start(pits is None)
        if pits is not None:
            self._check_position()
        self._key = self._position_key()
        self._seen[self._key] = 1
        self._after(None)

    # ----- construction -------------------------------------------------

    def _set_options(self, options):
        known = self.options
        for name, default, allowed in known:
            value = options.pop(name, default)
            if allowed is not None and value not in allowed:
                from .reasons import bad_option
                raise bad_option(self, name, value, allowed)
            setattr(self, name, value)
        if options:
            from .reasons import unknown_options
            raise unknown_options(self, options)

    def _setup_board(self):
        """Derive the geometry; variants with other boards override (and call this first)."""
        # It depends on the variant and its options only, so it is worked out
        # once and shared by every game with them: a new game is cheap, and the
        # tracks are cached once for all of them.
        opts = self.options
        key = (self.__class__, tuple([getattr(self, o[0]) for o in opts])) if opts else self.__class__
        shape = _SHAPES.get(key)
        if shape is None:
            shape = _SHAPES[key] = self._shape()
        (self.n_pits, self._per_player, self._tracks, self._sides,
         self._plain_relay, self._plain_key, hot) = shape
        for name, value in hot:
            setattr(self, name, value)

    def _shape(self):
        """What _setup_board gives every game of this variant with these options."""
        n = self.rows * self.pits_per_row
        k = n // self.players
        cls = self.__class__
        hot = ()
        if _CPYTHON:
            # CPython 3.11 reads a class attribute through an instance on a
            # slow path (twice the time of an instance attribute): the rule
            # attributes read on every ply are copied into each game.  Not on
            # MicroPython, where they would take heap in every game.
            hot = []
            for name in ("direction", "relay", "fours", "extra_turn_in_store", "players", "min_seeds_in_play",
                         "end_on_repetition", "lazy_moves", "min_seeds", "has_state"):
                hot.append((name, getattr(self, name)))
        return (
            n, k,
            {},   # the track cache (a variant whose sowable cells change swaps it)
            # Each player's pits as a tuple: the legal-move scan runs on every ply.
            tuple(tuple(range(p * k, p * k + k)) for p in range(self.players)),
            # Relays follow the default rule inline unless the variant has its
            # own; the repetition key is made inline unless the variant adds to it.
            cls._relay_from is Mancala._relay_from and cls._relay_direction is Mancala._relay_direction,
            cls._position_key is Mancala._position_key,
            hot)

    def has_seeds(self, player):
        """Whether any pit of the player holds a seed."""
        k = self._per_player
        return any(self._b[player * k:player * k + k])

    def _initial(self, b):
        """Fill the board for a new game (variants with other setups override)."""
        for i in range(self.n_pits):
            b[i] = self.seeds

    def total_seeds(self):
        """Seeds in play in a new game of this variant with these options."""
        return self.n_pits * self.seeds

    def _load(self, b, pits, stores):
        from .reasons import load_counts   # (a given position only: code kept out of memory until then)
        load_counts(self, b, pits, stores)

    def _start(self, fresh):
        """Set up variant state beyond the counts (phases, owned pits...)."""

    def _check_position(self):
        """Refuse a given position the variant cannot have (PositionError)."""

    # ----- the position -------------------------------------------------

    @property
    def pits(self):
        return self._b[:self.n_pits]

    @property
    def stores(self):
        return self._b[self.n_pits:]

    def outside(self):
        """Seeds in play but in no cell: a setup supply, a hand, seeds put out of play.

        sum(cells()) + outside() never changes during a game."""
        return 0

    def cells(self):
        """Pits then stores, as one list (a copy)."""
        return self._b[:]

    def store(self, player):
        """The cell index of a player's store."""
        return self.n_pits + player

    def owner(self, pit):
        if pit >= self.n_pits:
            return pit - self.n_pits
        return pit // self._per_player

    def opposite(self, pit):
        """The pit facing `pit` across the middle of the board.

        Two rows: pit i faces 2n-1-i.  Four rows: only front (inner) pits face
        each other (front pit i faces 5n-1-i); a back pit faces nothing: -1.
        """
        if self.rows == 4:
            if not self.is_front(pit):
                return -1
            return 5 * self.pits_per_row - 1 - pit
        return self.n_pits - 1 - pit

    def is_front(self, pit):
        """Four rows: whether `pit` is in its owner's front (inner) row."""
        return pit % self._per_player >= self.pits_per_row

    def behind(self, pit):
        """Four rows: the owner's back pit in the same column as front pit `pit` (and the reverse)."""
        k = self._per_player
        base = pit - pit % k
        return base + k - 1 - pit % k

    def side(self, player):
        """The pits a player owns, in canonical order (a tuple)."""
        return self._sides[player]

    def next_player(self, player):
        return (player + 1) % self.players

    # ----- sowing -------------------------------------------------------

    def _ring(self, d, player):
        """Every cell `player` sows through, in order going direction d.

        Two rows: the whole board, counter-clockwise, each store after its
        owner's pits.  Four rows: the player's own two rows only (each player
        has a circuit of their own; see docs/rules.md for the numbering).
        """
        k = self._per_player
        ring = []
        if self.rows == 4:
            ring.extend(range(player * k, player * k + k))
        else:
            for p in range(self.players):
                ring.extend(range(p * k, p * k + k))
                ring.append(self.n_pits + p)
        if d < 0:
            ring.reverse()
        return ring

    def _sowable(self, player, cell, origin):
        """Whether a seed sown by `player` from `origin` drops into `cell`."""
        if cell >= self.n_pits:
            return self.stores_sown and cell == self.n_pits + player
        return not (self.skip_origin and cell == origin)

    def track(self, player, d, origin):
        """The cells one lap of sowing visits, in order, after lifting `origin`.

        Cached: the board's shape and the rules decide it, never the counts.
        Variants whose sowable cells change during a game clear self._tracks.
        """
        key = (player * 2 + (d > 0)) * 256 + origin
        t = self._tracks.get(key)
        if t is None:
            t = self._tracks[key] = self._make_track(player, d, origin)
        return t

    def _make_track(self, player, d, origin):
        # Tracks are kept as bytes (every board has fewer than 256 cells): a
        # game ends up caching one for most pits, and bytes take a third of a
        # list's room.  The ring they are cut from is cached with them (under
        # a negative key), so that a new track allocates only itself.
        rk = -1 - (player * 2 + (d > 0))
        ring = self._tracks.get(rk)
        if ring is None:
            ring = self._tracks[rk] = bytes(self._ring(d, player))
        r = len(ring)
        i = 0
        while ring[i] != origin:
            i += 1
        n = 0
        for k in range(1, r + 1):
            if self._sowable(player, ring[(i + k) % r], origin):
                n += 1
        t = bytearray(n)
        n = 0
        for k in range(1, r + 1):
            c = ring[(i + k) % r]
            if self._sowable(player, c, origin):
                t[n] = c
                n += 1
        t = bytes(t)
        if _CPYTHON:
            return t
        # On MicroPython a track that is a stretch of the cells its player sows into from
        # anywhere (Kombe's, Oware's, Kalah's: all but the origin where it is skipped) is a
        # view of that stretch, kept twice over under a key of its own: 16 bytes of heap
        # where bytes of its own take 48 (Kombe's 64 tracks: 1 KB in place of 3).
        lk = rk - 64
        lane = self._tracks.get(lk)
        if lane is None:
            lane = [c for c in ring if self._sowable(player, c, -1)]
            lane = self._tracks[lk] = bytes(lane + lane)
        j = lane.find(t)
        if j < 0:
            return t
        return memoryview(lane)[j:j + n]

    def _sow(self, origin, n, player, d, tr):
        """Sow n seeds from the hand, starting after origin; return the last cell."""
        if self.fours:
            return self._sow_each(origin, n, player, d, tr)
        t = self._tracks.get((player * 2 + (d > 0)) * 256 + origin)   # track(), looked up inline
        if t is None:
            t = self.track(player, d, origin)
        b = self._b
        lap = len(t)
        if tr is None:
            # The search path: whole laps at once.
            if n > lap:
                # Every cell of the lap gets q seeds; 1..lap seeds are left to sow.
                q = (n - 1) // lap
                n -= q * lap
                for c in t:
                    b[c] += q
            elif not n:
                return t[lap - 1]
            if _CPYTHON:
                for c in t[:n]:
                    b[c] += 1
            else:
                for i in range(n):
                    b[t[i]] += 1
            return t[n - 1]
        # The traced path: each seed a drop step, appended here (Trace.drop
        # inlined; (c << 4) + code is ((c + 2) << 4) | DROP_CODE, in a local).
        s = tr._s
        code = DROP_CODE + 32
        c = origin
        while n >= lap:
            for c in t:
                b[c] += 1
                s.append((c << 4) + code)
            n -= lap
        for i in range(n):
            c = t[i]
            b[c] += 1
            s.append((c << 4) + code)
        return c

    def _sow_each(self, origin, n, player, d, tr):
        """Sow seed by seed, for rules that act as a seed lands (fours made on the way)."""
        t = self.track(player, d, origin)
        b = self._b
        lap = len(t)
        i = 0
        c = origin
        s = tr._s if tr is not None else None   # drop steps appended inline (Trace.drop)
        code = DROP_CODE + 32                   # (c << 4) + code == ((c + 2) << 4) | DROP_CODE
        while n:
            c = t[i]
            i += 1
            if i == lap:
                i = 0
            b[c] += 1
            n -= 1
            if s is not None:
                s.append((c << 4) + code)
            if n and b[c] == 4 and c < self.n_pits:
                self._four_made(c, tr)
        return c

    def _four_made(self, pit, tr):
        """A seed that is not the last of its handful brought `pit` to four: its owner takes them."""
        self._take(pit, self.n_pits + self.owner(pit), tr)

    def _relay_from(self, last, player, d):
        """The pit to lift again after a lap ends in `last`, or -1 to stop."""
        if last < self.n_pits and self._b[last] > 1:
            return last
        return -1

    def _relay_direction(self, d):
        """The direction a relay sows in (Giuthi reverses it each lap)."""
        return d

    def _sow_move(self, pit, n, player, d, tr):
        """The whole sowing of a move: the first lap and every relay; returns the last cell."""
        last = self._sow(pit, n, player, d, tr)
        if self.relay == RELAY_NONE:
            return last
        return self._relays(last, player, d, tr)

    def _relays(self, last, player, d, tr):
        """Go on sowing from where each lap ends while the relay rule says so; return the last cell."""
        b = self._b
        if self._plain_relay:
            # The default rule, inline (no calls a lap): lift the last pit
            # while it holds more than the seed just dropped.
            n = self.n_pits
            for _ in range(RELAY_LIMIT):
                if last >= n or b[last] <= 1:
                    return last
                k = b[last]
                b[last] = 0
                if tr is not None:
                    tr.add(RELAY, last, k)
                last = self._sow(last, k, player, d, tr)
            return last
        for _ in range(RELAY_LIMIT):
            d = self._relay_direction(d)
            origin = self._relay_from(last, player, d)
            if origin < 0:
                return last
            k = b[origin]
            b[origin] = 0
            if tr is not None:
                tr.add(RELAY, origin, k)
            last = self._sow(origin, k, player, d, tr)
        return last

    # ----- capturing ----------------------------------------------------

    def _take(self, cell, to, tr):
        """Move every seed of `cell` to cell `to`; return how many.

        `to` may be HAND or OFF (negative): the seeds leave the cells, and the
        variant keeps count of them (in its hand, or in outside())."""
        b = self._b
        k = b[cell]
        if k:
            b[cell] = 0
            if to >= 0:
                b[to] += k
            if tr is not None:
                tr.add(TAKE, cell, k, to)
        return k

    def _capture_counts(self, last, player, d, counts, side, chain, tr):
        """Take the last pit when its count is one of `counts`, then walk back while it holds.

        side: which pits qualify (SIDE_OPPONENT, SIDE_OWN, SIDE_ANY).  chain: keep
        taking the pits before it (against the sowing) while they qualify too.
        """
        b = self._b
        store = self.n_pits + player
        got = 0
        c = last
        while c < self.n_pits and b[c] in counts and self._side_ok(c, player, side):
            got += self._take(c, store, tr)
            if not chain:
                break
            c = (c - d) % self.n_pits
            if c == last:
                break
        return got

    def _side_ok(self, pit, player, side):
        if side == SIDE_ANY:
            return True
        own = self.owner(pit) == player
        return own if side == SIDE_OWN else not own

    def _capture(self, last, player, d, tr):
        """Captures after the sowing ends in `last` (none by default).

        Returns True when the rules give the mover another move because of it.
        """
        return False

    # ----- a move from start to end -------------------------------------

    def _unpack(self, move):
        """(pit, direction) of a move."""
        if isinstance(move, tuple):
            return move[0], move[1]
        return move, (self.direction or 1)

    def _move(self, move, tr):
        """Carry out a legal move: lift, sow (with relays), capture, pass the turn."""
        p = self.to_move
        if isinstance(move, int):
            pit = move
            d = self.direction or 1
        else:
            pit = move[0]
            d = move[1]
        b = self._b
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        last = self._sow(pit, n, p, d, tr)
        if self.relay:
            last = self._relays(last, p, d, tr)
        if self._capture(last, p, d, tr) or (self.extra_turn_in_store and last == self.n_pits + p):
            if tr is not None:
                tr.add(EXTRA)
        elif self.players == 2:
            self.to_move = 1 - p
        else:
            self.to_move = self.next_player(p)

    def _moves(self):
        """The legal moves of the player to move, as a new list."""
        b = self._b
        k = self.min_seeds
        pits = []
        # A plain loop: faster than filter() or a comprehension on CPython
        # 3.11, and no function object on MicroPython.
        if k == 1:
            for i in self._sides[self.to_move]:
                if b[i]:
                    pits.append(i)
        else:
            for i in self._sides[self.to_move]:
                if b[i] >= k:
                    pits.append(i)
        if self.direction:
            return pits
        out = []
        for i in pits:
            out.append((i, 1))
            out.append((i, -1))
        return out

    def legal_moves(self):
        """The legal moves, as a new list for each position (the engine keeps no other reference it relies on)."""
        if self._over is None:
            moves = self._legal
            if moves is None:
                moves = self._legal = self._moves()
            return moves
        return []

    def is_legal(self, move):
        return move in self.legal_moves()

    def play(self, move):
        """Make a move; return its Trace.  Raises IllegalMoveError, saying why, if it is not legal."""
        if not self.is_legal(move):
            raise IllegalMoveError(self._why_illegal(move))
        tr = Trace()
        self._hist.append((move, tuple(self._b) if _CPYTHON else _undo_counts(self), self.to_move, self._key,
                           self._undo_state() if self.has_state else None))
        self._legal = None
        self._move(move, tr)
        self._after(tr)
        return tr

    def push(self, move):
        """Make a move known to be legal (from legal_moves()), without checking it or tracing it."""
        # The undo record (as in play): the move, the counts before it, the
        # player to move, the repetition key, the variant's own state.
        self._hist.append((move, tuple(self._b) if _CPYTHON else _undo_counts(self), self.to_move, self._key,
                           self._undo_state() if self.has_state else None))
        self._legal = None
        self._move(move, None)
        self._after(None)

    def _after(self, tr):
        """After a move (or at set-up): note the position, then see whether the game is over."""
        if self._over is not None:
            return
        if self.min_seeds_in_play and sum(self._b[:self.n_pits]) < self.min_seeds_in_play:
            # No position counted for the repetition rule: undo() then takes none back (it
            # would take back the one before the move, still counted).
            self._key = None
            self._finish(tr, self.few_seeds_reason)
            return
        if self.end_on_repetition and self._hist:
            if self._plain_key:
                # _position_key(), inline: it runs on every ply.
                if _TUPLE_HASH:
                    key = hash(tuple(self._b)) + self.to_move
                else:
                    key = bytes(self._b) + _PLAYER_BYTE[self.to_move]
            else:
                key = self._position_key()
            self._key = key
            seen = self._seen
            k = seen.get(key, 0)
            if not k and self._old is not None and self._hist.had(key):
                k = 1
            seen[key] = k + 1
            if k:
                self._finish(tr, "repetition")
                return
        if self.lazy_moves:
            self._legal = None
            if not self._can_move():
                self._no_moves(tr)
            return
        moves = self._moves()
        self._legal = moves
        if not moves:
            self._no_moves(tr)

    def _can_move(self):
        """Whether the player to move has a legal move (lazy_moves variants answer without the list)."""
        return len(self._moves()) > 0

    def _no_moves(self, tr):
        """The player to move has no legal move: the game ends, or with
        pass_when_stuck the next player who can move does (one pass step for
        each player passed over)."""
        if self.pass_when_stuck:
            p = self.to_move
            for i in range(1, self.players):
                self.to_move = (p + i) % self.players
                moves = self._moves()
                if moves:
                    self._legal = moves
                    if tr is not None:
                        for _ in range(i):
                            tr.add(PASS)
                    return
            self.to_move = p
        self._finish(tr, self.no_moves_reason)

    def _finish(self, tr, reason):
        """End the game: leftover seeds go to the owners of their pits; scores are the stores."""
        self._collect_leftovers(tr)
        self._legal = []
        self._over = self._judge(reason)
        if tr is not None:
            tr.add(END)

    def _collect_leftovers(self, tr):
        # _take(), owner() and Trace.add() inlined: a four-row board's game ends with some
        # 20 pits taken at once, in the one step of a board that follows the last move.
        b = self._b
        n = self.n_pits
        per = self._per_player
        owner = self.owner if type(self).owner is not Mancala.owner else None
        s = tr._s if tr is not None else None
        for i in range(n):
            k = b[i]
            if k:
                to = n + (i // per if owner is None else owner(i))
                b[i] = 0
                b[to] += k
                if s is not None:
                    s.append((k << 20) + (to << 12) + (i << 4) + TAKE_CODE)   # (Trace.add(TAKE, i, k, to))

    def _judge(self, reason):
        scores = self.stores
        best = max(scores)
        winners = [p for p in range(self.players) if scores[p] == best]
        return Outcome(winners[0] if len(winners) == 1 else None, scores, reason)

    def _position_key(self):
        """What makes two positions the same for the repetition rule.

        Variants with state of their own (owned pits, a phase) add it here."""
        if _TUPLE_HASH:
            # One addition on a 64-bit hash (each one makes a new int): another
            # position's hash being this one's plus one is as unlikely as any
            # other collision of two 64-bit hashes.
            return hash(tuple(self._b)) + self.to_move
        return bytes(self._b) + _PLAYER_BYTE[self.to_move]

    def _seen_before(self, key):
        """Whether the repetition rule has counted the position of this key in the game."""
        return key in self._seen or (self._old is not None and self._hist.had(key))

    def _state_fields(self):
        """The variant's own state as 'key=value' strings for the position text."""
        return []

    def _load_state_fields(self, fields):
        """Set the variant's own state from the position text's key=value fields (strings)."""
        from .reasons import no_state_fields
        raise no_state_fields(self, fields)

    def _save(self):
        """Variant state beyond counts and player to move, to be restored by undo."""
        return None

    def _restore(self, saved):
        pass

    def _undo_state(self):
        """_save() for a move's undo record; on MicroPython the last record's own when equal, so
        that the records of a stretch where that state stays the same (Kombe's whole play
        phase: 64 bytes a record) share one."""
        s = self._save()
        if not _CPYTHON:
            h = self._hist
            if h:
                last = h[-1][4]
                if last == s:
                    return last
        return s

    def undo(self):
        """Take the last move back; return it."""
        if not self._hist:
            raise IllegalMoveError("there is no move to take back")
        move, b, to_move, key, saved = self._hist.pop()
        if b is None:
            b = list(key)   # (the counts, then the player and what a variant adds: _undo_counts)
            del b[len(self._b):]
        k = self._seen.get(self._key, 0) - 1
        if k > 0:
            self._seen[self._key] = k
        else:
            self._seen.pop(self._key, None)
        _put_counts(self._b, b)
        self.to_move = to_move
        self._over = None
        self._legal = None
        self._key = key
        if self.has_state:
            self._restore(saved)
        return move

    pop = undo

    def limit_undo(self, most):
        """Keep the undo records of the last moves only: at least `most` (a board's heap stops
        growing with the game).  undo() further back raises UndoLimitError; moves_played(),
        ply and the repetition rule stay exact.  Called again (a board does, after each move)
        it lets go at once of the one record kept spare since.  See docs/rules.md, "Undo on a
        board"."""
        from .recent import limit   # (loaded by the games that keep few records only: a board's)
        limit(self, most)

    def moves_played(self):
        """The moves made since the position was set up, oldest first."""
        return [h[0] for h in self._hist]

    @property
    def ply(self):
        return len(self._hist)

    def is_over(self):
        return self._over is not None

    def outcome(self):
        return self._over

    def copy(self):
        """An independent copy, move stack included."""
        # object.__new__ and setattr: MicroPython has neither cls.__new__ nor __dict__.update.
        # (On CPython 3.11 reading __dict__ makes attribute reads on this game
        # slower from then on; the copy, filled by setattr, is not affected.)
        c = object.__new__(self.__class__)
        for name, value in self.__dict__.items():
            setattr(c, name, value)
        c._b = self._b[:]
        h = self._hist
        c._hist = list(h) if type(h) is list else h.copy(c)
        c._seen = dict(self._seen)
        if self._old is not None:
            c._old = dict(self._old)
        c._copy_extra(self)
        return c

    def playout(self, rng=None, max_plies=None, moves=None):
        """Play uniformly random legal moves on a copy of this game to its end; return the Outcome.

        The same moves and result as `g.push(rng.choice(g.legal_moves()))`
        repeated on a copy; this game is not changed.  rng: anything with
        choice(seq) (default: the random module).  max_plies: stop after that
        many moves (the result is then None unless the game ended).  moves: a
        list each move played is appended to.  See mancala.playout.
        """
        f = _playout[0]
        if f is None:
            from .playout import playout as f   # (code kept out of memory until asked for)
            _playout[0] = f
        return f(self, rng, max_plies, moves)

    def _copy_extra(self, other):
        """Copy mutable variant state (lists, dicts) after copy()."""

    # ----- why a move is illegal, and notation ------------------------------

    def _why_illegal(self, move):
        from .reasons import why_illegal   # (code kept out of memory until a move is refused)
        return why_illegal(self, move)

    def _why_rule(self, move):
        """Why a well-formed move is still illegal (variants with extra rules say more)."""
        return "%s is not legal here" % self.move_name(move)

    def pit_name(self, pit):
        """A pit's name in the notation (what move_name() names a move from it by, and screens
        label it with): player 0's pits A, B, ... and player 1's a, b, ... each from the owner's
        left; a store's cell is store0, store1 ..."""
        if pit >= self.n_pits:
            return "store%d" % (pit - self.n_pits)
        p = self.owner(pit)
        k = pit - p * self._per_player
        if self.players == 2:
            return chr((65 if p == 0 else 97) + k)
        return "%s%d" % (chr(65 + p), k + 1)

    def _parse_pit(self, text):
        from .reasons import parse_pit
        return parse_pit(self, text)

    def move_name(self, move):
        pit, d = self._unpack(move)
        if isinstance(move, tuple):
            return self.pit_name(pit) + ("+" if d > 0 else "-")
        return self.pit_name(pit)

    def parse_move(self, text):
        from .reasons import parse_move
        return parse_move(self, text)

    def __repr__(self):
        return "<%s %s stores=%s to_move=%d>" % (self.title, self.pits, self.stores, self.to_move)

