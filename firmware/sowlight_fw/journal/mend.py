"""Filling a gap in the journal: a record lost to a damaged byte, rebuilt from the records after it.

Journal.open() (games.py) finds the plies of a game that no intact record
holds below its last one (a byte damaged inside an earlier record: a power
cut tears only the last).  For each, in order:

- the records before it are replayed with the rules core: the position the
  lost record started from;
- every record it could have been -- each legal move of the player to move,
  an undo (the game's end, when the position ends it); for ply 0, a start of
  each variant the board plays, with its default options -- is tried
  against the records after it, up to the next gap: each of them must follow
  on (its player to move, its move legal, its undo possible) from the
  position its digest names (records.digest: a move record carries the
  digest of the position it was played from);
- when exactly one fits, it is written into the gap, marked `rebuilt` (its
  time is not known); otherwise a `lost` record goes there, so that the plies
  follow on and the laptop can store and acknowledge every intact record, and
  the game is ended (`end`, reason `damaged`) when it is the newest one: it
  cannot be replayed past the gap, so the board cannot resume it.

Run at boot when open() found a gap.  `start` and `setpos` records are
written twice (records.py), so a damaged byte takes
one copy only; a lost `start` is tried here for journals written before that.
"""
from mancala.errors import RulesError

from .records import (GameInfo, written, file_name, digest, intact, decode, move_digest, move_json, move_tuple,
                      START, MOVE, UNDO, SETPOS, END, SYNC, LOST)

_BAD = (RulesError, KeyError, TypeError, ValueError, AttributeError)


def mend(j, make, variants):
    """Fill every gap of j.gaps; returns [(game, ply, record or None if lost)]."""
    done = []
    newest = max(j.games) if j.games else None
    for game in sorted(j.gaps):
        lost = False
        for ply in j.gaps[game]:
            rec = _rebuild(_records(j, game), ply, make, variants)
            rec["game"] = game
            rec["ply"] = ply
            _fill(j, game, ply, rec)
            lost = lost or rec["kind"] == "lost"
            done.append((game, ply, None if rec["kind"] == "lost" else rec))
        info = j.games[game]
        if lost and game == newest and not info.over:
            j.append({"kind": "end", "game": game, "ply": info.last + 1, "winner": None, "scores": [],
                      "reason": "damaged"})
    j.gaps = {}
    return done


def _records(j, game):
    """[(kind, ply, record dict, digest or None)] of a game's intact records, in ply order,
    without `synced` marks and second copies."""
    data = j.storage.read(file_name(game))
    out = []
    seen = -1
    for _, (kind, _, ply, a, b, _) in intact(data):
        if kind == SYNC or ply <= seen:
            continue
        seen = ply
        p = memoryview(data)[a:b]
        r = decode(kind, ply, p, True)
        out.append((kind, ply, r, move_digest(p) if kind == MOVE else r.get("pd")))
    return out


def _rebuild(recs, ply, make, variants):
    """The record that fits the gap at `ply` (marked rebuilt), or a `lost` one."""
    before = [r for r in recs if r[1] < ply]
    after = []
    for r in recs:
        if r[1] == ply + 1 + len(after):
            after.append(r)
    fits = []
    if ply == 0:
        for v in variants:
            try:
                g = make(v, {}, None)
            except _BAD:
                continue
            if _follows(g, after, make, v, {}, None):
                fits.append({"kind": "start", "variant": v, "options": {}})
    elif len(before) == ply:       # (an earlier gap still open: nothing to start from)
        start = _replay(before, make)
        if start is not None and start[0].is_over():
            # Nothing but the game's end can follow a position that ends it.
            o = start[0].outcome()
            fits.append({"kind": "end", "winner": o.winner, "scores": list(o.scores), "reason": o.reason})
        elif start is not None:
            for m in start[0].legal_moves():
                g, variant, options = _replay(before, make)
                player = g.to_move
                name = g.move_name(m)
                pd = digest(g.pits, g.stores, g.to_move)
                g.play(m)
                if _follows(g, after, make, variant, options, move_json(m)):
                    fits.append({"kind": "move", "player": player, "move": move_json(m), "name": name, "pd": pd})
                if len(fits) > 1:
                    break
            g, variant, options = _replay(before, make)
            try:
                g.undo()
                if _follows(g, after, make, variant, options, None):
                    fits.append({"kind": "undo"})
            except _BAD:
                pass
    if len(fits) != 1:
        return {"kind": "lost"}
    rec = fits[0]
    rec["rebuilt"] = True
    return rec


def _replay(recs, make):
    """(game, variant, options) after the records `recs` (from ply 0 on), or None."""
    g = None
    variant = None
    options = {}
    try:
        for kind, _, r, _ in recs:
            if kind == START:
                variant = r["variant"]
                options = r.get("options") or {}
                g = make(variant, options, r.get("pos"))
            elif kind == MOVE:
                g.play(move_tuple(r["move"]))
            elif kind == UNDO:
                g.undo()
            elif kind == SETPOS:
                g = make(variant, options, r["pos"])
            elif kind == LOST:
                return None
    except _BAD:
        return None
    if g is None:
        return None
    return g, variant, options


def _follows(g, after, make, variant, options, last):
    """True when the records `after` follow on from game `g` (which they change), the move
    `last` (JSON form, or None) made just before them."""
    try:
        for kind, _, r, pd in after:
            if kind == MOVE:
                if r["player"] != g.to_move or pd is not None and pd != digest(g.pits, g.stores, g.to_move):
                    return False
                g.play(move_tuple(r["move"]))
                last = r["move"]
            elif kind == UNDO:
                g.undo()
                last = None
            elif kind == SETPOS:
                g = make(variant, options, r["pos"])
                last = None
            elif kind == END:
                # An end carries the digest of the game's last position and its last move.
                if pd is not None and pd != digest(g.pits, g.stores, g.to_move):
                    return False
                if last is not None and r.get("lm") is not None and r["lm"] != last:
                    return False
                # An end the rules reached says how: the position must end the same way.
                if r.get("reason") not in ("abandoned", "damaged"):
                    o = g.outcome()
                    return o is not None and list(o.scores) == r.get("scores") and o.winner == r.get("winner")
                return True
            elif kind == LOST:
                return True
    except _BAD:
        return False
    return True


def _fill(j, game, ply, rec):
    """Write `rec` into the game's file before its first record past `ply` (all or nothing)."""
    name = file_name(game)
    data = j.storage.read(name)
    one = written(rec)
    i = len(data)
    for at, r in intact(data):
        if r[0] != SYNC and r[2] > ply:
            i = at
            break
    j.storage.replace(name, data[:i] + one + data[i:])
    if rec["kind"] == "start":
        info = j.games[game]
        j.games[game] = GameInfo(game, rec["variant"], info.last, info.synced, info.over)
