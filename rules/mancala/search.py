"""Best-move search for hints and the computer player: alpha-beta on push/pop.

Runs on the board (MicroPython) and the laptop.  The search is bounded by a
depth, a node count and a deadline, and always has an answer: iterative
deepening keeps the best move of the last depth it finished.

Values are from the point of view of the player to move at the root: that
player maximises, every other player minimises (with more than two players
this is the "paranoid" assumption).  Extra turns need no special case: whose
turn it is decides, not the depth's parity.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import monotonic as _monotonic

    def ticks_ms():
        return int(_monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

_WIN = const(100000)


class _Stop(Exception):
    pass


class SearchResult:
    """best: the move; value: its score for the mover; depth: the last depth searched fully; nodes."""

    def __init__(self, best, value, depth, nodes):
        self.best = best
        self.value = value
        self.depth = depth
        self.nodes = nodes

    def __repr__(self):
        return "SearchResult(best=%r, value=%r, depth=%d, nodes=%d)" % (self.best, self.value, self.depth, self.nodes)


def evaluate(game, player):
    """Seeds the player has stored, less the most any other player has stored."""
    s = game.stores
    mine = s[player]
    best_other = -_WIN
    for p in range(len(s)):
        if p != player and s[p] > best_other:
            best_other = s[p]
    if game.is_over():
        w = game.outcome().winner
        if w is None:
            return 0
        return _WIN if w == player else -_WIN
    return mine - best_other


class _Searcher:
    def __init__(self, game, player, max_nodes, deadline):
        self.game = game
        self.player = player
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0

    def value(self, depth, alpha, beta):
        g = self.game
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise _Stop()
        # The clock is read every 16 nodes: a Pico searches some 500 nodes a second, so a coarser
        # check (256) let a 1 s hint run 0.4 s over its budget, in one of the board's scans.
        if (self.nodes & 15) == 0 and self.deadline is not None and ticks_diff(self.deadline, ticks_ms()) <= 0:
            raise _Stop()
        if depth == 0 or g.is_over():
            return evaluate(g, self.player)
        maximise = g.to_move == self.player
        for m in g.legal_moves():
            g.push(m)
            try:
                v = self.value(depth - 1, alpha, beta)
            finally:
                g.pop()
            if maximise:
                if v > alpha:
                    alpha = v
            elif v < beta:
                beta = v
            if alpha >= beta:
                break
        return alpha if maximise else beta


def best_move(game, depth=8, max_nodes=200000, time_ms=None):
    """The best move found for the player to move, as a SearchResult.

    depth: the deepest full search; max_nodes and time_ms bound the work (the
    deepest finished depth's choice is returned).  The game is left as it was.
    """
    moves = game.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to search for")
    moves = list(moves)
    deadline = None if time_ms is None else ticks_ms() + time_ms
    s = _Searcher(game.copy(), game.to_move, max_nodes, deadline)
    result = SearchResult(moves[0], 0, 0, 0)
    if len(moves) == 1:
        result.nodes = 1
        return result
    g = s.game
    for d in range(1, depth + 1):
        try:
            best, best_v = None, -_WIN - 1
            for m in moves:
                g.push(m)
                try:
                    v = s.value(d - 1, best_v, _WIN + 1)
                finally:
                    g.pop()
                if v > best_v:
                    best, best_v = m, v
        except _Stop:
            break
        result = SearchResult(best, best_v, d, s.nodes)
        # Search the best move first at the next depth: better cut-offs.
        moves.remove(best)
        moves.insert(0, best)
        if best_v >= _WIN or best_v <= -_WIN:
            break
    result.nodes = s.nodes
    return result
