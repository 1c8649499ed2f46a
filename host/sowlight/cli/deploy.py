"""`sowlight deploy`: put Sowlight and a config on a board (docs/cli.md).

    sowlight deploy [--port P] [--preset NAME | --config FILE] [--uf2 FILE] [--drive DIR] [--dry-run] [--json]
    sowlight deploy --mpy [--port P] [--preset NAME | --config FILE] [--variants a,b | all]
                    [--dry-run] [--no-compile] [--json] [--wait S]

By default the firmware image (`sowlight firmware build`: MicroPython with
Sowlight frozen in) is flashed, through the Pico's BOOTSEL drive or picotool,
and only the config is written to its filesystem.  --mpy copies the app as
.mpy files onto a stock MicroPython instead (for development).  Without --port
the board is found by its USB ids.  Without --preset or --config the board
keeps the config it has.  --dry-run prints the plan without touching the board.
"""
import sys

from sowlight.terminal import harmless
from sowlight.cli.arguments import add_boards


def register(sub, board_sub):
    p = sub.add_parser("deploy", help="flash the firmware image and put a board config on a board",
                       description="Flash the firmware image (MicroPython with Sowlight frozen in) through the Pico's "
                                   "BOOTSEL drive or picotool and write the board's config; with --mpy, compile the "
                                   "firmware and the rules for the board's MicroPython and copy them instead. Then "
                                   "reset the board and check that the app answers.")
    p.add_argument("--port", metavar="PORT", help="the board's serial port (default: the one attached board, found by its USB ids)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--preset", metavar="NAME", help="the board's config: a preset (`sowlight board presets`)")
    which.add_argument("--config", metavar="FILE", help="the board's config: a file (checked first)")
    add_boards(p)
    p.add_argument("--variants", metavar="A,B", help="the variants to put on the board (default: every one that fits "
                                                        "its config; `all`: every playable one)")
    p.add_argument("--mpy", action="store_true", help="copy the app as .mpy files onto the board's MicroPython "
                                                    "instead of flashing the image (development)")
    p.add_argument("--uf2", metavar="FILE", help="the image to flash (default: the one `sowlight firmware build` "
                                                 "wrote for this Sowlight)")
    p.add_argument("--drive", metavar="DIR", help="the Pico's BOOTSEL drive (default: found among mounted drives)")
    p.add_argument("--dry-run", action="store_true", help="print the plan (files, sizes, dependencies, where they go); "
                                                         "the board is not touched")
    p.add_argument("--no-compile", action="store_true", help="copy the .py sources instead of compiling them with mpy-cross")
    p.add_argument("--json", action="store_true", help="print the plan (and the board's hello) as JSON")
    p.add_argument("--wait", type=float, default=20.0, metavar="S",
                   help="how long a board may take to come back after a reset (default 20)")
    p.set_defaults(func=cmd_deploy)


def _variants(text):
    if text is None:
        return None
    if text.strip().lower() == "all":
        return "all"
    return [v.strip() for v in text.split(",") if v.strip()]


def _size(n):
    return "%d B" % n if n < 1024 else "%.1f KB" % (n / 1024.0)


def describe(plan, dry_run):
    """The plan as text, one line per file."""
    from sowlight.hardware.presets import summary
    t = plan.target
    lines = []
    if dry_run:
        lines.append("deploy plan (dry run: nothing is sent to the board; a deploy asks the board what it runs "
                     "and compiles for that)")
    lines.append("target     %s" % t.describe())
    lines.append("config     %s -> /board.json (%s)" % (plan.config_source, summary(plan.board)))
    playable = len(__import__("mancala").variants())
    lines.append("variants   %s (%d of %d playable; the menu offers %s)" % (
        ", ".join(plan.variants), len(plan.variants), playable,
        "all of them" if plan.fitting == plan.variants else ", ".join(plan.fitting)))
    lines.append("files      %d, %s%s" % (len(plan.items), _size(plan.total),
                                          ", compiled with mpy-cross %s" % " ".join(t.mpy_cross_args())
                                          if plan.compiled else ", as .py sources"))
    width = max(len(i.target) for i in plan.items)
    for i in plan.items:
        lines.append("  %-*s %9s  <- %s%s" % (width, i.target, _size(i.size), i.source, " (%s)" % i.note if i.note else ""))
    for package, status in plan.deps:
        lines.append("needs      %s (micropython-lib): %s" % (package, status))
    if t.known:
        if plan.remove:
            lines.append("removes    %s (left by an earlier deploy)" % ", ".join(plan.remove))
    else:
        lines.append("removes    files under /sowlight_fw and /lib/mancala that are not in the plan (an earlier deploy's)")
    lines.append("then       /main.py is written last, the board is reset and its hello checked")
    return "\n".join(lines)


