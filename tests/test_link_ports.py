"""Finding the board's port by USB ids, and the errors a person gets when a port cannot be opened
(host/sowlight/board/ports.py)."""
import errno
import os

import pytest
import serial
from serial.tools import list_ports, list_ports_common

from sowlight.board import ports


def port(device, vid=None, pid=None, serial_number=None, description="n/a"):
    p = list_ports_common.ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.serial_number, p.description = vid, pid, serial_number, description
    return p


PICO = port("/dev/ttyACM0", 0x2E8A, 0x0005, "e6614103e7452d2f", "Board in FS mode")
PICO2 = port("/dev/ttyACM1", 0x2E8A, 0x0005, "e661410300000000", "Board in FS mode")
S3 = port("/dev/ttyACM2", 0x303A, 0x1001, "F4:12:FA:00:11:22", "USB JTAG/serial debug unit")
CH340 = port("/dev/ttyUSB0", 0x1A86, 0x7523, None, "USB Serial")
UART = port("/dev/ttyS0")


def test_usb_ids_from_the_command_line():
    assert ports.parse_usb_id("2e8a") == ports.parse_usb_id("0x2E8A") == 0x2E8A
    for bad in ("", "zz", "12345", "-1", "0x"):
        with pytest.raises(ports.PortError, match="not a USB id"):
            ports.parse_usb_id(bad)


def test_the_one_board_is_found():
    assert ports.find_board(comports=[UART, CH340, PICO]) == "/dev/ttyACM0"
    assert ports.find_board(comports=[UART, S3]) == "/dev/ttyACM2"


def test_bridge_chips_are_only_used_when_asked_for():
    with pytest.raises(ports.NoBoardError):
        ports.find_board(comports=[UART, CH340])
    assert ports.find_board(vid=0x1A86, pid=0x7523, comports=[UART, CH340, PICO]) == "/dev/ttyUSB0"
    assert ports.find_board(vid=0x1A86, comports=[UART, CH340]) == "/dev/ttyUSB0"  # any product of that vendor


def test_no_board_says_what_is_there_and_what_to_do():
    with pytest.raises(ports.NoBoardError) as e:
        ports.find_board(comports=[UART, CH340])
    text = str(e.value)
    assert "no board found" in text and "2E8A:0005" in text
    assert "/dev/ttyUSB0" in text and "1A86:7523" in text and "CH340" in text  # the ports, listed
    assert "--port" in text and "--vid/--pid" in text
    with pytest.raises(ports.NoBoardError, match="no serial ports at all"):
        ports.find_board(comports=[])


def test_two_boards_ask_which():
    with pytest.raises(ports.ManyBoardsError) as e:
        ports.find_board(comports=[PICO2, PICO])
    assert "2 boards found" in str(e.value) and "/dev/ttyACM0" in str(e.value) and "/dev/ttyACM1" in str(e.value)
    assert ports.find_board(serial_number="e661410300000000", comports=[PICO2, PICO]) == "/dev/ttyACM1"


def test_the_opener_sticks_to_the_board_it_found(monkeypatch):
    present = [UART, PICO]
    monkeypatch.setattr(list_ports, "comports", lambda: list(present))
    opened = []
    monkeypatch.setattr(ports, "open_port", lambda device, timeout: opened.append(device) or device)
    op = ports.opener()
    assert op() == "/dev/ttyACM0"
    # Replugged under another name, with another Pico now attached as well.
    moved = port("/dev/ttyACM3", 0x2E8A, 0x0005, PICO.serial_number)
    present[:] = [UART, PICO2, moved]
    assert op() == "/dev/ttyACM3" and op.device == "/dev/ttyACM3"
    present[:] = [UART, PICO2]
    with pytest.raises(ports.NoBoardError):
        op()
    assert opened == ["/dev/ttyACM0", "/dev/ttyACM3"]


def test_port_or_url_not_both():
    with pytest.raises(ports.PortError, match="not both"):
        ports.opener(port="/dev/ttyACM0", url="loop://")


@pytest.mark.parametrize("code, cls, words", [
    (errno.ENOENT, ports.PortNotFoundError, ["there is no serial port", "sowlight board ports"]),
    (errno.EACCES, ports.PortPermissionError, ["permission denied", "dialout", "usermod", "udev", "2e8a"]),
    (errno.EBUSY, ports.PortBusyError, ["in use by another program", "fuser"]),
    (errno.EAGAIN, ports.PortBusyError, ["in use by another program"]),
    (errno.EIO, ports.PortError, ["cannot open /dev/ttyACM0"]),
])
def test_open_errors_say_what_to_do(monkeypatch, code, cls, words):
    def refuse(*a, **kw):
        raise serial.SerialException(code, "could not open port /dev/ttyACM0: [Errno %d] %s" % (code, os.strerror(code)))
    monkeypatch.setattr(serial, "Serial", refuse)
    with pytest.raises(cls) as e:
        ports.open_port("/dev/ttyACM0")
    assert type(e.value) is cls
    for w in words:
        assert w in str(e.value)


def test_windows_open_errors(monkeypatch):
    monkeypatch.setattr(ports.sys, "platform", "win32")
    busy = serial.SerialException("could not open port 'COM3': PermissionError(13, 'Access is denied.', None, 5)")
    missing = serial.SerialException("could not open port 'COM9': FileNotFoundError(2, 'The system cannot find the "
                                     "file specified.', None, 2)")
    assert isinstance(ports.explain_open_error(busy, "COM3"), ports.PortBusyError)
    assert isinstance(ports.explain_open_error(missing, "COM9"), ports.PortNotFoundError)


def test_a_port_that_is_not_there():
    with pytest.raises(ports.PortNotFoundError, match="/dev/sowlight-no-such-port"):
        ports.open_port("/dev/sowlight-no-such-port")


def test_bad_urls():
    with pytest.raises(ports.PortError, match="socket://HOST:PORT"):
        ports.open_url("nosuch://x")
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    free = s.getsockname()[1]
    s.close()  # nothing listens there now
    with pytest.raises(ports.PortError, match="cannot open socket://127.0.0.1:%d" % free):
        ports.open_url("socket://127.0.0.1:%d" % free)


def test_listing_names_known_devices():
    text = ports.listing([UART, PICO, CH340])
    lines = text.splitlines()
    assert len(lines) == 3 and "Pico" in text and "a Sowlight board?" in text and "CH340" in text
    assert lines[0].split()[0] == "/dev/ttyACM0"  # sorted by device
