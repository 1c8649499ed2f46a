"""A game looked at by the engine: every legal move's value, mistakes, the share of best moves.

    for ply in analysis.analyse(game_dict, depth=6):     # one PlyAnalysis per move, lazily
        print(ply.notation, ply.value, ply.best_value, ply.loss, ply.verdict)
    summary = analysis.summarise(game_dict, plies)       # graph, mistakes, share of best moves

No I/O: the web view (sowlight serve) and `sowlight analyse` both use it.

Values are in seeds, from the point of view of the player who moves, as the
search of hints and of the computer player counts them (mancala.search): the
seeds stored, less the most any other player has stored, after best play to
the depth searched.  A forced win is worth WIN_SEEDS (the seeds of the game:
no lead can be bigger), a forced loss -WIN_SEEDS, so that a lost win reads as
the biggest loss there is and the graph keeps its scale.

A move is a **mistake** when its value is MISTAKE seeds or more below the best
move's, a **blunder** when BLUNDER or more, or when it gives up a forced win
or walks into a forced loss the best move avoids.  The **share of best moves**
counts a player's moves whose value equals the best value, among the moves
where the player had a choice (a move forced because it was the only legal one
is neither counted for nor against).
"""
# The search's own alpha-beta and its time keeping: the board's best_move() keeps only the best
# root move, and the analysis needs the exact value of every root move (a full window for each).
from mancala.search import _WIN, _Searcher, _Stop, evaluate, ticks_ms

from sowlight.games import record as gamerecord

MISTAKE = 2        # seeds below the best move's value that make a move a mistake
BLUNDER = 5        # ... a blunder
DEPTH = 6          # how many moves ahead, by default
MAX_NODES = 2000000


class AnalysisError(ValueError):
    """A game that cannot be analysed (its moves do not replay); the message says where."""


class PositionValues:
    """The value of every legal move of one position, best first.

    values: [(move, value)] from the mover's view, in seeds; depth: the depth
    every value was searched to; nodes: positions visited."""

    def __init__(self, values, depth, nodes):
        self.values = values
        self.depth = depth
        self.nodes = nodes

    @property
    def best_value(self):
        return self.values[0][1]

    def value_of(self, move):
        for m, v in self.values:
            if m == move:
                return v
        raise KeyError(move)


def _seeds(game):
    return sum(game.cells())


def _scaled(value, win):
    """A search value in seeds, a forced win or loss as +-win."""
    if value >= _WIN:
        return win
    if value <= -_WIN:
        return -win
    return value


def move_values(game, depth=DEPTH, time_ms=None, max_nodes=MAX_NODES):
    """Every legal move's value in `game` (its player to move's view), as PositionValues.

    Iterative deepening, as the hint's search does: the values returned are
    those of the deepest depth finished for every move within the bounds (at
    least depth 1).  The game is left as it was."""
    moves = list(game.legal_moves())
    if not moves:
        raise AnalysisError("the game is over: there is no move to value")
    win = _seeds(game)
    deadline = None if time_ms is None else ticks_ms() + time_ms
    s = _Searcher(game.copy(), game.to_move, max_nodes, None)
    g = s.game
    found = None
    for d in range(1, depth + 1):
        values = []
        try:
            for m in moves:
                g.push(m)
                try:
                    v = s.value(d - 1, -_WIN - 1, _WIN + 1)
                finally:
                    g.pop()
                values.append((m, v))
        except _Stop:
            break
        found = (values, d)
        # The first depth always finishes: the bounds apply from the second on.
        s.deadline = deadline
        if all(abs(v) >= _WIN for _, v in values):
            break               # every move's fate is settled: deeper changes nothing
    if found is None:
        # Stopped in depth 1 by the node bound: the positions the moves lead to, as they stand.
        found = ([], 0)
        for m in moves:
            g.push(m)
            found[0].append((m, evaluate(g, game.to_move)))
            g.pop()
    values, d = found
    order = sorted(range(len(values)), key=lambda i: -values[i][1])   # stable: equal values keep the move order
    return PositionValues([(values[i][0], _scaled(values[i][1], win)) for i in order], d, s.nodes)


