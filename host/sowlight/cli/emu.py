"""`sowlight board emu`: the firmware image on an emulated RP2040 behind a pseudo-terminal, until Ctrl-C.

    sowlight board emu [--preset P | --config FILE] [--uf2 FILE] [--journal FILE] [--bootrom FILE] [--drive DIR]

The first line printed is the port's path (for scripts: read one line, open
it); the second says what the board is.  Then it runs until Ctrl-C or
SIGTERM, writes the flash's filesystem to --journal FILE, and exits 0.
"""
import signal
import sys

from sowlight.cli.arguments import add_boards


def register(sub, board_sub):
    p = board_sub.add_parser(
        "emu", help="run the firmware image on an emulated RP2040 (rp2040js) behind a pseudo-terminal",
        description="Boot the board's firmware image (`sowlight firmware build`) on an emulated RP2040 under Node.js, "
                    "with simulated seeds seen through the pins the board config names (multiplexed ADC, HX711s, "
                    "buttons) and its LED strip decoded from the data pin, behind a pseudo-terminal that pyserial, "
                    "`sowlight sync --port`, `sowlight play --port` and mpremote open like a Pico's USB port. Prints "
                    "the port's path first. Seeds are moved with `sim` requests (docs/protocol.md). Runs until "
                    "Ctrl-C or SIGTERM.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--preset", metavar="P", help="the board: a preset name (`sowlight board presets`) "
                                                     "(default: the journal's board.json, else 2x6-stores)")
    which.add_argument("--config", metavar="FILE", help="... or a board config file")
    add_boards(p)
    p.add_argument("--uf2", metavar="FILE", help="the firmware image, .uf2 or .bin (default: $SOWLIGHT_FIRMWARE_IMAGE, else the one `sowlight firmware build` wrote)")
    p.add_argument("--journal", metavar="FILE", help="keep the flash's filesystem (journal, board.json, files deployed) "
                                                     "in FILE across runs (default: a new one each run)")
    p.add_argument("--bootrom", metavar="FILE", help="the RP2040 B1 boot ROM (default: $SOWLIGHT_BOOTROM, or "
                                                     "rp2040-bootrom-b1.bin beside the image)")
    p.add_argument("--drive", metavar="DIR", help="the folder that plays the Pico's BOOTSEL drive (RPI-RP2) after "
                                                  "machine.bootloader(): `sowlight deploy --port PORT --drive DIR` "
                                                  "flashes a new image onto the emulated board (default: a folder "
                                                  "of its own, printed when it appears)")
    p.set_defaults(func=cmd_emu)


def cmd_emu(args, out=None, err=None):
    from sowlight.simulation.emuboard import EmuBoard, EmuBoardError
    from sowlight.simulation import stop_on_signals
    out = out or sys.stdout
    err = err or sys.stderr
    board = EmuBoard(preset=args.preset, config=args.config, uf2=args.uf2, journal=args.journal,
                     bootrom=args.bootrom, boards=args.boards, drive=args.drive,
                     say=lambda text: print(text, file=err))
    previous = stop_on_signals()
    try:
        try:
            path = board.start()
        except EmuBoardError as e:
            print("sowlight board emu: %s" % e, file=err)
            return 1
        print(path, file=out, flush=True)
        print(board.describe(), file=out, flush=True)
        try:
            while board.running:
                board.wait(0.5)
        except KeyboardInterrupt:
            pass
        if board.error is not None:
            print("sowlight board emu: the emulator stopped: %s" % board.error, file=err)
            return 1
        return 0
    finally:
        try:
            board.stop()
        except EmuBoardError as e:
            print("sowlight board emu: %s" % e, file=err)
        for s, handler in previous.items():
            signal.signal(s, handler)
