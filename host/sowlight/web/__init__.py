"""`sowlight serve`: the web view -- the live board, the archive's games with replay and analysis,
statistics.  docs/web.md describes it; serve_cmd.py is the command, app.py the HTTP side,
live.py the live board, board.py and stats.py the data the page draws."""
