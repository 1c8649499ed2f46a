"""Finding the board's serial port, and opening a port or URL with errors a person can act on.

    path = find_board()                       # the one attached board, by USB vendor:product id
    path = find_board(vid=0x303A, pid=0x1001) # another board
    port = open_port(path)                    # a pyserial Serial, 115200 8N1, locked for us alone
    port = open_url("socket://127.0.0.1:7000")

Which boards are looked for (`KNOWN_BOARDS`):

- 2E8A:0005 -- MicroPython on the Raspberry Pi Pico / RP2040 (the reference build).
- 303A:1001 -- ESP32-S3, -C3, -C6 through their built-in "USB Serial/JTAG" port.

Other ESP32 boards differ: classic ESP32 boards reach USB through a bridge chip
(CP210x 10C4:EA60, CH340 1A86:7523, CH9102 1A86:55D4, FTDI 0403:6001) and
S2/S3 boards running TinyUSB have a per-board id under Espressif's 303A.  Those
ids are shared with countless other gadgets, so they are not guessed: give
`--vid`/`--pid` (the ids `sowlight board ports` shows), or `--port`.

Every failure is a PortError whose message says what to do: no board found
(list the ports, or give --port), several found, no such port, port busy,
permission denied (the dialout group or a udev rule).
"""
import errno
import sys

import serial
from serial.tools import list_ports

BAUD = 115200  # ignored by USB CDC, but a UART bridge needs it

KNOWN_BOARDS = (
    (0x2E8A, 0x0005, "Raspberry Pi Pico / RP2040 running MicroPython"),
    (0x303A, 0x1001, "ESP32-S3/C3/C6 USB Serial/JTAG"),
)

# Ids that are probably a board but also many other things: named in listings, never picked.
BRIDGES = {
    (0x10C4, 0xEA60): "CP210x USB-UART bridge (many ESP32 boards)",
    (0x1A86, 0x7523): "CH340 USB-UART bridge (many ESP32 boards)",
    (0x1A86, 0x55D4): "CH9102 USB-UART bridge (many ESP32 boards)",
    (0x0403, 0x6001): "FTDI USB-UART bridge",
}

_LIST_HINT = "`sowlight board ports` (or `python -m serial.tools.list_ports -v`) lists the serial ports"


class PortError(Exception):
    """The port could not be found or opened; the message says why and what to do."""


class NoBoardError(PortError):
    """No attached port has the board's USB ids."""


class ManyBoardsError(PortError):
    """More than one port has the board's USB ids."""


class PortNotFoundError(PortError):
    """The named port does not exist (unplugged, or a wrong name)."""


class PortBusyError(PortError):
    """Another program has the port open."""


class PortPermissionError(PortError):
    """The user may not open the port."""


def parse_usb_id(text):
    """A vendor or product id from the command line: '2e8a', '2E8A' or '0x2e8a' -> 0x2E8A."""
    t = str(text).strip().lower()
    if t.startswith("0x"):
        t = t[2:]
    try:
        value = int(t, 16)
    except ValueError:
        value = -1
    if not t or len(t) > 4 or not 0 <= value <= 0xFFFF:
        raise PortError("%r is not a USB id: give 4 hex digits, e.g. 2e8a" % text)
    return value


def usb_id_text(vid, pid):
    return "%04X:%04X" % (vid, pid)


def _ports(comports):
    return list(list_ports.comports() if comports is None else comports)


def _wanted(vid, pid):
    """The (vid, pid) pairs to look for; None in a pair matches any."""
    if vid is None and pid is None:
        return [(v, p) for v, p, _ in KNOWN_BOARDS]
    return [(vid, pid)]


def candidates(vid=None, pid=None, serial_number=None, comports=None):
    """The ports (pyserial ListPortInfo) whose USB ids match the board's, by device name."""
    wanted = _wanted(vid, pid)
    out = []
    for p in _ports(comports):
        if p.vid is None:
            continue
        for v, d in wanted:
            if (v is None or p.vid == v) and (d is None or p.pid == d):
                if serial_number is None or p.serial_number == serial_number:
                    out.append(p)
                break
    out.sort(key=lambda p: p.device)
    return out


def describe(port):
    """One line about a port: device, USB ids, what it is."""
    if port.vid is None:
        ids = "no USB ids"
        what = port.description or ""
    else:
        ids = usb_id_text(port.vid, port.pid)
        what = _known_name(port.vid, port.pid) or port.description or ""
    extra = " serial %s" % port.serial_number if getattr(port, "serial_number", None) else ""
    return "%-20s %-11s %s%s" % (port.device, ids, what, extra)


def _known_name(vid, pid):
    for v, p, name in KNOWN_BOARDS:
        if (v, p) == (vid, pid):
            return name + " (a Sowlight board?)"
    return BRIDGES.get((vid, pid))


def listing(comports=None):
    """Every serial port, one line each (for `sowlight board ports` and error messages)."""
    ports = sorted(_ports(comports), key=lambda p: p.device)
    if not ports:
        return "(no serial ports at all: is the board plugged in, with a data cable rather than a charge-only one?)"
    return "\n".join("  " + describe(p) for p in ports)


