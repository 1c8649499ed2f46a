"""A Mosquitto broker for the tests: 127.0.0.1, a free port, its own config file in a temporary directory.

    broker = Mosquitto(tmp_path); broker.start(); ...; broker.restart(); broker.stop()

The `mosquitto` fixture gives a started one.  Without the mosquitto program
the tests that need it are skipped (`apt-get install mosquitto`), but under
CI=true that is a failure: CI must run them.
"""
import getpass
import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

_PLACES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


def program():
    found = shutil.which("mosquitto")
    if found:
        return found
    for p in _PLACES:
        if os.access(p, os.X_OK):
            return p
    return None


def need_mosquitto():
    if program() is None:
        text = "these tests need the Mosquitto broker: apt-get install mosquitto"
        if os.environ.get("CI") == "true":
            pytest.fail(text + " (CI runs them: tools/test.sh installs it when run as root)")
        pytest.skip(text)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """A broker process; `conf` adds lines to its config (TLS listeners, passwords)."""

    def __init__(self, directory, conf="", port=None, persistence=False):
        self.dir = str(directory)
        self.port = port or free_port()
        self.conf_path = os.path.join(self.dir, "mosquitto-%d.conf" % self.port)
        self.log_path = os.path.join(self.dir, "mosquitto-%d.log" % self.port)
        # (As root Mosquitto would switch to its own user, who cannot read the test's files.)
        lines = ["user %s" % getpass.getuser(),
                 "persistence %s" % ("true" if persistence else "false"),
                 "persistence_location %s/" % self.dir,
                 "log_dest file %s" % self.log_path,
                 "log_type error", "log_type warning", "log_type notice",
                 "max_queued_messages 100000"]
        if not conf:
            lines += ["listener %d 127.0.0.1" % self.port, "allow_anonymous true"]
        else:
            lines.append(conf.replace("{port}", str(self.port)))
        with open(self.conf_path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.proc = None
        self.starts = 0

    @property
    def url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    def start(self, timeout=10.0):
        self.proc = subprocess.Popen([program(), "-c", self.conf_path], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self.starts += 1
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("mosquitto stopped at once: %s %s" % (self.proc.stderr.read().decode(), self.log()))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen on port %d: %s" % (self.port, self.log()))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self):
        """Killed at once: nothing saved, every connection cut."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self, down=0.5):
        self.kill()
        time.sleep(down)
        self.start()

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()[-2000:]
        except OSError:
            return ""


@pytest.fixture
def mosquitto(tmp_path):
    need_mosquitto()
    b = Mosquitto(tmp_path).start()
    try:
        yield b
    finally:
        b.stop()
