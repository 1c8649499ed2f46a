"""Hostile inputs against the `sowlight` command, counted: how many end in a clean error.

    python bench/campaign_inputs.py                 # this tree
    python bench/campaign_inputs.py --tree DIR      # another checkout (its host/, rules/, firmware/), for a before/after
    python bench/campaign_inputs.py --show          # every input with what it got

Each input is run as a user runs it: `python -m sowlight ARGS` in a process of its own, in a
scratch folder, with files made for it (binary, non-UTF-8, 100,000-deep JSON, a 4,301-digit
number, impossible dates, terminal escapes in records, a damaged, a cut-short, a read-only
archive ...).  An outcome is clean when:
- no Python traceback is printed;
- the exit status is one docs/cli.md gives (0 done, 1 could not do it, 2 a bad command line);
- a refusal (1 or 2) says why on stderr, from `sowlight ...` (or argparse's usage);
- nothing printed holds a character a terminal would obey (escapes, BEL, C1, bidi overrides);
- a damaged or read-only archive is left byte for byte as it was (and no -wal/-shm beside it).

The figures printed at the end ("N inputs tried, M clean") are the campaign's result.
"""
import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIG = "9999999999999999999999"
ESC = "\x1b[31m\x1b]2:owned\x07\u202e"


def harmless(text):
    return all(c.isprintable() or c in "\n" for c in text)


def digest(path):
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest(), sorted(os.listdir(Path(path).parent))
    except OSError:
        return None


class Campaign:
    def __init__(self, tree, work, show=False):
        self.tree = Path(tree).resolve()
        self.work = Path(work)
        self.show = show
        self.tried = 0
        self.clean = 0
        self.faults = []
        self.env = dict(os.environ)
        self.env.pop("SOWLIGHT_DB", None)
        self.env["XDG_DATA_HOME"] = str(self.work / "data")
        self.env["PYTHONPATH"] = os.pathsep.join(str(self.tree / d) for d in ("host", "rules", "firmware"))
        self.prefix = []
        if os.geteuid() == 0 and shutil.which("setpriv"):
            # root ignores file permissions: without these rights it meets them as a user does
            self.prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]

    def run(self, label, args, stdin=b"", statuses=(1, 2), unchanged=None, timeout=60, says=None):
        """One input: `args` after `sowlight`; `statuses` the exit statuses that are right for it;
        `says` what a refusal printed on stdout must hold (a command whose report is its output),
        else a refusal must say why on stderr."""
        before = digest(unchanged) if unchanged else None
        try:
            r = subprocess.run(self.prefix + [sys.executable, "-m", "sowlight"] + list(args), input=stdin,
                               capture_output=True, timeout=timeout, env=self.env, cwd=str(self.work))
            out, err, status = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace"), r.returncode
        except subprocess.TimeoutExpired:
            out, err, status = "", "(no answer in %d s)" % timeout, None
        why = []
        if "Traceback" in err:
            why.append("traceback: " + err.strip().splitlines()[-1][:120])
        if status not in statuses:
            why.append("exit status %s, expected %s" % (status, "/".join(map(str, statuses))))
        if status in (1, 2) and not (says in out if says else
                                     any(line.startswith(("sowlight", "usage:")) for line in err.splitlines())):
            why.append("no message saying why")
        if not (harmless(out) and harmless(err)):
            why.append("raw control characters printed")
        if unchanged and digest(unchanged) != before:
            why.append("the archive (or its folder) changed")
        self.tried += 1
        if why:
            self.faults.append((label, why))
        else:
            self.clean += 1
        if self.show:
            print("%-58s %-6s %s" % (label[:58], status, "; ".join(why) or "clean: " + (err.strip().splitlines() or [""])[-1][:90]
                                     .encode("ascii", "backslashreplace").decode()))

    def file(self, name, data):
        path = self.work / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return str(path)


def an_archive(c, name, games=3):
    """A real archive made by this tree's `sowlight play`, `games` games long."""
    db = str(c.work / name)
    for _ in range(games):
        subprocess.run([sys.executable, "-m", "sowlight", "play", "--no-board", "--vs", "self", "--depth", "1",
                        "--variant", "kalah", "--db", db], input=b"", capture_output=True, env=c.env, cwd=str(c.work),
                       timeout=120)
    return db