def find_board(vid=None, pid=None, serial_number=None, comports=None):
    """The device path of the one attached board; PortError when there is none or several."""
    found = candidates(vid, pid, serial_number, comports)
    if len(found) == 1:
        return found[0].device
    if vid is None and pid is None:
        looked = ", ".join("%s (%s)" % (usb_id_text(v, p), name) for v, p, name in KNOWN_BOARDS)
    else:
        looked = "%s:%s" % ("%04X" % vid if vid is not None else "any", "%04X" % pid if pid is not None else "any")
    if not found:
        raise NoBoardError(
            "no board found: no serial port has the USB id %s. The serial ports here:\n%s\n"
            "Plug the board in, or name its port with --port (e.g. --port /dev/ttyACM0 or COM3); "
            "an ESP32 board with another id needs --vid/--pid." % (looked, listing(comports)))
    raise ManyBoardsError(
        "%d boards found (%s): say which one with --port:\n%s"
        % (len(found), looked, "\n".join("  " + describe(p) for p in found)))


# -- opening -------------------------------------------------------------------------

def explain_open_error(exc, port):
    """The PortError for an exception raised while opening `port` (SerialException or OSError)."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "FileNotFoundError" in text \
            or "cannot find the file" in text:
        return PortNotFoundError(
            "there is no serial port %s (unplugged, or another name): %s, or let sowlight find the board "
            "(leave out --port)" % (port, _LIST_HINT))
    if code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK) or "exclusively lock" in text \
            or (sys.platform.startswith("win") and ("PermissionError" in text or "Access is denied" in text)):
        # On Windows an open port held by someone else is "access denied".
        return PortBusyError(
            "%s is in use by another program (a serial monitor, mpremote, Thonny, another sowlight): "
            "close it and try again%s" % (port, "" if sys.platform.startswith("win") else
                                          " (`fuser %s` shows who has it)" % port))
    if code in (errno.EACCES, errno.EPERM):
        return PortPermissionError(
            "permission denied opening %s: on Linux add yourself to the group that owns it "
            "(`ls -l %s` shows it: usually dialout, uucp on Arch/Fedora): "
            "`sudo usermod -aG dialout $USER`, then log out and back in; or install a udev rule such as "
            "SUBSYSTEM==\"tty\", ATTRS{idVendor}==\"2e8a\", ATTRS{idProduct}==\"0005\", TAG+=\"uaccess\" "
            "in /etc/udev/rules.d/60-sowlight.rules" % (port, port))
    return PortError("cannot open %s: %s" % (port, text))


def open_port(port, timeout=0.5, exclusive=True):
    """A pyserial Serial on `port` (a device path or COMn), 115200 8N1.

    `exclusive` takes a lock on POSIX, so that two programs never share the
    board's port (each would steal the other's bytes)."""
    kwargs = {"baudrate": BAUD, "timeout": timeout}
    if exclusive and not sys.platform.startswith("win"):
        kwargs["exclusive"] = True
    try:
        return serial.Serial(port, **kwargs)
    except (serial.SerialException, OSError) as e:
        raise explain_open_error(e, port) from None


def open_url(url, timeout=0.5):
    """A pyserial port for a URL: socket://host:port, rfc2217://host:port, loop://, or a plain path."""
    try:
        return serial.serial_for_url(url, baudrate=BAUD, timeout=timeout)
    except ValueError as e:
        raise PortError("cannot use %s: %s (URLs look like socket://HOST:PORT, rfc2217://HOST:PORT, loop://)"
                        % (url, e)) from None
    except (serial.SerialException, OSError) as e:
        if "://" not in url:
            raise explain_open_error(e, url) from None
        raise PortError("cannot open %s: %s" % (url, e)) from None


def opener(port=None, url=None, vid=None, pid=None, serial_number=None, timeout=0.5):
    """A function that opens the board's transport, for Link: called again on every reconnect.

    With neither port nor url, the board is looked up by its USB ids each
    time, so a board that comes back under another name (ttyACM0 -> ttyACM1
    after a replug) is found again -- the same board: once found, its USB
    serial number is required too."""
    if port is not None and url is not None:
        raise PortError("give --port or --url, not both")
    if url is not None:
        return lambda: open_url(url, timeout)
    if port is not None:
        return lambda: open_port(port, timeout)
    return _BoardOpener(vid, pid, serial_number, timeout)


class _BoardOpener:
    def __init__(self, vid, pid, serial_number, timeout):
        self.vid, self.pid, self.serial_number, self.timeout = vid, pid, serial_number, timeout
        self.device = None  # the path it was found at last

    def __call__(self):
        found = candidates(self.vid, self.pid, self.serial_number)
        if len(found) == 1 and self.serial_number is None and found[0].serial_number:
            self.serial_number = found[0].serial_number
        self.device = find_board(self.vid, self.pid, self.serial_number)
        return open_port(self.device, self.timeout)
