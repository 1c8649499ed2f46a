"""Text from outside -- a record, a board, a config file, the command line -- made harmless for a terminal.

A terminal obeys the characters it is sent: ESC starts sequences that move the
cursor, recolour, clear the screen, set the window title (OSC ... BEL), make
hyperlinks or even answer into the input; BEL rings; the C1 controls
(0x80-0x9f) act as ESC sequences on some terminals; bidi overrides (U+202E ...)
reorder a line so that it shows something other than what it holds.  Every
character Python calls unprintable (not str.isprintable(): controls, format
characters such as the bidi ones, separators other than the space, lone
surrogates, unassigned code points) is therefore shown as an escape, the way
repr() writes one: ESC as \\x1b, U+202E as \\u202e, a tab as \\t.

    print(harmless.text(game["players"][0]))       # the one function for the terminal
    print(harmless.json_dumps(obj, indent=1))      # the same for JSON output: \\u escapes, still valid JSON

Printable text comes back unchanged, so names in any script read as written.
"""
import json

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_unprintable(value, escape, keep=""):
    """`value` with each unprintable character c (but those in `keep`) replaced by escape(c)."""
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() or c in keep else escape(c) for c in value)


def _shown(c):
    named = _NAMED.get(c)
    if named:
        return named
    code = ord(c)
    if code < 0x100:
        return "\\x%02x" % code
    if code < 0x10000:
        return "\\u%04x" % code
    return "\\U%08x" % code


def text(value, lines=False):
    """`value` (any object: str() is taken) safe to print on a terminal.  With lines=True
    line breaks are kept (a block of several lines); every other unprintable character
    is written as a visible escape."""
    if not isinstance(value, str):
        value = str(value)
    return escape_unprintable(value, _shown, "\n" if lines else "")


def _json_escape(c):
    code = ord(c)
    if code < 0x10000:
        return "\\u%04x" % code
    code -= 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))


def json_dumps(obj, **kw):
    """json.dumps with readable non-ASCII text, but every unprintable character as a \\u escape.

    json.dumps already escapes the C0 controls inside strings; this adds DEL, the C1
    controls, bidi and other format characters and lone surrogates.  The line breaks
    left are the indentation's (a string's own are \\n already), so the output is the
    same JSON value, and safe on a terminal."""
    kw.setdefault("ensure_ascii", False)
    return escape_unprintable(json.dumps(obj, **kw), _json_escape, "\n")
