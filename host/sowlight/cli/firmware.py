"""`sowlight firmware build`: the board's firmware image, MicroPython with Sowlight frozen in (docs/cli.md).

    sowlight firmware build [--board RPI_PICO] [--micropython DIR] [--out DIR] [--build-dir DIR] [--jobs N]
"""
import sys


def register(sub, board_sub):
    fw = sub.add_parser("firmware", help="the board's firmware image: build MicroPython with Sowlight frozen in",
                        description="The board's firmware image (docs/firmware.md, \"The firmware image\").")
    fw_sub = fw.add_subparsers(dest="firmware_command", metavar="FIRMWARE_COMMAND")
    fw.set_defaults(func=lambda args: (fw.print_help(), 2)[1])
    p = fw_sub.add_parser("build", help="build MicroPython's rp2 port with firmware/manifest.py frozen in (.uf2, .bin)",
                          description="Build MicroPython v1.27's rp2 port with Sowlight (firmware/manifest.py) frozen "
                                      "into it, and write a .uf2 and a .bin named with the board, MicroPython's and "
                                      "Sowlight's versions. Needs a MicroPython v1.27.0 checkout with the rp2 "
                                      "submodules (or a tarball of one) and the ARM toolchain.")
    p.add_argument("--board", default="RPI_PICO", help="MicroPython's board name (default RPI_PICO)")
    p.add_argument("--micropython", metavar="DIR",
                   help="MicroPython's sources: a v1.27.0 checkout with its rp2 submodules, or a .tar.xz of one "
                        "(default: $SOWLIGHT_MICROPYTHON)")
    p.add_argument("--out", metavar="DIR", help="where the .uf2 and .bin go (default: ~/.cache/sowlight/firmware/images, where `sowlight deploy` looks)")
    p.add_argument("--build-dir", metavar="DIR", help="the build folder, reused by rebuilds "
                                                       "(default: ~/.cache/sowlight/firmware)")
    p.add_argument("--jobs", type=int, metavar="N", help="parallel compile jobs (default: the number of CPUs)")
    p.set_defaults(func=cmd_build)


def cmd_build(args):
    from sowlight.firmware import image as firmware_image
    from sowlight.terminal import progress
    bar = progress.Bar("building")

    def say(text):
        bar.close()
        print("firmware build: " + text, file=sys.stderr)

    try:
        uf2 = firmware_image.build(args.board, args.micropython, args.out, args.build_dir, args.jobs, say=say,
                                   progress=lambda percent, stage: bar.show(percent, 100, stage))
    except firmware_image.BuildError as e:
        bar.close()
        print("sowlight firmware build: %s" % e, file=sys.stderr)
        return 1
    bar.close()
    print(uf2)
    print(uf2[:-len("uf2")] + "bin")
    return 0
