"""The laptop's sync requests of the journal: `journal_list`, `journal_get`, `journal_ack`
(docs/protocol.md), answered from the app's Journal.
"""
from ..link import codec
from .records import JournalError

RECORDS_MOST = 50          # records per `records` reply at most (journal_get's default max)


def request(app, t, p):
    """The reply to `journal_list`, `journal_get` or `journal_ack` (docs/protocol.md)."""
    j = app.journal
    app.write_records()      # the records of the scan's play: the reply has them
    try:
        if t == "journal_list":
            return journal_page(j, p.get("from", 0), p.get("max"))
        if t == "journal_get":
            most = max(1, min(p.get("max", RECORDS_MOST), RECORDS_MOST))
            recs, more = j.records(p["game"], p["from"], most)
            reply = {"type": "records", "game": p["game"], "records": recs, "more": more}
            if codec.fit("records", reply, "records") and reply["records"]:
                reply["more"] = True      # the rest did not fit in one frame: the host asks again
            return reply
        if t == "journal_ack":
            synced = j.ack(p["game"], p["upto"])
            app.write_records()     # space may have come free for records waiting
            return {"type": "ok", "game": p["game"], "synced": synced}
    except JournalError as e:
        return {"type": "error", "code": e.code, "msg": e.msg}
    return {"type": "error", "code": "unknown_type", "msg": "the board has no request '%s'" % t}


def journal_page(j, first=0, most=None):
    """The `journal` reply: the games numbered `first` on, at most `most` of them and as many
    as one frame holds; "more" when the journal holds games after the last one listed."""
    games = [g for g in j.list_games() if g["game"] >= first]
    more = False
    if most is not None and len(games) > max(most, 1):
        games = games[:max(most, 1)]
        more = True
    reply = {"type": "journal", "games": games, "more": more}
    if codec.fit("journal", reply, "games"):
        reply["more"] = True
    return reply
