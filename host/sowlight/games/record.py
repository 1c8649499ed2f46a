"""Games as data, and the two export formats: JSON and the readable game record.

A game is a plain dict (the JSON export's own shape, so the archive, both
formats and `--json` outputs share one description):

    {"id": uuid, "variant": "oware", "options": {"grand_slam": "no-capture"},
     "players": ["Ann", "computer (depth 6)"], "started": "2026-11-21T14:03:22Z",
     "ended": ..., "board": None, "board_game": None,
     "result": "1-0", "winner": 0, "scores": [26, 22], "reason": "no moves",
     "start": "<position text>", "tags": [["Event", "Club night"]],
     "moves": [{"ply": 1, "kind": "move", "player": 0, "notation": "C", "move": 2,
                "trace": [["lift", 2, 4, -1], ...], "position": "<position text after>"},
               {"ply": 9, "kind": "setup", "position": "<position set by hand>"}]}

The readable record follows PGN's conventions where they fit (tag pairs, a
blank line, numbered moves, the result at the end); docs/archive.md describes
it in full.  Every game read in either format is replayed with the rules core:
a move the rules refuse is an error naming its line (or its place in the JSON),
and nothing is imported.
"""
import datetime
import json
import re
import uuid as _uuid

import mancala

from sowlight_fw.journal import move_json as move_to_json   # a move as JSON holds it: the board's rule

from sowlight.terminal import harmless

FORMAT = "sowlight-games"
FORMAT_VERSION = 1

# Record ids of games read without an Id tag are derived from their content,
# so importing the same file twice finds the games already there.
_ID_NAMESPACE = _uuid.UUID("5d0c7f52-3a5e-4c41-9b0e-6f1d2a7c9e10")


class RecordError(ValueError):
    """A game record or JSON export that cannot be read: says where and why."""

    def __init__(self, message, line=None, source=None):
        ValueError.__init__(self, message)
        self.message = message
        self.line = line
        self.source = source

    def __str__(self):
        where = self.source or ""
        if self.line is not None:
            where = ("%s line %d" % (where, self.line)).strip()
        return ("%s: %s" % (where, self.message)) if where else self.message


# -- moves and traces as JSON --------------------------------------------------

