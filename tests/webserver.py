"""Helpers of the web view's tests: `sowlight serve` run as a user runs it, and PNG screenshots read.

    with Serve(["--no-board", "--db", db]) as srv:
        srv.json("/api/games")
    image = Png(page.screenshot())
    image.pixel(10, 20)               # (r, g, b)
"""
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zlib

SOWLIGHT = [sys.executable, "-m", "sowlight"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    """`sowlight serve ARGS --port N` in a process of its own, until the `with` ends."""

    def __init__(self, args, ready_timeout=30):
        self.port = free_port()
        self.args = list(args)
        self.ready_timeout = ready_timeout
        self.proc = None
        self.url = "http://127.0.0.1:%d" % self.port

    def __enter__(self):
        self.proc = subprocess.Popen(SOWLIGHT + ["serve", "--port", str(self.port)] + self.args,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        end = time.monotonic() + self.ready_timeout
        while True:
            if self.proc.poll() is not None:
                out, err = self.proc.communicate()
                raise AssertionError("sowlight serve stopped (%s): %s%s" % (self.proc.returncode, out, err))
            try:
                self.get("/api/meta")
                return self
            except OSError:
                if time.monotonic() > end:
                    self.stop()
                    raise AssertionError("sowlight serve did not answer within %d s" % self.ready_timeout)
                time.sleep(0.2)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        out, err = self.proc.communicate() if self.proc.stdout else ("", "")
        return out, err

    def __exit__(self, *exc):
        self.stderr = self.stop()[1]
        return False

    def get(self, path):
        """(status, headers, body bytes)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=120) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def json(self, path, status=200):
        code, _, body = self.get(path)
        assert code == status, (code, body[:500])
        return json.loads(body)


class Png:
    """An 8-bit RGB or RGBA PNG (what Chromium's screenshots are), decoded."""

    def __init__(self, data):
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos = 8
        idat = b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and not interlace, "a PNG this reader does not know"
                self.bpp = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = self.width * self.bpp
        rows = []
        prev = bytearray(stride)
        i = 0
        for _ in range(self.height):
            f = raw[i]
            line = bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            for x in range(stride):
                a = line[x - self.bpp] if x >= self.bpp else 0
                b = prev[x]
                c = prev[x - self.bpp] if x >= self.bpp else 0
                if f == 1:
                    line[x] = (line[x] + a) & 255
                elif f == 2:
                    line[x] = (line[x] + b) & 255
                elif f == 3:
                    line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line))
            prev = line
        self.rows = rows

    def pixel(self, x, y):
        o = int(x) * self.bpp
        return tuple(self.rows[int(y)][o:o + 3])

    def colours(self):
        """The distinct colours in the image."""
        out = set()
        for row in self.rows:
            for o in range(0, len(row), self.bpp):
                out.add(row[o:o + 3])
        return out


def near(rgb, hex_colour, tolerance=40):
    want = (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def shots_dir():
    """Where a run also leaves copies of the screenshots for people to look at ($SOWLIGHT_WEB_SHOTS), or None."""
    d = os.environ.get("SOWLIGHT_WEB_SHOTS")
    if d:
        os.makedirs(d, exist_ok=True)
    return d
