"""Logging in to a broker: username and password, TLS with a CA of the test's own, and the errors a
user sees when either is wrong -- against Mosquitto configured as docs/broadcast.md says."""
import os
import shutil
import subprocess
import sys

import pytest

from sowlight.broadcast import broker
from sowlight.broadcast.feed import EventFeed
from sowlight.broadcast.topics import EventTopics

from brokers import Mosquitto, need_mosquitto

SOWLIGHT = [sys.executable, "-m", "sowlight"]


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def secured(tmp_path):
    """A Mosquitto with TLS (a throwaway CA and a certificate for 127.0.0.1) and a password file."""
    need_mosquitto()
    if shutil.which("openssl") is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("needs openssl and mosquitto_passwd (apt-get install openssl mosquitto)")
    d = str(tmp_path)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=sowlight test CA", cwd=d)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
            "-subj", "/CN=127.0.0.1", cwd=d)
    with open(os.path.join(d, "san.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "san.cnf", cwd=d)
    subprocess.run(["mosquitto_passwd", "-b", "-c", os.path.join(d, "passwd"), "club", "s3cret seeds"], check=True,
                   capture_output=True)
    with open(os.path.join(d, "password.txt"), "w") as f:
        f.write("s3cret seeds\n")
    conf = "\n".join(["listener {port} 127.0.0.1", "cafile %s/ca.pem" % d, "certfile %s/server.pem" % d,
                      "keyfile %s/server.key" % d, "allow_anonymous false", "password_file %s/passwd" % d])
    b = Mosquitto(tmp_path, conf=conf).start()
    try:
        yield b, d
    finally:
        b.stop()


def test_tls_and_a_password_let_a_host_and_a_viewer_in(secured):
    b, d = secured
    url = "mqtts://club@127.0.0.1:%d" % b.port
    settings = broker.BrokerSettings.from_url(url, password="s3cret seeds", ca=os.path.join(d, "ca.pem"))
    assert settings.tls and settings.where() == "mqtts://club@127.0.0.1:%d" % b.port
    conn = broker.BrokerConnection(settings, "viewer").start()
    try:
        conn.wait_connected(10)
        feed = EventFeed(conn, EventTopics("secure")).start()
        # A host through the command line: the password from a file, never on the command line.
        r = subprocess.run(SOWLIGHT + ["broadcast", "--broker", url, "--password-file", os.path.join(d, "password.txt"),
                                       "--ca", os.path.join(d, "ca.pem"), "--event", "secure", "--virtual", "1",
                                       "--demo", "kalah", "-o", "seeds=1", "--games", "1", "--seed", "4",
                                       "--no-archive"], capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stdout + r.stderr
        assert feed.wait(lambda f: any(g.snapshot()["over"] for g in f.games().values()), 20)
    finally:
        conn.stop()


def test_a_wrong_password_and_a_broker_without_tls_are_told_clearly(secured):
    b, d = secured
    ca = os.path.join(d, "ca.pem")
    bad = broker.BrokerConnection(broker.BrokerSettings.from_url("mqtts://club@127.0.0.1:%d" % b.port,
                                                                 password="wrong", ca=ca), "wrong").start()
    try:
        with pytest.raises(broker.BrokerError, match="not authorized .check the username and password"):
            bad.wait_connected(10)
    finally:
        bad.stop()
    r = subprocess.run(SOWLIGHT + ["broadcast", "--broker", "mqtt://127.0.0.1:%d" % b.port, "--virtual", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "no broker answers at mqtt://127.0.0.1:%d" % b.port in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_broker_urls_and_their_mistakes():
    s = broker.BrokerSettings.from_url("mqtt://ann:p%40ss@example.org:1884/friday-3")
    assert (s.host, s.port, s.username, s.password, s.tls, s.path) == ("example.org", 1884, "ann", "p@ss", False, "friday-3")
    assert broker.BrokerSettings.from_url(None).where() == "mqtt://localhost:1883"
    assert broker.BrokerSettings.from_url("mqtts://h").port == 8883
    assert broker.BrokerSettings.from_url("example.org").host == "example.org"
    for url, text in (("http://h", "mqtt:// or mqtts://"), ("mqtt://h:99999", "port"), ("mqtt://", "names no host")):
        with pytest.raises(broker.BrokerError, match=text):
            broker.BrokerSettings.from_url(url)
    with pytest.raises(broker.BrokerError, match="no such file"):
        broker.BrokerSettings.from_url("mqtts://h", ca="/nonexistent/ca.pem")