def move_from_json(value):
    """The rules-core move of a JSON value (lists become tuples)."""
    if isinstance(value, list):
        return tuple(move_from_json(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("a move is a number, a string or a list of them, not %r" % (value,))
    return value


def trace_to_json(trace):
    """A Trace (or list of steps) as [[kind, pit, count, to], ...]."""
    return [[s[0], s[1], s[2], s[3]] for s in trace]


# -- results ----------------------------------------------------------------------

def result_text(players, winner, scores, decided=True):
    """The Result tag: '1-0', '0-1', '1/2-1/2', '*'; one field per player with more.

    The winner scores 1 and the others 0; in a draw the players tied for the
    best score share the point (1/k each).  One player: '1' a success, '0' not.
    """
    if not decided:
        return "*"
    if players == 1:
        return "1" if winner == 0 else "0"
    points = ["0"] * players
    if winner is not None:
        points[winner] = "1"
        return "-".join(points)
    top = list(range(players))
    if scores and len(scores) == players:
        best = max(scores)
        top = [p for p in range(players) if scores[p] == best]
        if len(top) < 2:
            top = list(range(players))
    for p in top:
        points[p] = "1/%d" % len(top)
    return "-".join(points)


def parse_result(text, players):
    """(winner, decided) of a Result tag; ValueError saying the forms allowed."""
    if text == "*":
        return None, False
    parts = text.split("-")
    example = result_text(players, 0, None) + ", " + result_text(players, None, None) + " or *"
    if len(parts) != players:
        raise ValueError("result %r has %d fields, but this game has %d player%s: write e.g. %s" % (
            text, len(parts), players, "" if players == 1 else "s", example))
    if players == 1:
        if text in ("1", "0"):
            return (0 if text == "1" else None), True
        raise ValueError("a one-player result is 1 (done), 0 (not done) or *, not %r" % text)
    ones = [p for p, v in enumerate(parts) if v == "1"]
    shares = [p for p, v in enumerate(parts) if v.startswith("1/")]
    zeros = [p for p, v in enumerate(parts) if v == "0"]
    if len(ones) == 1 and len(zeros) == players - 1:
        return ones[0], True
    if len(shares) >= 2 and len(shares) + len(zeros) == players and all(parts[p] == "1/%d" % len(shares) for p in shares):
        return None, True
    raise ValueError("result %r is not a result: write e.g. %s" % (text, example))


# -- building a game by replaying it ------------------------------------------------

def options_of(position_text):
    """The options dict written in a position text's options field."""
    field = position_text.split()[1]
    out = {}
    if field != "-":
        for item in field.split(","):
            name, _, value = item.partition("=")
            out[name] = int(value) if value.isdigit() else value
    return out


def standard_start(variant, options):
    """The position text of a new game of the variant with these options."""
    return mancala.to_text(mancala.Game(variant, **options))


def position_game(text):
    """A rules-core game set up from a position text (PositionError if it is not one)."""
    return mancala.from_text(text)


class Replay:
    """Replays a game event by event with the rules core, building its dict's `moves`.

    Each event is checked by the rules: `move()` raises IllegalMoveError
    (NotationError for text that is not a move), `setup()` PositionError.
    """

    def __init__(self, start):
        self.game = position_game(start)
        self.start = mancala.to_text(self.game)
        self.events = []

    def move(self, notation=None, move=None):
        g = self.game
        if notation is not None:
            parsed = g.parse_move(notation)
            if move is not None and parsed != move:
                raise mancala.IllegalMoveError("the notation %s is the move %r, but the move given is %r" % (
                    notation, move_to_json(parsed), move_to_json(move)))
            move = parsed
        elif move is None:
            raise mancala.IllegalMoveError("a move needs its notation or its move")
        player = g.to_move
        trace = g.play(move)
        event = {"ply": len(self.events) + 1, "kind": "move", "player": player, "notation": g.move_name(move),
                 "move": move_to_json(move), "trace": trace_to_json(trace), "position": mancala.to_text(g)}
        self.events.append(event)
        return event

    def setup(self, position):
        game = position_game(position)
        if game.id != self.game.id:
            raise mancala.PositionError("a position set during the game must be of %s, not %s" % (self.game.id, game.id))
        self.game = game
        event = {"ply": len(self.events) + 1, "kind": "setup", "position": mancala.to_text(game)}
        self.events.append(event)
        return event

    def undo(self):
        """Take back the last move (a position set by hand cannot be taken back)."""
        if not self.events or self.events[-1]["kind"] != "move":
            raise mancala.IllegalMoveError("there is no move to take back")
        self.game.undo()
        return self.events.pop()

    def outcome(self):
        """(result, winner, scores, reason) when the rules say the game is over, else None."""
        o = self.game.outcome()
        if o is None:
            return None
        scores = list(o.scores)
        return result_text(self.game.players, o.winner, scores), o.winner, scores, o.reason


def new_game(variant=None, start=None, options=None, players=None, started=None, ended=None,
             board=None, board_game=None, tags=(), game_id=None):
    """A game dict with no moves yet; start defaults to the variant's set-up."""
    if start is None:
        start = standard_start(variant, options or {})
    g = position_game(start)
    start = mancala.to_text(g)
    if players is None:
        players = ["?"] * g.players
    players = [str(p) for p in players]
    _check_players(players, g.players)
    return {
        "id": game_id or str(_uuid.uuid4()), "variant": g.id, "options": options_of(start), "players": players,
        "started": started, "ended": ended, "board": board, "board_game": board_game,
        "result": "*", "winner": None, "scores": None, "reason": None,
        "start": start, "tags": [list(t) for t in tags], "moves": [],
    }


def _check_players(players, count):
    if len(players) != count:
        raise ValueError("this game has %d player%s, but %d name%s given" % (
            count, "" if count == 1 else "s", len(players), " was" if len(players) == 1 else "s were"))
    for name in players:
        if ";" in name or "\n" in name or not name.strip() or name != name.strip():
            raise ValueError("player name %r: a name must be non-empty, hold no ';' or line break, "
                             "and neither start nor end with a space" % name)


def from_game(game, players=None, started=None, ended=None, game_id=None, tags=()):
    """The dict of a rules-core game object, its moves replayed from its start."""
    start = game.copy()
    moves = game.moves_played()
    for _ in moves:
        start.undo()
    d = new_game(start=mancala.to_text(start), players=players, started=started, ended=ended,
                 game_id=game_id, tags=tags)
    r = Replay(d["start"])
    for m in moves:
        r.move(move=m)
    d["moves"] = r.events
    settle(d, r)
    return d


def settle(d, replay, result=None, winner=None, scores=None, reason=None, where=None):
    """Set the result fields: the rules' outcome when the game is over, else the given ones.

    A given result that contradicts the rules' outcome raises ValueError."""
    out = replay.outcome()
    if out is None:
        d["result"] = result or "*"
        d["winner"], d["scores"], d["reason"] = winner, scores, reason
        return d
    r, w, s, why = out
    if result not in (None, r):
        raise ValueError("the result %s disagrees with the rules: the game is over (%s) and the result is %s" % (result, why, r))
    if scores is not None and list(scores) != s:
        raise ValueError("the scores %s disagree with the rules' %s" % (_scores_text(scores), _scores_text(s)))
    if reason is not None and reason != why:
        raise ValueError("the termination %r disagrees with the rules: %r" % (reason, why))
    d["result"], d["winner"], d["scores"], d["reason"] = r, w, s, why
    return d


# -- JSON ------------------------------------------------------------------------

_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$")


def is_timestamp(text):
    """True for a real UTC date or date and time as the archive writes them:
    2026-11-21 or 2026-11-21T14:03:22Z (month 13 or 25:61:99 are not)."""
    if not isinstance(text, str) or not _TIMESTAMP.match(text):
        return False
    try:
        datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ" if "T" in text else "%Y-%m-%d")
    except ValueError:
        return False
    return True

_GAME_KEYS = ("id", "variant", "options", "players", "started", "ended", "board", "board_game",
              "result", "winner", "scores", "reason", "start", "tags", "moves")


def dumps(games):
    """The JSON export of a list of game dicts (the same bytes for the same games)."""
    doc = {"format": FORMAT, "version": FORMAT_VERSION, "games": [_ordered(g) for g in games]}
    return harmless.json_dumps(doc, indent=1) + "\n"


def _ordered(game):
    out = {}
    for k in _GAME_KEYS:
        out[k] = game.get(k)
    out["moves"] = [_ordered_event(e) for e in game["moves"]]
    return out


def _ordered_event(e):
    if e["kind"] == "setup":
        return {"ply": e["ply"], "kind": "setup", "position": e["position"]}
    return {k: e[k] for k in ("ply", "kind", "player", "notation", "move", "trace", "position")}


def loads(text, source=None):
    """The games of a JSON export, each checked by replaying it (RecordError on any fault)."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        line = getattr(e, "lineno", None)
        raise RecordError("not valid JSON (%s)" % getattr(e, "msg", e), line, source)
    except RecursionError:
        raise RecordError("not a games export: its JSON is nested too deeply to be one", None, source)
    try:
        # json reads "\udc80" as half a UTF-16 pair, which is no text: the archive could not store it.
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except RecursionError:
        raise RecordError("not a games export: its JSON is nested too deeply to be one", None, source)
    except UnicodeEncodeError as e:
        raise RecordError("a string holds %s, half of a UTF-16 surrogate pair, which is not text" % (
            harmless.text(e.object[e.start:e.end])), None, source)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError('not a Sowlight games export: expected an object with "format": "%s"' % FORMAT, None, source)
    version = doc.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise RecordError("this export is format version %r; this sowlight reads version %d or older: upgrade sowlight" % (
            version, FORMAT_VERSION), None, source)
    games = doc.get("games")
    if not isinstance(games, list):
        raise RecordError('"games" must be a list', None, source)
    return [check_json_game(g, "games[%d]" % i, source) for i, g in enumerate(games)]


def _need(cond, where, message, source):
    if not cond:
        raise RecordError("%s: %s" % (where, message), None, source)


def _opt_str(value):
    return value is None or isinstance(value, str)


def check_json_game(g, where, source=None):
    """A game dict from JSON, checked field by field and replayed; the canonical dict."""
    _need(isinstance(g, dict), where, "a game must be an object", source)
    for key in ("variant", "start", "moves"):
        _need(key in g, where, "the field %r is missing" % key, source)
    for key in ("variant", "start"):
        _need(isinstance(g[key], str), where, "%s must be a string" % key, source)
    _need(_opt_str(g.get("id")) and _opt_str(g.get("result")), where, "id and result must be strings", source)
    players = g.get("players")
    _need(players is None or (isinstance(players, list) and all(isinstance(p, str) for p in players)), where,
          "players must be a list of names (strings) or null", source)
    _need(isinstance(g.get("options", {}), dict), where, "options must be an object", source)
    winner = g.get("winner")
    _need(winner is None or (isinstance(winner, int) and not isinstance(winner, bool)), where,
          "winner must be a player number or null", source)
    for key in ("started", "ended", "board", "reason"):
        _need(_opt_str(g.get(key)), where, "%s must be a string or null" % key, source)
    bg = g.get("board_game")
    _need(bg is None or (isinstance(bg, int) and not isinstance(bg, bool) and bg >= 0), where, "board_game must be a whole number or null", source)
    _need(bg is None or g.get("board"), where, "board_game needs board", source)
    for key in ("started", "ended"):
        _need(g.get(key) is None or is_timestamp(g[key]), where,
              "%s must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), not %r" % (key, g.get(key)), source)
    for key in ("board", "reason"):
        _need(not g.get(key) or "\n" not in g[key], where, "%s must be one line" % key, source)
    tags = g.get("tags") or []
    _need(isinstance(tags, list) and all(isinstance(t, list) and len(t) == 2 and all(isinstance(x, str) for x in t) for t in tags),
          where, "tags must be a list of [name, value] string pairs", source)
    for name, value in tags:
        _need(re.match(r"^[A-Za-z0-9_]+$", name) and name not in _KNOWN and "\n" not in value, where,
              "tag %r: a tag name is letters, digits and _ (not one of %s) and its value one line" % (name, ", ".join(_KNOWN)), source)
    scores = g.get("scores")
    _need(scores is None or (isinstance(scores, list) and all(isinstance(s, int) for s in scores)), where,
          "scores must be a list of whole numbers or null", source)
    try:
        d = new_game(start=g["start"], players=g.get("players"), started=g.get("started"), ended=g.get("ended"),
                     board=g.get("board"), board_game=bg, tags=tags, game_id=g.get("id"))
    except (ValueError, TypeError) as e:
        raise RecordError("%s: %s" % (where, e), None, source)
    _need(g["variant"] == d["variant"], where, "variant %r but the start position is of %s" % (g["variant"], d["variant"]), source)
    if "options" in g:
        _need(g["options"] == d["options"], where, "options %r but the start position has %r" % (g["options"], d["options"]), source)
    _need(isinstance(g["moves"], list), where, "moves must be a list", source)
    r = Replay(d["start"])
    for i, e in enumerate(g["moves"]):
        at = "%s.moves[%d]" % (where, i)
        _need(isinstance(e, dict), at, "a move must be an object", source)
        _need(e.get("ply", i + 1) == i + 1, at, "ply %r, expected %d (plies count from 1 without gaps)" % (e.get("ply"), i + 1), source)
        try:
            if e.get("kind", "move") == "setup":
                _need(isinstance(e.get("position"), str), at, "a setup needs its position", source)
                r.setup(e["position"])
                continue
            _need(e.get("kind", "move") == "move", at, "kind must be move or setup", source)
            move = e.get("move")
            if move is not None:
                move = move_from_json(move)
            _need(_opt_str(e.get("notation")), at, "notation must be a string", source)
            player = r.game.to_move
            got = r.move(e.get("notation"), move)
        except (mancala.RulesError, ValueError) as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError("%s: %s" % (at, err), None, source)
        if "player" in e:
            _need(e["player"] == player, at, "player %r, but the rules say player %d is to move" % (e["player"], player), source)
        if e.get("trace") is not None:
            _need(e["trace"] == got["trace"], at, "the trace differs from the rules' trace for %s" % got["notation"], source)
        if e.get("position") is not None:
            _need(e["position"] == got["position"], at, "the position after %s differs from the rules' %r" % (got["notation"], got["position"]), source)
    d["moves"] = r.events
    result = g.get("result")
    winner = g.get("winner")
    if result is not None:
        try:
            w, decided = parse_result(result, r.game.players)
        except ValueError as e:
            raise RecordError("%s: %s" % (where, e), None, source)
        _need(winner is None or winner == w or not decided, where, "winner %r disagrees with result %s" % (winner, result), source)
        winner = w
    try:
        settle(d, r, result, winner, scores, g.get("reason"))
    except ValueError as e:
        raise RecordError("%s: %s" % (where, e), None, source)
    if not g.get("id"):
        # As for records: an id from the content, so a second import finds the game.
        d["id"] = str(_uuid.uuid5(_ID_NAMESPACE, dumps([dict(d, id="")])))
    return d


# -- the readable record -------------------------------------------------------------

_WIDTH = 79  # movetext lines, as PGN's export format wraps them


def _quote(value):
    # A record is printable text: an unprintable character (a control, a bidi
    # override...) in a value is written \uXXXX (\UXXXXXXXX past U+FFFF), which
    # _unquote reads back, so the record is safe on a terminal and still exact.
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"%s"' % harmless.escape_unprintable(value, _code_escape)


def _code_escape(c):
    code = ord(c)
    return ("\\u%04x" % code) if code < 0x10000 else ("\\U%08x" % code)


def _scores_text(scores):
    return "-".join(str(s) for s in scores)


def _date_tags(started):
    """started ('2026-11-21' or '2026-11-21T14:03:22Z') -> Date and Time tag values."""
    if not started:
        return "????.??.??", None
    date, _, time = started.partition("T")
    return date.replace("-", "."), (time.rstrip("Z") or None)


def tags_of(d):
    """The tag pairs of a game, in the order the record writes them."""
    date, time = _date_tags(d.get("started"))
    tags = [("Variant", d["variant"])]
    if d["options"]:
        tags.append(("Options", ",".join("%s=%s" % kv for kv in d["options"].items())))
    tags.append(("Players", "; ".join(d["players"])))
    tags.append(("Date", date))
    if time:
        tags.append(("Time", time))
    if d.get("ended"):
        end_date, end_time = _date_tags(d["ended"])
        tags.append(("EndDate", end_date))
        if end_time:
            tags.append(("EndTime", end_time))
    if d.get("board"):
        tags.append(("Board", d["board"]))
    if d.get("board_game") is not None:
        tags.append(("BoardGame", str(d["board_game"])))
    tags.append(("Result", d["result"]))
    if d.get("scores") is not None:
        tags.append(("Scores", _scores_text(d["scores"])))
    if d.get("reason"):
        tags.append(("Termination", d["reason"]))
    if d["start"] != standard_start(d["variant"], d["options"]):
        tags.append(("Setup", d["start"]))
    for name, value in d.get("tags") or ():
        tags.append((name, value))
    tags.append(("Id", d["id"]))
    return tags


def movetext_tokens(d):
    """The movetext as tokens: numbers ('3.' or '3...'), turns ('C' or 'C,F'), setups, the result.

    A turn is the moves one player makes in a row (extra turns, or others
    passing), joined by commas.  A round is numbered when it starts: at the
    first turn, after a position set by hand, and whenever the turn comes back
    round to (or before) the player who moved first; 'N...' marks a round that
    starts with another player than the one who moved first, as in PGN.
    """
    players = len(d["players"])
    tokens = []
    turns = []  # (player, [notations]) or ("setup", position)
    for e in d["moves"]:
        if e["kind"] == "setup":
            turns.append(("setup", e["position"]))
        elif players > 1 and turns and turns[-1][0] == e["player"]:
            turns[-1][1].append(e["notation"])
        else:
            turns.append((e["player"], [e["notation"]]))
    first = None
    prev = None
    number = 0
    for who, what in turns:
        if who == "setup":
            tokens.append('{Setup %s}' % _quote(what))
            prev = None
            continue
        if first is None:
            first = who
        if prev is None or (who - first) % players <= (prev - first) % players:
            number += 1
            tokens.append("%d%s" % (number, "." if who == first else "..."))
        tokens.append(",".join(what))
        prev = who
    tokens.append(d["result"])
    return tokens


def write(d):
    """One game as a readable record (ends with a newline)."""
    lines = ["[%s %s]" % (name, _quote(value)) for name, value in tags_of(d)]
    lines.append("")
    # A move number stays on the line of the turn it numbers.
    units = []
    for tok in movetext_tokens(d):
        if units and units[-1][-1] == "." and units[-1][:1].isdigit():
            units[-1] += " " + tok
        else:
            units.append(tok)
    line = ""
    for tok in units:
        if line and len(line) + 1 + len(tok) > _WIDTH:
            lines.append(line)
            line = tok
        else:
            line = (line + " " + tok) if line else tok
    lines.append(line)
    return "\n".join(lines) + "\n"


def write_many(games):
    """Several games, a blank line between them."""
    return "\n".join(write(d) for d in games)


_TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^(\d+)(\.\.\.|\.)(.*)$")
_KNOWN = ("Variant", "Options", "Players", "Date", "Time", "EndDate", "EndTime", "Board", "BoardGame", "Result", "Scores",
          "Termination", "Setup", "Id")


def _unquote(value):
    return re.sub(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", _unescape, value)


def _unescape(m):
    code = m.group(1)
    if len(code) > 1:
        n = int(code[1:], 16)
        if n < 0x110000 and not 0xD800 <= n < 0xE000:
            return chr(n)
        return "\\" + code  # no character (past U+10FFFF, or half a surrogate pair): kept as written
    return code


def parse(text, source=None):
    """Every game of a record file, each replayed and checked; RecordError with its line on a fault."""
    games = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        if not lines[i].lstrip().startswith("["):
            raise RecordError("a game starts with its tags, like [Variant \"oware\"]; found %r" % lines[i].strip()[:40], i + 1, source)
        tags = []
        while i < len(lines) and lines[i].lstrip().startswith("["):
            m = _TAG.match(lines[i].strip())
            if not m:
                raise RecordError('a tag is [Name "value"], found %r' % lines[i].strip()[:60], i + 1, source)
            tags.append((m.group(1), _unquote(m.group(2)), i + 1))
            i += 1
        tokens = []
        while i < len(lines) and not lines[i].lstrip().startswith("["):
            tokens.extend(_tokens(lines[i], i + 1, source))
            i += 1
        games.append(_game_from(tags, tokens, source))
    if not games:
        raise RecordError("no game in this file", None, source)
    return games


def _tokens(line, number, source):
    out = []
    pos = 0
    while pos < len(line):
        ch = line[pos]
        if ch.isspace():
            pos += 1
            continue
        if ch == "{":
            end = line.find("}", pos)
            if end < 0:
                raise RecordError("a { has no closing } on this line", number, source)
            out.append((line[pos:end + 1], number))
            pos = end + 1
            continue
        end = pos
        while end < len(line) and not line[end].isspace() and line[end] != "{":
            end += 1
        out.append((line[pos:end], number))
        pos = end
    return out


def _game_from(tags, tokens, source):
    seen = {}
    for name, value, line in tags:
        if name in seen:
            raise RecordError("the tag %s appears twice (first on line %d)" % (name, seen[name][1]), line, source)
        seen[name] = (value, line)
    first_line = tags[0][2]

    def fail(message, tag=None, line=None):
        raise RecordError(message, line if line is not None else (seen[tag][1] if tag in seen else first_line), source)

    if "Variant" not in seen:
        fail('the game has no [Variant "..."] tag (e.g. [Variant "oware"])')
    variant = seen["Variant"][0]
    options = {}
    if "Options" in seen and seen["Options"][0] not in ("", "-"):
        for item in seen["Options"][0].split(","):
            name, eq, value = item.strip().partition("=")
            if not eq or not name:
                fail("options are name=value pairs separated by commas, like grand_slam=no-capture", "Options")
            options[name] = int(value) if value.isdigit() else value
    try:
        start = standard_start(variant, options)
    except mancala.RulesError as e:
        fail(str(e), "Options" if isinstance(e, mancala.PositionError) and "Options" in seen else "Variant")
    if "Setup" in seen:
        try:
            setup = position_game(seen["Setup"][0])
        except mancala.RulesError as e:
            fail("the Setup position: %s" % e, "Setup")
        if mancala.to_text(setup).split()[:2] != start.split()[:2]:
            fail("the Setup position is of %s, but the Variant and Options tags say %s" % (
                " ".join(mancala.to_text(setup).split()[:2]), " ".join(start.split()[:2])), "Setup")
        start = mancala.to_text(setup)
    started = ended = None
    if "Date" in seen:
        started = _parse_date(seen["Date"][0], seen.get("Time", (None,))[0], fail)
    elif "Time" in seen:
        fail("a Time tag needs a Date tag", "Time")
    if "EndDate" in seen:
        ended = _parse_date(seen["EndDate"][0], seen.get("EndTime", (None,))[0], fail, "EndDate", "EndTime")
    elif "EndTime" in seen:
        fail("an EndTime tag needs an EndDate tag", "EndTime")
    players = None
    if "Players" in seen:
        players = [p.strip() for p in seen["Players"][0].split(";")]
    board = seen.get("Board", (None,))[0]
    board_game = None
    if "BoardGame" in seen:
        if not seen["BoardGame"][0].isdigit():
            fail("BoardGame is the board's game number, a whole number", "BoardGame")
        if not board:
            fail("a BoardGame tag needs a Board tag", "BoardGame")
        board_game = int(seen["BoardGame"][0])
    game_id = seen.get("Id", (None,))[0]
    if game_id is not None:
        try:
            game_id = str(_uuid.UUID(game_id))
        except ValueError:
            fail("Id must be a UUID like 12345678-1234-5678-1234-567812345678", "Id")
    extra = [[n, v] for n, v, _ in tags if n not in _KNOWN]
    try:
        d = new_game(start=start, players=players, started=started, ended=ended, board=board, board_game=board_game,
                     tags=extra, game_id=game_id or "-")
    except ValueError as e:
        fail(str(e), "Players")
    r = Replay(d["start"])
    end_line = _replay_movetext(r, tokens, len(d["players"]), fail)
    result = seen.get("Result", (end_line[0] if end_line else "*",))[0]
    try:
        winner, decided = parse_result(result, r.game.players)
    except ValueError as e:
        fail(str(e), "Result")
    if end_line and end_line[0] != result:
        fail("the moves end with %s, but the Result tag says %s" % (end_line[0], result), line=end_line[1])
    scores = None
    if "Scores" in seen:
        try:
            scores = [int(s) for s in seen["Scores"][0].split("-")]
        except ValueError:
            fail("Scores are whole numbers joined by -, like 26-22", "Scores")
    d["moves"] = r.events
    given = result if ("Result" in seen or end_line) else None
    try:
        settle(d, r, given, winner if decided else None, scores, seen.get("Termination", (None,))[0])
    except ValueError as e:
        if "Result" in seen:
            fail(str(e), "Result")
        fail(str(e), line=end_line[1] if end_line else None)
    if not game_id:
        d["id"] = str(_uuid.uuid5(_ID_NAMESPACE, write(dict(d, id=""))))
    return d


def _parse_date(date, time, fail, date_tag="Date", time_tag="Time"):
    if date == "????.??.??":
        if time:
            fail("a %s tag with an unknown date" % time_tag, time_tag)
        return None
    m = re.match(r"^(\d{4})\.(\d{2})\.(\d{2})$", date)
    if not m:
        fail("%s is YYYY.MM.DD (or ????.??.?? when unknown), not %r" % (date_tag, date), date_tag)
    out = "%s-%s-%s" % m.groups()
    if not is_timestamp(out):
        fail("%s %s is not a date of the calendar (month 01-12, a day the month has)" % (date_tag, date), date_tag)
    if time is not None:
        if not re.match(r"^\d{2}:\d{2}:\d{2}$", time):
            fail("%s is HH:MM:SS (UTC), not %r" % (time_tag, time), time_tag)
        if not is_timestamp(out + "T%sZ" % time):
            fail("%s %s is not a time of day (00:00:00 to 23:59:59)" % (time_tag, time), time_tag)
        out += "T%sZ" % time
    return out


_RESULTS = re.compile(r"^(\*|[01](/\d+)?(-[01](/\d+)?)*)$")


def _replay_movetext(r, tokens, players, fail):
    """Play the movetext's turns with the rules; check numbering and grouping. Returns (result, line) or None."""
    first = None
    prev = None
    number = 0
    pending = None  # a move number token waiting for its turn: (number, dots, line)
    k = 0
    while k < len(tokens):
        tok, line = tokens[k]
        k += 1
        if _RESULTS.match(tok) and not (r.game.legal_moves() and _is_move(r.game, tok)):
            if k < len(tokens):
                fail("the result %s must end the moves, but %r follows it" % (tok, tokens[k][0]), line=tokens[k][1])
            if pending:
                fail("move number %d%s has no move after it" % (pending[0], pending[1]), line=pending[2])
            return tok, line
        if tok.startswith("{"):
            m = re.match(r'^\{\s*Setup\s+"((?:[^"\\]|\\.)*)"\s*\}$', tok)
            if not m:
                fail("comments {...} are not kept in the archive: remove %s (only {Setup \"<position>\"} is read)" % tok[:30], line=line)
            try:
                r.setup(_unquote(m.group(1)))
            except mancala.RulesError as e:
                fail("the position set here: %s" % e, line=line)
            prev = None
            continue
        m = _NUMBER.match(tok)
        if m:
            if pending:
                fail("move number %s follows move number %d%s with no move between" % (tok, pending[0], pending[1]), line=line)
            pending = (int(m.group(1)), m.group(2), line)
            if not m.group(3):
                continue
            tok = m.group(3)
        # A turn: one move, or the moves one player makes in a row joined by commas.
        if r.game.is_over():
            fail("%s comes after the end of the game (%s)" % (tok, r.game.outcome().reason), line=line)
        who = r.game.to_move
        if first is None:
            first = who
        new_round = prev is None or (who - first) % players <= (prev - first) % players
        if players > 1 and prev == who and r.events and r.events[-1]["kind"] == "move":
            fail("%s is another move by player %d right after %s: join the moves of one turn with commas (%s,%s)" % (
                tok, who, r.events[-1]["notation"], r.events[-1]["notation"], tok.split(",")[0]), line=line)
        # A numbering fault is reported after the turn's first move is tried: an
        # illegal move (often the cause of the fault) says more.
        numbering = None
        if new_round:
            number += 1
            dots = "." if who == first else "..."
            if not pending:
                numbering = ("%s starts round %d: write %d%s before it" % (tok, number, number, dots), line)
            elif pending[:2] != (number, dots):
                numbering = ("move number %d%s, but this is round %d%s (player %d to move)" % (
                    pending[0], pending[1], number, dots, who), pending[2])
        elif pending:
            numbering = ("move number %d%s in the middle of round %d: player %d moves next in the same round" % (
                pending[0], pending[1], number, who), pending[2])
        pending = None
        parts = tok.split(",")
        if players == 1 and len(parts) > 1:
            fail("a one-player game numbers every move: write %s" % " ".join(
                "%d. %s" % (number + j, p) for j, p in enumerate(parts[:2])), line=line)
        for j, part in enumerate(parts):
            if j and r.game.to_move != who:
                fail("%s: after %s it is player %d's turn, not player %d's - only moves one player makes in a row are joined by commas" % (
                    tok, parts[j - 1], r.game.to_move, who), line=line)
            if j and r.game.is_over():
                fail("%s comes after the end of the game (%s)" % (part, r.game.outcome().reason), line=line)
            try:
                r.move(part)
            except mancala.RulesError as e:
                fail("%s is not played: %s" % (part, e), line=line)
            if numbering:
                fail(numbering[0], line=numbering[1])
        prev = who
    if pending:
        fail("move number %d%s has no move after it" % (pending[0], pending[1]), line=pending[2])
    return None


def _is_move(game, tok):
    try:
        game.parse_move(tok)
        return True
    except mancala.RulesError:
        return False