def campaign(c):
    db = an_archive(c, "a.sqlite3")
    # an exported record, then versions of it with hostile tags
    rec = subprocess.run([sys.executable, "-m", "sowlight", "games", "export", "1", "--db", db], capture_output=True,
                         env=c.env, timeout=60).stdout.decode()
    evil_rec = rec.replace("[Result", '[Event "%s"]\n[Site "%s\x9b"]\n[Result' % (ESC, ESC), 1)
    evil_rec = evil_rec.replace('[Players "', '[Players "%s' % ESC, 1)
    files = {
        "binary": c.file("binary.bin", bytes(range(256)) * 64),
        "latin1": c.file("latin1.rec", '[Variant "oware"]\n[Players "José; Ana"]\n\n*\n'.encode("latin-1")),
        "deep-array": c.file("deep.json", b'{"format": "sowlight-games", "version": 1, "games": ' + b"[" * 100000 + b"]" * 100000 + b"}"),
        "deep-object": c.file("deep2.json", b'{"a":' * 100000 + b"1" + b"}" * 100000),
        "deep-record": c.file("deep.rec", b"[" * 100000),
        "empty": c.file("empty.rec", b""),
        "bom only": c.file("bom.rec", "\ufeff"),
        "huge int json": c.file("bigint.json", '{"format": "sowlight-games", "version": %s, "games": []}' % ("9" * 5000)),
        "json wrong types": c.file("types.json", json.dumps({"format": "sowlight-games", "version": 1, "games": [
            {"variant": 5, "start": [], "moves": "x", "players": 7}]})),
        "lone surrogate json": c.file("surrogate.json", '{"format": "sowlight-games", "version": 1, "games": [{"variant": '
                                      '"oware", "start": "oware grand_slam=no-capture 4,4,4,4,4,4/4,4,4,4,4,4 0,0 0", '
                                      '"players": ["\\udcff", "b"], "moves": []}]}'),
        "date 2026.13.45": c.file("date.rec", rec.replace('[Date "', '[Date "2026.13.45"]\n[X "', 1)),
        "time 25:61:99": c.file("time.rec", rec.replace('[Time "', '[Time "25:61:99"]\n[X "', 1)),
        "escape tags": c.file("evil.rec", evil_rec),
    }
    for label, path in files.items():
        c.run("games import (%s)" % label, ["games", "import", path, "--db", str(c.work / "imported.sqlite3")],
              statuses=(0,) if label == "escape tags" else (1,))
    c.run("games import (a folder)", ["games", "import", str(c.work), "--db", str(c.work / "imported.sqlite3")])
    c.run("games import (no such file)", ["games", "import", str(c.work / "nope.rec"), "--db", str(c.work / "i.sqlite3")])
    c.run("games import - (binary stdin)", ["games", "import", "-", "--db", str(c.work / "i.sqlite3")],
          stdin=bytes(range(256)))

    for ref in (BIG, "-1", "0", "\u00b2", "\u0661", ESC, "", "%", "_", "\\", "x" * 10000):
        for cmd in (["games", "show"], ["games", "export"], ["replay"], ["games", "delete"]):
            c.run("%s %r" % (" ".join(cmd), ref[:12]), cmd + [ref, "--db", db] + (["--yes"] if "delete" in cmd else []))
        c.run("hint --game %r" % ref[:12], ["hint", "--game", ref, "--db", db])
    c.run("games delete 1 (prompt, answered n)", ["games", "delete", "1", "--db", str(c.work / "imported.sqlite3")],
          stdin=b"n\n", statuses=(1,), says="not deleted")
    for t in ("nan", "inf", "-inf", "1e400", "-1", "0"):
        c.run("hint --time %s" % t, ["hint", "--variant", "oware", "--time", t], statuses=(2,))
    for d in ("0", "-5"):
        c.run("hint --depth %s" % d, ["hint", "--variant", "oware", "--depth", d], statuses=(2,))
    for p in ("", "garbage", ESC, "oware - %s 0,0 0" % ",".join([BIG] * 12), "oware - 4,4,4,4,4,4/4,4,4,4,4,4 0,0 7"):
        c.run("hint --position %r" % p[:20], ["hint", "--position", p], statuses=(1, 2))
    for v in ("", " ", "nosuch", ESC):
        c.run("hint --variant %r" % v, ["hint", "--variant", v])
        c.run("play --variant %r" % v, ["play", "--no-board", "--no-archive", "--variant", v], statuses=(2,))
        c.run("games list --variant %r" % v, ["games", "list", "--variant", v, "--db", db])
        c.run("board virtual --variant %r" % v, ["board", "virtual", "--variant", v], statuses=(2,))
    c.run("hint --moves junk", ["hint", "--variant", "oware", "--moves", "Z Z %s" % ESC])
    for o in ("seeds=\u00b2", "seeds=" + BIG, "seeds=" + "9" * 5000, "=", ESC + "=1"):
        c.run("play -o %r" % o[:16], ["play", "--no-board", "--no-archive", "-o", o], statuses=(2,))
    for n in ("0", "-1", BIG):
        c.run("games list --last %s" % n[:12], ["games", "list", "--last", n, "--db", db], statuses=(0, 2))
    c.run("games list (after the escape import)", ["games", "list", "--db", str(c.work / "imported.sqlite3")], statuses=(0,))
    c.run("games show 1 (escaped record)", ["games", "show", "1", "--db", str(c.work / "imported.sqlite3")], statuses=(0,))
    c.run("games export 1 (escaped record)", ["games", "export", "1", "--db", str(c.work / "imported.sqlite3")], statuses=(0,))
    c.run("games show --json (escaped record)", ["games", "show", "1", "--json", "--db", str(c.work / "imported.sqlite3")],
          statuses=(0,))
    c.run("replay 1 (escaped record)", ["replay", "1", "--db", str(c.work / "imported.sqlite3")], statuses=(0,))
    c.run("unknown argument with escapes", ["games", "list", ESC])
    c.run("board virtual --drop nan", ["board", "virtual", "--drop", "nan"], statuses=(2,))

    # board configs
    ref = (ROOT / "hardware" / "boards" / "2x6-stores.json").read_text()
    configs = {
        "4301-digit integer": ref.replace('"format": 1', '"format": ' + "9" * 4301, 1),
        "1e999": ref.replace('"format": 1', '"format": 1e999', 1),
        "superscript digit": ref.replace('"format": 1', '"format": \u00b2', 1),
        "deep nesting": "[" * 100000,
        "binary": bytes(range(256)) * 8,
        "not UTF-8": ref.replace("Sowlight", "Sowl\xe9ght").encode("latin-1"),
        "control in name": ref.replace('"name": "', '"name": "\\u001b[31m', 1),
        "bidi in description": ref.replace('"description": "', '"description": "\\u202e', 1),
        "empty": "",
    }
    for label, text in configs.items():
        path = c.file("config-%s.json" % label.replace(" ", "-"), text)
        c.run("board config check (%s)" % label, ["board", "config", "check", path], statuses=(1,), says=": error: ")
        c.run("board config drawings (%s)" % label, ["board", "config", "drawings", path, "--out", str(c.work / "svg")],
              statuses=(1,))

    # damaged archives
    damaged = an_archive(c, "damaged.sqlite3", games=4)
    data = bytearray(Path(damaged).read_bytes())
    if len(data) >= 7 * 4096:
        data[5 * 4096:6 * 4096] = bytes(range(256)) * 16
    Path(damaged).write_bytes(bytes(data))
    short = an_archive(c, "short.sqlite3", games=2)
    os.truncate(short, os.path.getsize(short) - 1)
    notdb = c.file("notdb.sqlite3", b"SQLite format 3\x00" + bytes(range(256)) * 20)
    for label, path in (("page 6 overwritten", damaged), ("cut short by a byte", short), ("not a database", notdb)):
        for cmd in (["games", "list"], ["games", "show", "1", "--json"], ["games", "export", "--all"], ["replay", "1"],
                    ["games", "import", files["escape tags"]], ["games", "delete", "1", "--yes"]):
            c.run("%s (%s)" % (" ".join(cmd[:2]), label), cmd + ["--db", path], statuses=(1,), unchanged=path)
        c.run("play --no-board (%s)" % label, ["play", "--no-board", "--db", path], statuses=(1,), unchanged=path)
    c.run("games list (--db a folder)", ["games", "list", "--db", str(c.work)], statuses=(1,))

    # read-only archives: listed, and left exactly as they were
    for label in ("file", "folder"):
        folder = c.work / ("ro-" + label)
        folder.mkdir()
        path = str(folder / "a.sqlite3")
        shutil.copy(db, path)
        os.chmod(path if label == "file" else folder, 0o444 if label == "file" else 0o555)
        c.run("games list (read-only %s)" % label, ["games", "list", "--db", path], statuses=(0,), unchanged=path)
        c.run("games show 1 (read-only %s)" % label, ["games", "show", "1", "--db", path], statuses=(0,), unchanged=path)
        c.run("games delete 1 (read-only %s)" % label, ["games", "delete", "1", "--yes", "--db", path], statuses=(1,),
              unchanged=path)
        os.chmod(folder, 0o755)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=str(ROOT), help="the checkout whose sowlight is tried (default: this one)")
    ap.add_argument("--show", action="store_true", help="print every input and its outcome")
    args = ap.parse_args(argv)
    work = tempfile.mkdtemp(prefix="sowlight-campaign-")
    os.chmod(work, 0o755)
    c = Campaign(args.tree, work, show=args.show)
    try:
        campaign(c)
    finally:
        for folder in Path(work).glob("ro-*"):
            os.chmod(folder, 0o755)
        shutil.rmtree(work, ignore_errors=True)
    print("%s: %d inputs tried, %d clean (exit status as documented, a message, no traceback, nothing raw on the "
          "terminal, damaged or read-only archives left as they were), %d not" % (
              c.tree, c.tried, c.clean, c.tried - c.clean))
    for label, why in c.faults:
        print("  %s: %s" % (label.encode("ascii", "backslashreplace").decode(), "; ".join(why)))
    return 0 if not c.faults else 1


if __name__ == "__main__":
    sys.exit(main())
