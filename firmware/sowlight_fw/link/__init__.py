"""The link with the laptop (docs/protocol.md).

codec.py    frames, the message table, sequence numbers: the one implementation, which the
            laptop imports too
session.py  BoardLink: the board's side of the session over any byte transport
usb.py      UsbTransport: the board's USB serial port as that transport
"""
from .session import BoardLink
from .usb import UsbTransport
