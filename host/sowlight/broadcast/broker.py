"""The connection to the MQTT broker: where it is, how to log in, staying connected.

    settings = BrokerSettings.from_url("mqtts://club:secret@broker.example.org", ca="ca.pem")
    conn = BrokerConnection(settings, client_id="sowlight-host-1", will=(topic, payload))
    conn.on_connect(fn)                    # fn() after every (re)connection: publish what is retained again
    conn.subscribe("sowlight/club/#", fn)  # fn(topic, payload dict); subscribed again after a reconnection
    conn.start(); conn.wait_connected(10)
    conn.publish(topic, {"x": 1}, retain=True)
    conn.stop()

paho-mqtt (the Eclipse project's client, major version 2) does the protocol:
QoS 1, keep-alive, the last will, TLS.  It reconnects by itself after a
drop (reconnect_delay_set); this module re-subscribes and calls the
`on_connect` callbacks after each reconnection, because a broker that
restarted without persistence has forgotten every subscription and retained
message.  Every payload is one JSON object (docs/broadcast.md).
"""
import json
import os
import threading
import time
import urllib.parse

import paho.mqtt.client as mqtt

QOS = 1
MQTT_ERR_SUCCESS = mqtt.MQTT_ERR_SUCCESS
DEFAULT_URL = "mqtt://localhost"
PASSWORD_ENV = "SOWLIGHT_MQTT_PASSWORD"
_TRIES = 3              # attempts that find no broker before a first connection is given up
_PORTS = {"mqtt": 1883, "mqtts": 8883}


class BrokerError(Exception):
    """The broker cannot be used as asked; the message says what to change."""


class BrokerSettings:
    """Where the broker is and how to log in: host, port, TLS files, username and password."""

    def __init__(self, host="localhost", port=None, tls=False, username=None, password=None, ca=None, cert=None,
                 key=None, insecure=False, path=""):
        self.host = host
        self.tls = bool(tls or ca or cert)
        self.port = port if port is not None else _PORTS["mqtts" if self.tls else "mqtt"]
        self.username = username
        self.password = password
        self.ca = ca
        self.cert = cert
        self.key = key
        self.insecure = insecure
        self.path = path           # what the URL names after the host (remote play: the table)

    @classmethod
    def from_url(cls, url=None, username=None, password=None, ca=None, cert=None, key=None, insecure=False):
        """mqtt://[user[:password]@]host[:port][/path] or mqtts://... (TLS); a bare host works too.
        Options given here win over the URL's; a password may also come from $SOWLIGHT_MQTT_PASSWORD."""
        url = url or DEFAULT_URL
        if "://" not in url:
            url = "mqtt://" + url
        u = urllib.parse.urlsplit(url)
        if u.scheme not in _PORTS:
            raise BrokerError("a broker URL begins with mqtt:// or mqtts:// (TLS), not %r" % url)
        try:
            port = u.port
        except ValueError:
            raise BrokerError("the port in %r is not a number from 1 to 65535" % url) from None
        if not u.hostname:
            raise BrokerError("the broker URL %r names no host: mqtt://HOST[:PORT]" % url)
        for name, path in (("--ca", ca), ("--cert", cert), ("--key", key)):
            if path is not None and not os.path.isfile(path):
                raise BrokerError("%s %s: no such file" % (name, path))
        if (cert is None) != (key is None):
            raise BrokerError("a client certificate needs both --cert and --key")
        user = username or (urllib.parse.unquote(u.username) if u.username else None)
        pw = password or (urllib.parse.unquote(u.password) if u.password else None) or os.environ.get(PASSWORD_ENV)
        return cls(host=u.hostname, port=port, tls=u.scheme == "mqtts", username=user, password=pw, ca=ca, cert=cert,
                   key=key, insecure=insecure, path=u.path.strip("/"))

    def where(self):
        """The broker as a URL, without the password (for messages)."""
        who = "%s@" % self.username if self.username else ""
        return "%s://%s%s:%d" % ("mqtts" if self.tls else "mqtt", who, self.host, self.port)


def add_arguments(parser, url_option="--broker", url_help=None):
    """The broker options every command that talks to one takes."""
    parser.add_argument(url_option, metavar="URL", default=None, dest="broker",
                        help=url_help or "the MQTT broker: mqtt://[USER@]HOST[:PORT], mqtts://... for TLS "
                                         "(default mqtt://localhost)")
    parser.add_argument("--username", metavar="NAME", help="log in to the broker as NAME")
    parser.add_argument("--password-file", metavar="FILE",
                        help="the broker password, read from FILE (or $%s; never on the command line)" % PASSWORD_ENV)
    parser.add_argument("--ca", metavar="FILE", help="TLS: the CA certificate(s) the broker's certificate is checked with")
    parser.add_argument("--cert", metavar="FILE", help="TLS: this client's certificate (with --key)")
    parser.add_argument("--key", metavar="FILE", help="TLS: this client's private key")
    parser.add_argument("--insecure", action="store_true", help="TLS: do not check the broker's host name (tests only)")


def from_args(args, url=None):
    password = None
    if getattr(args, "password_file", None):
        try:
            with open(args.password_file, encoding="utf-8") as f:
                password = f.readline().rstrip("\r\n")
        except OSError as e:
            raise BrokerError("cannot read the password file: %s" % e) from None
    return BrokerSettings.from_url(url if url is not None else args.broker, username=args.username, password=password,
                                   ca=args.ca, cert=args.cert, key=args.key, insecure=args.insecure)


