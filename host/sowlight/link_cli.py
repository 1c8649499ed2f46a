"""`sowlight sync`, `sowlight board info`, `sowlight board ports`: the commands that talk to the board.

    sowlight sync [--port P | --url U | --vid V --pid P] [--db PATH] [--wait S] [--json]
    sowlight board info [--port P | --url U | --vid V --pid P] [--json]
    sowlight board ports

Without --port or --url the board is found by its USB ids (ports.py); --vid
and --pid name other ids (ESP32 boards vary).
"""
import argparse
import json
import sys

from sowlight_fw import codec

from . import archive, link, paths, ports
from .sync import SyncError, sync


def register(sub, board_sub):
    p = sub.add_parser("sync", help="copy the board's journal into the archive, then let the board free it",
                       description="Fetch every record the archive lacks from the board's journal, store it, "
                                   "and acknowledge it so the board may delete it. Safe to cut off at any moment: "
                                   "the next sync completes it.")
    _where(p)
    p.add_argument("--db", metavar="PATH", help="the archive file (default: $SOWLIGHT_DB, else the user data directory)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_guard("sync", cmd_sync))

    p = board_sub.add_parser("info", help="what the connected board says about itself (its hello, state, journal)")
    _where(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_guard("board info", cmd_info))

    p = board_sub.add_parser("ports", help="list the serial ports, marking the ones that look like a board")
    p.set_defaults(func=_guard("board ports", cmd_ports))


def _where(p):
    g = p.add_mutually_exclusive_group()
    g.add_argument("--port", metavar="PORT", help="the board's serial port (/dev/ttyACM0, COM3, ...)")
    g.add_argument("--url", metavar="URL", help="a pyserial URL: socket://HOST:PORT, rfc2217://HOST:PORT")
    p.add_argument("--vid", type=_usb_id, metavar="HEX", help="find the board by this USB vendor id")
    p.add_argument("--pid", type=_usb_id, metavar="HEX", help="... and this product id")
    p.add_argument("--wait", type=float, default=10.0, metavar="S",
                   help="how long to wait for the board to come back when the cable comes out (default 10)")


def _usb_id(text):
    try:
        return ports.parse_usb_id(text)
    except ports.PortError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _guard(name, command):
    def run(args):
        try:
            return command(args)
        except (ports.PortError, link.LinkError, archive.ArchiveError) as e:
            print("sowlight %s: %s" % (name, e), file=sys.stderr)
            return 1
    return run


def _open_link(args):
    opener = ports.opener(port=args.port, url=args.url, vid=args.vid, pid=args.pid)
    lk = link.Link(opener, reconnect_for=args.wait)
    try:
        lk.connect()
    except BaseException:
        lk.close()
        raise
    return lk, args.port or args.url or getattr(opener, "device", None)


def cmd_sync(args):
    lk, where = _open_link(args)  # the board first: no archive file is made when there is no board
    try:
        store = archive.Archive(paths.archive_path(args.db))
        try:
            report = sync(lk, store)
        except SyncError as e:
            if args.json and e.report is not None:
                print(json.dumps(_report_json(e.report, False), indent=1))
            raise
        finally:
            store.close()
    finally:
        lk.close()
    if args.json:
        print(json.dumps(_report_json(report, True), indent=1))
    else:
        print(report.summary())
    return 0


def _report_json(r, finished):
    return {"board": r.board_id, "finished": finished, "complete": r.complete, "games": sorted(r.games),
            "stored": r.stored, "duplicates": r.duplicates, "fetched": r.fetched, "gaps": r.gaps,
            "acked": {str(g): v for g, v in sorted(r.acked.items())},
            "conflicts": {str(g): v for g, v in sorted(r.conflicts.items())},
            "lost": [list(x) for x in r.lost], "gone": r.gone,
            "problems": {str(g): v for g, v in sorted(r.problems.items())}}


def cmd_info(args):
    lk, where = _open_link(args)
    try:
        hello = dict(lk.board_hello)
        state = lk.request("get_state")
        pong = lk.request("ping")
        games = []
        start = 0
        while True:  # the listing, page by page (a board without pages sends it whole)
            reply = lk.request("journal_list", {"from": start, "max": 32})
            page = [g for g in reply["games"] if g["game"] >= start]
            games += page
            if not reply.get("more") or not page:
                break
            start = max(g["game"] for g in page) + 1
    finally:
        lk.close()
    hello.pop("re", None)
    if args.json:
        print(json.dumps({"port": where, "hello": hello, "state": state, "uptime_ms": pong.get("up"),
                          "journal": games}, indent=1, sort_keys=True))
        return 0
    cfg = hello.get("config", {})
    geo = cfg.get("geometry", {})
    sensors = cfg.get("sensors", {})
    cells = sensors.get("cells")
    rows = [("board", hello["board"]),
            ("port", where or "?"),
            ("firmware", hello["sw"]),
            ("protocol", "%d.%d (this companion speaks %d.%d)" % (hello["proto"][0], hello["proto"][1],
                                                                  codec.PROTO_MAJOR, codec.PROTO_MINOR)),
            ("geometry", ", ".join("%s %s" % (k, geo[k]) for k in sorted(geo)) or "?"),
            ("sensors", "%s on %s cells" % (sensors.get("kind", "?"), len(cells) if isinstance(cells, list) else cells)),
            ("leds", str(cfg.get("leds", "?"))),
            ("variants", ", ".join(hello.get("variants", []))),
            ("game", "none" if state["game"] is None else "%d (%s, ply %d, %s)" % (
                state["game"], state["variant"], state["ply"], state["phase"])),
            ("uptime", "%.1f s" % (pong["up"] / 1000.0) if "up" in pong else "?"),
            ("journal", "%d game%s, %d not yet synced" % (
                len(games), "" if len(games) == 1 else "s", sum(1 for g in games if g["synced"] < g["last"])))]
    for k, v in rows:
        print("%-9s %s" % (k, v))
    return 0


def cmd_ports(args):
    print(ports.listing())
    found = ports.candidates()
    if found:
        print("board%s: %s" % ("s" if len(found) > 1 else "", ", ".join(p.device for p in found)))
    else:
        print("no port has a known board's USB id (%s); give --port, or --vid/--pid for another board" % ", ".join(
            ports.usb_id_text(v, p) for v, p, _ in ports.KNOWN_BOARDS))
    return 0
