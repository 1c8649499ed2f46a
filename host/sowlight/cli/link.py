"""`sowlight sync`, `sowlight board info|ports|selftest|calibrate`: the commands that talk to the board.

    sowlight sync [--port P | --url U | --vid V --pid P] [--db PATH] [--wait S] [--json]
    sowlight board info [--port P | --url U | --vid V --pid P] [--json]
    sowlight board ports
    sowlight board selftest [--port P ...] [--json]
    sowlight board calibrate [--step empty|full|save|cancel] [--yes] [--port P ...] [--json]

Without --port or --url the board is found by its USB ids (sowlight.board.ports); --vid
and --pid name other ids (ESP32 boards vary).
"""
import re
import sys

from sowlight_fw.link import codec
from sowlight_fw import config as fw_config

from sowlight.games import archive
from sowlight.terminal import harmless
from sowlight.board import link
from sowlight import paths
from sowlight.board import ports
from sowlight.terminal import progress
from sowlight.games.sync import SyncError, sync
from sowlight.cli.arguments import add_board_link

CAL_STEPS = ("empty", "full", "save", "cancel")


def register(sub, board_sub):
    p = sub.add_parser("sync", help="copy the board's journal into the archive, then let the board free it",
                       description="Fetch every record the archive lacks from the board's journal, store it, "
                                   "and acknowledge it so the board may delete it. Safe to cut off at any moment: "
                                   "the next sync completes it.")
    add_board_link(p)
    p.add_argument("--db", metavar="PATH", help="the archive file (default: $SOWLIGHT_DB, else the user data directory)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_guard("sync", cmd_sync))

    p = board_sub.add_parser("info", help="what the connected board says about itself (its hello, state, journal)")
    add_board_link(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_guard("board info", cmd_info))

    p = board_sub.add_parser("ports", help="list the serial ports, marking the ones that look like a board")
    p.set_defaults(func=_guard("board ports", cmd_ports))

    p = board_sub.add_parser("selftest", help="light every LED in turn and read every sensor of the board",
                             description="The board lights each LED in turn (watch that every one lights) and "
                                         "reads every sensor once; the readings and any problem it finds are "
                                         "printed. Exit status 1 when it finds a problem.")
    add_board_link(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_guard("board selftest", cmd_selftest))

    p = board_sub.add_parser("calibrate", help="calibrate the board's pit sensors: empty, then covered, then save",
                             description="Reads every sensor with the board empty, then with every pit covered, "
                                         "and saves the levels in the board's config. Without --step it guides "
                                         "you through the steps (on a virtual board it moves the seeds itself); "
                                         "with --step it does one step.")
    add_board_link(p)
    p.add_argument("--step", choices=CAL_STEPS,
                   help="one step: empty (read every cell empty), full (read every cell covered), save (write the "
                        "levels to the board's config), cancel (forget the readings)")
    p.add_argument("--yes", action="store_true", help="save without asking (the guided calibration)")
    p.add_argument("--json", action="store_true", help="print the readings as JSON")
    p.set_defaults(func=_guard("board calibrate", cmd_calibrate))


def _guard(name, command):
    def run(args):
        try:
            return command(args)
        except (ports.PortError, link.LinkError, archive.ArchiveError) as e:
            print("sowlight %s: %s" % (name, harmless.text(e)), file=sys.stderr)
            return 1
    return run


def _open_link(args, brief=False):
    opener = ports.opener(port=args.port, url=args.url, vid=args.vid, pid=args.pid)
    lk = link.Link(opener, reconnect_for=args.wait, brief=brief)
    try:
        lk.connect()
    except BaseException:
        lk.close()
        raise
    return lk, args.port or args.url or getattr(opener, "device", None)


def cmd_sync(args):
    lk, where = _open_link(args, brief=True)  # the board first: no archive file is made when there is no board
    try:
        store = archive.Archive(paths.archive_path(args.db))
        shown, bar = progress.sync_bar()
        try:
            report = sync(lk, store, progress=shown if bar.on else None)
        except SyncError as e:
            bar.close()
            if args.json and e.report is not None:
                print(harmless.json_dumps(_report_json(e.report, False), indent=1))
            raise
        finally:
            bar.close()
            store.close()
    finally:
        lk.close()
    if args.json:
        print(harmless.json_dumps(_report_json(report, True), indent=1))
    else:
        print(harmless.text(report.summary(), lines=True))
    return 1 if report.failed() else 0


def _report_json(r, finished):
    return {"board": r.board_id, "finished": finished, "complete": r.complete, "games": sorted(r.games),
            "stored": r.stored, "duplicates": r.duplicates, "fetched": r.fetched, "gaps": r.gaps,
            "acked": {str(g): v for g, v in sorted(r.acked.items())},
            "conflicts": {str(g): v for g, v in sorted(r.conflicts.items())},
            "lost": [list(x) for x in r.lost], "gone": r.gone, "damaged": [list(x) for x in r.damaged],
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
        print(harmless.json_dumps({"port": where, "hello": hello, "state": state, "uptime_ms": pong.get("up"),
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
    if isinstance(state.get("error"), str):
        rows.append(("error", state["error"]))      # (1.2) what the board flashes red for
    for k, v in rows:
        print("%-9s %s" % (k, harmless.text(v)))
    return 0


def cmd_ports(args):
    print(harmless.text(ports.listing(), lines=True))
    found = ports.candidates()
    if found:
        print("board%s: %s" % ("s" if len(found) > 1 else "", ", ".join(p.device for p in found)))
    else:
        print("no port has a known board's USB id (%s); give --port, or --vid/--pid for another board" % ", ".join(
            ports.usb_id_text(v, p) for v, p, _ in ports.KNOWN_BOARDS))
    return 0


# -- self-test and calibration ---------------------------------------------------------------

def _cell_label(hello, cell):
    """'pit C' (named as in the first game the board plays), 'store 0' for a board's store, else 'cell 5'."""
    names = _cell_names(hello)
    if cell in names:
        return names[cell]
    geo = (hello.get("config") or {}).get("geometry") or {}
    pits = geo.get("rows", 0) * geo.get("pits_per_row", 0)
    if pits and cell >= pits:
        return "store %d" % (cell - pits)
    return "cell %d" % cell


def _cell_names(hello):
    """{board cell: 'pit C' or 'store 0'} in the first game of the board's list that fits it."""
    import mancala
    from sowlight.board.view import BoardViewError, board_cells
    from sowlight.terminal.render import cell_name
    for variant in hello.get("variants") or ():
        try:
            game = mancala.Game(variant)
            gmap = board_cells(hello, game)
        except (mancala.RulesError, BoardViewError):
            continue
        return {b: ("pit " if i < game.n_pits else "") + cell_name(game, i) for i, b in enumerate(gmap) if b >= 0}
    return {}


def _readings(hello, values, per_line=4):
    """Readings per cell as lines: 'cell 0  31022   cell 1  31040 ...' ('-' where no sensor)."""
    items = ["%-8s %6s" % (_cell_label(hello, c), "-" if v is None or v < 0 else v) for c, v in enumerate(values)]
    return ["  " + "   ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def _sensor_kind(hello):
    return ((hello.get("config") or {}).get("sensors") or {}).get("kind", "?")


def cmd_selftest(args):
    lk, where = _open_link(args)
    try:
        hello = dict(lk.board_hello)
        reply = lk.request("self_test")
    finally:
        lk.close()
    report = reply.get("report", {})
    problems = report.get("problems", [])
    if args.json:
        print(harmless.json_dumps({"board": hello["board"], "port": where, "report": report}, indent=1, sort_keys=True))
        return 1 if problems else 0
    print(harmless.text("self-test of board %s on %s (%s sensors)" % (hello["board"], where or "?", _sensor_kind(hello))))
    print("leds      %d lit one after the other: each should have lit once (one that stayed dark is broken or "
          "wired out of order)" % report.get("leds", 0))
    print("readings  one per cell:")
    for line in _readings(hello, report.get("cells", [])):
        print(harmless.text(line))
    if problems:
        print("problems  %d:" % len(problems))
        for text in problems:
            text = re.sub(r"\bcell (\d+)", lambda m: _cell_label(hello, int(m.group(1))), text)
            print("  " + harmless.text(text))
        return 1
    print("problems  none")
    return 0


def cmd_calibrate(args):
    lk, where = _open_link(args)
    try:
        hello = dict(lk.board_hello)
        if args.step:
            return _calibrate_step(lk, hello, where, args)
        return _calibrate_guided(lk, hello, where, args, read=input)
    finally:
        lk.close()


def _calibrate_step(lk, hello, where, args):
    reply = lk.request("calibrate", {"step": args.step})
    readings = reply.get("readings")
    if args.json:
        print(harmless.json_dumps({"board": hello["board"], "port": where, "step": args.step, "readings": readings},
                                  indent=1, sort_keys=True))
        return 0
    if args.step in ("empty", "full"):
        print(harmless.text("%s: read every cell %s (board %s)" % (
            args.step, "empty" if args.step == "empty" else "covered", hello["board"])))
        for line in _readings(hello, readings or []):
            print(harmless.text(line))
        print("next: %s (unless done already), then `sowlight board calibrate --step save` (or --step cancel)"
              % ("cover every pit (seeds in each) and `sowlight board calibrate --step full`" if args.step == "empty"
                 else "take every seed off and `sowlight board calibrate --step empty`"))
    elif args.step == "save":
        print("saved: the board uses the new levels now (they are in its config file)")
    else:
        print("cancelled: the readings are forgotten, the board goes back to what it was doing")
    return 0


def _calibrate_guided(lk, hello, where, args, read=input):
    """Empty, full, then save (asked unless --yes); a virtual board's seeds are moved for the user."""
    virtual = bool(hello.get("virtual"))
    load_cells = _sensor_kind(hello) == "hx711"
    from sowlight_fw.service import CAL_SEEDS
    per_cell = CAL_SEEDS if load_cells else 1
    kept = None
    out = sys.stderr if args.json else sys.stdout

    def say(text):
        print(harmless.text(text), file=out)

    def wait(text):
        if virtual:
            return True
        try:
            read("%s, then press Enter (Ctrl-D cancels) " % text)
            return True
        except EOFError:
            say("")
            return False

    def measure(text, step, name):
        """Wait for the user (`text`), then read every cell for `step`: the readings, or None when cancelled."""
        if not wait(text):
            lk.request("calibrate", {"step": "cancel"})
            say("calibration cancelled")
            return None
        readings = lk.request("calibrate", {"step": step})["readings"]
        say("%s: read" % name)
        for line in _readings(hello, readings):
            say(line)
        return readings

    # Seeds taken off a board with a game in play would be taken for moves: the menu first (the
    # game waits there), and back to it at the end.
    state = lk.request("get_state")
    menu = state.get("game") is not None and state.get("phase") not in ("idle", "over") \
        and tuple(hello.get("proto", (1, 0))) >= (1, 1)
    if menu:
        lk.request("press", {"button": "menu"})
        say("the board shows its menu while it calibrates: the game waits")
    try:
        if virtual:
            kept = lk.request("sim", {"act": "seeds"})["counts"]
            for c, k in enumerate(kept):
                if k:
                    lk.request("sim", {"act": "remove", "cell": c})
            say("virtual board: every seed taken off (they go back at the end)")
        empty = measure("Take every seed off the board", "empty", "empty")
        if empty is None:
            return 1
        if virtual:
            for c in range(len(empty)):
                lk.request("sim", {"act": "add", "cell": c, "n": per_cell})
            say("virtual board: %d seed%s put in every cell" % (per_cell, "" if per_cell == 1 else "s"))
        full = measure("Put %s in every pit and store" % ("%d seeds" % per_cell if load_cells else "seeds"), "full",
                       "covered")
        if full is None:
            return 1
        weak = _weak_cells(empty, full, load_cells, per_cell)
        for c, span in weak:
            say("  %s: empty and covered differ by only %d: check its sensor (it may not tell seeds from none)"
                % (_cell_label(hello, c), span))
        save = args.yes or virtual
        if not save:
            try:
                answer = read("save these levels to the board? [Y/n] ").strip().lower()
            except EOFError:
                answer = "n"
            save = answer in ("", "y", "yes")
        lk.request("calibrate", {"step": "save" if save else "cancel"})
        say("saved: the board uses the new levels now" if save else "not saved: the board keeps its old levels")
    except BaseException:
        try:
            lk.request("calibrate", {"step": "cancel"})
        except link.LinkError:
            pass
        raise
    finally:
        if kept is not None:
            _restore(lk, kept)
        if menu:
            lk.request("press", {"button": "menu"})
            say("back to the game")
    if args.json:
        print(harmless.json_dumps({"board": hello["board"], "port": where, "empty": empty, "full": full, "saved": save,
                                   "weak": [c for c, _ in weak]}, indent=1, sort_keys=True))
    return 1 if weak else 0


def _weak_cells(empty, full, load_cells, per_cell):
    """(cell, span) of the cells whose covered reading is too close to the empty one (per seed on load cells)."""
    least = fw_config.MIN_COUNTS_PER_SEED if load_cells else fw_config.MIN_SPAN
    out = []
    for c, (e, f) in enumerate(zip(empty, full)):
        if e is None or f is None or e < 0 or f < 0:
            continue
        span = abs(f - e) // per_cell if load_cells else abs(f - e)
        if span < least:
            out.append((c, span))
    return out


def _restore(lk, counts):
    """Put a virtual board's seeds back as they were before the calibration."""
    now = lk.request("sim", {"act": "seeds"})["counts"]
    for c, (have, want) in enumerate(zip(now, counts)):
        if have > want:
            lk.request("sim", {"act": "remove", "cell": c, "n": have - want})
        elif have < want:
            lk.request("sim", {"act": "add", "cell": c, "n": want - have})