def encode(payload):
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()


def decode(data):
    """A payload as a dict; None for an empty one (a retained topic cleared) or one that is not a JSON object."""
    if not data:
        return None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def delivered(info):
    """Whether the broker acknowledged a publication (publish()'s MQTTMessageInfo); False for one
    that failed (the connection was down: it goes again after the next connection)."""
    try:
        return info.rc == mqtt.MQTT_ERR_SUCCESS and info.is_published()
    except (RuntimeError, ValueError):
        return False


_REFUSED = {
    "Bad user name or password": "the broker refused the username or password (--username, --password-file)",
    "Not authorized": "the broker refused this client: not authorized (check the username and password: "
                      "--username, --password-file; or the broker's ACL)",
}


class BrokerConnection:
    """One paho client, kept connected (see the module's docstring)."""

    def __init__(self, settings, client_id, will=None, reconnect=(0.25, 4.0)):
        self.settings = settings
        self.client_id = client_id
        self.connected = threading.Event()
        self.refused = None                 # why the broker refused us, said for a person
        self.connections = 0                # successful connections so far
        self.drops = 0
        self.failures = 0                   # attempts that found no broker (or failed its TLS handshake)
        self.received = 0
        self.sent = 0
        self._subs = {}                     # topic filter -> fn(topic, payload)
        self._on_connect = []
        self._lock = threading.Lock()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        if settings.username:
            c.username_pw_set(settings.username, settings.password)
        if settings.tls:
            try:
                c.tls_set(ca_certs=settings.ca, certfile=settings.cert, keyfile=settings.key)
            except (OSError, ValueError) as e:
                raise BrokerError("the TLS files cannot be used: %s" % e) from None
            if settings.insecure:
                c.tls_insecure_set(True)
        if will is not None:
            c.will_set(will[0], encode(will[1]), qos=QOS, retain=True)
        c.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])
        c.on_connect = self._connected
        c.on_connect_fail = self._failed
        c.on_disconnect = self._disconnected
        c.on_message = self._message
        self.client = c

    # ----- life -------------------------------------------------------------------------------------

    def start(self):
        try:
            self.client.connect_async(self.settings.host, self.settings.port, keepalive=10)
        except (OSError, ValueError) as e:
            raise BrokerError("cannot reach the broker at %s: %s" % (self.settings.where(), e)) from None
        self.client.loop_start()
        return self

    def wait_connected(self, timeout):
        """Block until connected; BrokerError saying why when the broker refused or is not there."""
        end = time.monotonic() + timeout
        while not self.connected.wait(0.1):
            if self.refused:
                raise BrokerError("%s: %s" % (self.settings.where(), self.refused))
            if time.monotonic() > end or (self.failures >= _TRIES and not self.connections):
                raise BrokerError("no broker answers at %s (is it running, and does it speak %s? `sudo apt-get install "
                                  "mosquitto` starts one on this computer; elsewhere give the broker's URL)"
                                  % (self.settings.where(), "TLS" if self.settings.tls else "plain MQTT"))
        return True

    def stop(self, timeout=2.0):
        """Disconnect cleanly (the last will is not sent) once what was published has gone out."""
        end = time.monotonic() + timeout
        while self.client.want_write() and time.monotonic() < end:
            time.sleep(0.02)
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def drop(self):
        """Cut the connection as a failing network would (tests, benchmarks): paho reconnects."""
        sock = self.client.socket()
        if sock is not None:
            try:
                import socket
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # ----- use --------------------------------------------------------------------------------------

    def on_connect(self, fn):
        """fn() after each connection (in paho's thread): publish retained state again, re-ask."""
        self._on_connect.append(fn)
        if self.connected.is_set():
            fn()

    def subscribe(self, topic, fn):
        self._subs[topic] = fn
        if self.connected.is_set():
            self.client.subscribe(topic, qos=QOS)

    def publish(self, topic, payload, retain=False):
        """Publish a JSON object (None: an empty payload, which clears a retained topic); returns
        paho's MQTTMessageInfo (is_published(): the broker acknowledged it).  paho keeps a QoS 1
        message published while the connection is down and sends it once it is back."""
        data = b"" if payload is None else encode(payload)
        info = self.client.publish(topic, data, qos=QOS, retain=retain)
        with self._lock:
            self.sent += 1
        return info

    # ----- paho's callbacks (its network thread) ---------------------------------------------------

    def _connected(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            text = str(reason_code)
            self.refused = _REFUSED.get(text, "the broker refused the connection: %s" % text)
            return
        self.refused = None
        self.connections += 1
        for topic in list(self._subs):
            client.subscribe(topic, qos=QOS)
        self.connected.set()
        for fn in list(self._on_connect):
            fn()

    def _failed(self, client, userdata):
        self.failures += 1

    def _disconnected(self, client, userdata, flags, reason_code, properties):
        if self.connected.is_set():
            self.drops += 1
        self.connected.clear()

    def _message(self, client, userdata, msg):
        with self._lock:
            self.received += 1
        payload = decode(msg.payload)
        for pattern, fn in list(self._subs.items()):
            if mqtt.topic_matches_sub(pattern, msg.topic):
                fn(msg.topic, payload)