class PlyAnalysis:
    """One move of a game, valued: what was played against what the engine prefers."""

    def __init__(self, ply, player, move, notation, position_values, names, before):
        self.ply = ply
        self.player = player
        self.move = move
        self.notation = notation
        self.depth = position_values.depth
        self.nodes = position_values.nodes
        self.choices = [(names[i], v) for i, (_, v) in enumerate(position_values.values)]
        self.best = self.choices[0][0]
        self.best_value = position_values.best_value
        self.value = position_values.value_of(move)
        self.loss = self.best_value - self.value
        self.forced = len(self.choices) == 1
        self.win = _seeds(before)
        self.verdict = _verdict(self.value, self.best_value, self.loss, self.win)

    def as_json(self):
        return {"ply": self.ply, "player": self.player, "notation": self.notation, "value": self.value,
                "best": self.best, "best_value": self.best_value, "loss": self.loss, "verdict": self.verdict,
                "forced": self.forced, "depth": self.depth,
                "moves": [{"notation": n, "value": v} for n, v in self.choices]}


def _verdict(value, best, loss, win):
    """'best', 'good', 'mistake' or 'blunder' (thresholds in the module's docstring)."""
    if loss <= 0:
        return "best"
    if (best >= win > value) or (value <= -win < best) or loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return "good"


def analyse(d, depth=DEPTH, time_ms=None, max_nodes=MAX_NODES):
    """One PlyAnalysis per move of the game dict `d` (gamerecord's shape), made as it is asked
    for; a position set by hand is skipped (the game goes on from it).  AnalysisError names a
    move the rules refuse."""
    try:
        game = gamerecord.position_game(d["start"])
    except ValueError as e:
        raise AnalysisError("the game's start position cannot be read: %s" % e) from None
    for e in d["moves"]:
        if e["kind"] == "setup":
            game = gamerecord.position_game(e["position"])
            continue
        move = gamerecord.move_from_json(e["move"])
        if move not in game.legal_moves():
            raise AnalysisError("ply %d (%s) is not a legal move with these rules" % (e["ply"], e.get("notation")))
        pv = move_values(game, depth=depth, time_ms=time_ms, max_nodes=max_nodes)
        names = [game.move_name(m) for m, _ in pv.values]
        yield PlyAnalysis(e["ply"], e["player"], move, game.move_name(move), pv, names, game)
        game.play(move)


def summarise(d, plies):
    """What the analysed moves say of the game: the evaluation graph, the mistakes, and the
    share of best moves per player, as a dict (the JSON `sowlight analyse --json` prints).

    The graph has a point per move: the best value of the position it was played in, from
    player 0's view with two players (the mover's view negated when player 1 moves), else
    from the mover's view (`view` says which)."""
    players = len(d["players"])
    graph = []
    mistakes = []
    best = [0] * players
    counted = [0] * players
    for p in plies:
        v = p.best_value
        if players == 2 and p.player == 1:
            v = -v
        graph.append({"ply": p.ply, "value": v, "player": p.player})
        if p.verdict in ("mistake", "blunder"):
            mistakes.append({"ply": p.ply, "player": p.player, "notation": p.notation, "value": p.value,
                             "best": p.best, "best_value": p.best_value, "loss": p.loss, "verdict": p.verdict})
        if not p.forced:
            counted[p.player] += 1
            if p.loss <= 0:
                best[p.player] += 1
    share = []
    for q in range(players):
        share.append({"player": q, "name": d["players"][q], "best": best[q], "moves": counted[q],
                      "share": (best[q] / counted[q]) if counted[q] else None})
    return {"view": "player 0" if players == 2 else "mover", "graph": graph, "mistakes": mistakes,
            "share": share, "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER}}


def report(d, depth=DEPTH, time_ms=None, max_nodes=MAX_NODES, progress=None):
    """The whole analysis of a game as one JSON-ready dict: its moves and their summary.
    `progress(done, total)` is told after each move."""
    total = sum(1 for e in d["moves"] if e["kind"] == "move")
    plies = []
    for p in analyse(d, depth=depth, time_ms=time_ms, max_nodes=max_nodes):
        plies.append(p)
        if progress:
            progress(len(plies), total)
    out = {"game": d.get("number"), "id": d.get("id"), "variant": d["variant"], "players": d["players"],
           "result": d.get("result"), "depth": depth, "moves": [p.as_json() for p in plies]}
    out.update(summarise(d, plies))
    return out


def position_report(game, depth=DEPTH, time_ms=None, max_nodes=MAX_NODES):
    """The value of every legal move of one position (the web view's analysis of a board)."""
    pv = move_values(game, depth=depth, time_ms=time_ms, max_nodes=max_nodes)
    return {"to_move": game.to_move, "depth": pv.depth, "nodes": pv.nodes,
            "moves": [{"notation": game.move_name(m), "value": v} for m, v in pv.values]}


__all__ = ["analyse", "summarise", "report", "move_values", "position_report", "AnalysisError", "MISTAKE", "BLUNDER"]