def _deploy_image(args, config_file):
    from sowlight.firmware import deploy
    uf2 = args.uf2 or deploy.firmware_image.default_image()
    source = deploy._relative(config_file) if config_file else None
    if config_file:
        deploy.read_config(config_file)         # a bad config is refused before anything else
    if args.dry_run:
        lines = deploy.image_plan(uf2, source, args.drive)
        if args.json:
            print(harmless.json_dumps({"dry_run": True, "image": uf2, "drive": args.drive, "config": source}, indent=1))
        else:
            print("deploy plan (dry run: nothing is written)")
            print(harmless.text("\n".join(lines), lines=True))
        return 0

    def say(text):
        if not args.json:
            print("deploy: " + harmless.text(text), file=sys.stderr)
    hello = deploy.deploy_image(args.port, uf2, config_file, args.drive, say=say, wait=args.wait)
    if args.json:
        print(harmless.json_dumps({"image": uf2, "hello": hello}, indent=1))
    else:
        print(harmless.text("deployed   %s: board %s, %s" % (hello.get("sw"), hello.get("board"),
                                                            "protocol %s" % ".".join(str(x) for x in hello.get("proto", [])))))
    return 0


def cmd_deploy(args):
    from sowlight.firmware import deploy
    from sowlight.hardware import presets
    from sowlight.board import link
    from sowlight.board import ports
    from sowlight.terminal import progress
    try:
        config_file = None
        if args.preset or args.config:
            config_file = presets.resolve(args.preset or args.config, args.boards)
        variants = _variants(args.variants)
        if not args.mpy:
            return _deploy_image(args, config_file)
        if args.dry_run:
            if config_file is None:
                raise deploy.DeployError("a dry run does not ask the board for its config: give --preset NAME or --config FILE")
            board, data = deploy.read_config(config_file)
            plan = deploy.make_plan(board, data, deploy._relative(config_file), deploy.Target.REFERENCE, variants,
                                    compile=not args.no_compile)
            if args.json:
                print(harmless.json_dumps(dict(plan.as_json(), dry_run=True), indent=1))
            else:
                print(harmless.text(describe(plan, True), lines=True))
            return 0
        port = args.port or ports.find_board()
        bar = progress.Bar("copying")       # drawn on stderr only when it is a terminal

        def say(text):
            bar.close()
            if not args.json:
                print("deploy: " + harmless.text(text), file=sys.stderr)
        try:
            plan, hello = deploy.deploy(port, config_file, variants, compile=not args.no_compile, say=say, wait=args.wait,
                                        progress=lambda done, total, name: bar.show(done, total, "bytes " + name))
        finally:
            bar.close()
        if args.json:
            print(harmless.json_dumps({"port": port, "plan": plan.as_json(), "hello": hello}, indent=1))
        else:
            print(harmless.text(describe(plan, False), lines=True))
            print(harmless.text("deployed   %s on %s: board %s, %s (%d variant%s in its menu)" % (
                hello.get("sw"), port, hello.get("board"), "protocol %s" % ".".join(str(x) for x in hello.get("proto", [])),
                len(hello.get("variants", [])), "" if len(hello.get("variants", [])) == 1 else "s")))
        return 0
    except (deploy.DeployError, presets.PresetError, ports.PortError, link.LinkError) as e:
        print("sowlight deploy: %s" % harmless.text(e), file=sys.stderr)
        return 1
