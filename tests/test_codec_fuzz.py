"""Fuzzing the link decoder, as the board and as the laptop read it.

Over 100,000 lines per side - random bytes, damaged frames, frames re-sealed
with a right CRC around a damaged inside, random payloads for every type,
over-long lines - fed in random chunk sizes.  Whatever comes in:

- no exception escapes the decoder;
- every line gets at least one item back, and every refused one is counted
  under its reason;
- every refusal has an answer ("error" or "resync") that encodes to a valid frame;
- a frame whose CRC was not re-sealed is never taken for anything but a frame
  that was really sent (CRC-32 catches the damage);
- every accepted message passes validation.

Everything is seeded, so a failure replays exactly.
"""
import json
import random

import pytest

from sowlight_fw.link import codec
from sowlight_fw.link.codec import BadFrame, Decoder, Message, encode

from test_codec import EXAMPLES, all_examples, crc_line, describe

LINES = 100_000  # per side
SEED = 20240607


def corpus():
    """Valid frames (without newline) of every example, with a few seqs each."""
    frames = []
    for mtype, _, payload in all_examples():
        for seq in (0, 1, 0x7FFF, 0xFFFF):
            frames.append(encode(seq, mtype, payload)[:-1])
    return frames


def mutate(rng, line, frames):
    """Damage a frame with 1-4 random edits (never adds a newline: one line in, one line out)."""
    b = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        n = len(b)
        i = rng.randrange(n) if n else 0
        if op == 0 and n:      # flip a bit
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1 and n:    # replace a byte
            b[i] = rng.randrange(256)
        elif op == 2:          # insert a byte
            b.insert(i, rng.randrange(256))
        elif op == 3 and n:    # delete a run
            del b[i:i + rng.randint(1, 8)]
        elif op == 4 and n:    # truncate
            del b[i:]
        elif op == 5:          # splice with another frame
            other = frames[rng.randrange(len(frames))]
            b = b[:i] + other[rng.randrange(len(other)):]
        elif op == 6 and n:    # repeat a slice
            j = min(n, i + rng.randint(1, 20))
            b[i:i] = b[i:j]
        elif op == 7:          # a stray "@" or space or CR
            b.insert(i, rng.choice(b"@ \r{}\"0"))
        elif op == 8 and n:    # swap case of a letter
            if 0x41 <= b[i] <= 0x5A or 0x61 <= b[i] <= 0x7A:
                b[i] ^= 0x20
    return bytes(b).replace(b"\n", b"\\")


def random_value(rng, depth=0):
    k = rng.randrange(9 if depth < 3 else 6)
    if k == 0:
        return None
    if k == 1:
        return rng.random() < 0.5
    if k == 2:
        return rng.randint(-3, 70000)
    if k == 3:
        return rng.choice(["", "oware", "board", "host", "lifted", "repl", "x" * rng.randrange(50), "\u00e9\u2603"])
    if k == 4:
        return rng.randrange(2 ** 40)
    if k == 5:
        return rng.choice([-1, 0, 1, 65535, 65536])
    if k in (6, 7):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["re", "game", "ply", "on", "x"]): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_payload(rng, mtype):
    """Fields of `mtype`, each kept, dropped, or given a random value."""
    fields = codec.messages()[mtype][1] if mtype in codec.messages() else ()
    base = dict(EXAMPLES[mtype][0][1]) if mtype in EXAMPLES else {}
    for name, _, _ in fields:
        r = rng.random()
        if r < 0.15:
            base.pop(name, None)
        elif r < 0.35:
            base[name] = random_value(rng)
    if rng.random() < 0.2:
        base[rng.choice(["extra", "more", "t"])] = random_value(rng)
    return base


def resealed(rng, frames):
    """A frame damaged inside, then given the right CRC: exercises JSON and validation."""
    line = frames[rng.randrange(len(frames))]
    body = line[:-9]
    k = rng.randrange(3)
    if k == 0:    # damage the text of the body
        body = mutate(rng, body, frames).replace(b"\r", b"")
    elif k == 1:  # random payload of a known type
        mtype = rng.choice(sorted(codec.messages()))
        try:
            payload = codec.dumps(random_payload(rng, mtype)).encode()
        except codec.FrameError:
            payload = b"{}"
        body = b"@%04x %s %s" % (rng.randrange(65536), mtype.encode(), payload)
    else:         # a made-up type, or a payload that is not an object
        mtype = rng.choice([b"frobnicate", b"pin", b"pingg", b"state", b"hello", b"ok", b"x"])
        payload = rng.choice([b"{}", b"[]", b"null", b"1", b'"s"', b"{\"re\":1}", b"{,}", b"{\"a\":1,}",
                              b"[" * 300, b"{\"re\":1e999}", b"NaN", b"\xff\xfe"])
        body = b"@%04x %s %s" % (rng.randrange(65536), mtype, payload)
    return crc_line(body)


def random_line(rng):
    n = rng.randrange(120)
    head = b"@" if rng.random() < 0.5 else b""
    return (head + bytes(rng.getrandbits(8) for _ in range(n))).replace(b"\n", b"")


def make_lines(rng, n, frames):
    """n lines and, for each, whether its CRC may be right (valid or re-sealed)."""
    lines = []
    for _ in range(n):
        r = rng.random()
        if r < 0.10:
            lines.append((frames[rng.randrange(len(frames))], True))
        elif r < 0.55:
            lines.append((mutate(rng, frames[rng.randrange(len(frames))], frames), False))
        elif r < 0.85:
            lines.append((resealed(rng, frames), True))
        elif r < 0.995:
            lines.append((random_line(rng), False))
        else:
            lines.append((b"@" + b"z" * rng.randrange(codec.MAX_FRAME - 10, 3 * codec.MAX_FRAME), False))
    return lines


def expected_items(line):
    """Bounds on the items one line yields: blank lines none, others one (or two when split)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return (0, 0) if not line else (1, 2)


@pytest.fixture(scope="module")
def fuzz_stream():
    rng = random.Random(SEED)
    frames = corpus()
    lines = make_lines(rng, LINES, frames)
    originals = set()
    for line in frames:
        item = codec.parse_line(line)
        originals.add((item.seq, item.type, json.dumps(item.payload, sort_keys=True)))
    return lines, originals


@pytest.mark.parametrize("sender", ["board", "host"])
def test_fuzz_decoder(fuzz_stream, sender):
    lines, originals = fuzz_stream
    rng = random.Random(SEED + len(sender))
    d = Decoder(sender)
    items_total = 0
    by_reason = dict.fromkeys(codec.REASONS, 0)
    answers = {}
    for line, may_be_valid in lines:
        data = line + b"\n"
        items = []
        # random chunking, sometimes byte by byte
        i = 0
        while i < len(data):
            k = 1 if rng.random() < 0.01 else rng.randrange(1, 300)
            items += d.feed(data[i:i + k])
            i += k
        lo, hi = expected_items(line)
        if len(line) + 1 > codec.MAX_FRAME:
            lo = hi = 1
        assert lo <= len(items) <= hi, (line[:80], items)
        items_total += len(items)
        for x in items:
            if isinstance(x, Message):
                codec.validate(x.type, x.payload, sender)
                if not may_be_valid:  # damage never passes the CRC unnoticed
                    assert (x.seq, x.type, json.dumps(x.payload, sort_keys=True)) in originals, line
            else:
                assert isinstance(x, BadFrame) and x.reason in codec.REASONS
                by_reason[x.reason] += 1
                kind = x.reason if x.seq is None else "intact"
                if kind not in answers or len(answers) < 40:
                    mtype, payload = x.answer()
                    assert mtype in ("error", "resync")
                    answers[kind] = encode(0, mtype, payload)
    assert d.frames + d.bad_total() == items_total
    assert d.errors == by_reason
    assert all(v > 0 for v in d.errors.values()), d.errors  # every reason was exercised
    assert d.frames > LINES // 20
    for frame in answers.values():
        assert isinstance(Decoder().feed(frame)[0], Message)


def test_fuzz_one_big_stream_in_random_chunks(fuzz_stream):
    """The whole fuzz stream at once, cut anywhere: the same items as line by line."""
    lines, _ = fuzz_stream
    part = lines[:20000]
    stream = b"\n".join(line for line, _ in part) + b"\n"
    ref = Decoder("host")
    expected = []
    for line, _ in part:
        expected += ref.feed(line + b"\n")
    rng = random.Random(SEED + 1)
    d = Decoder("host")
    got, i = [], 0
    while i < len(stream):
        k = rng.choice([1, 5, 63, 64, 65, 511, 4096, 10000])
        got += d.feed(stream[i:i + k])
        i += k
    assert describe(got) == describe(expected)
    assert d.errors == ref.errors


VM_SCRIPT = r"""
import json
from sowlight_fw.link import codec
out = {}
for name in ("damaged", "sealed"):
    d = codec.Decoder("host")
    stream = open("/data/%s.bin" % name, "rb").read()
    got = []
    i = 0
    k = 1
    while i < len(stream):
        for x in d.feed(stream[i:i + k]):
            if isinstance(x, codec.Message):
                got.append(["m", x.seq, x.type, x.payload])
            else:
                got.append(["b", x.reason, x.seq])
                codec.encode(0, *x.answer())
        i += k
        k = (k * 7 + 3) % 300 + 1
    assert d.frames + d.bad_total() == len(got)
    out[name] = {"items": got, "errors": d.errors}
print(json.dumps(out))
"""


def test_fuzz_on_micropython_matches_cpython(micropython, fuzz_stream, tmp_path):
    """Slices of the stream decoded on the real MicroPython VM: nothing raised, every line counted.

    Lines whose CRC cannot be right give exactly CPython's items.  Lines with a
    right CRC around a damaged inside may differ only where the JSON is odd:
    MicroPython's json takes a trailing comma, for one, which CPython's refuses.
    """
    lines, _ = fuzz_stream
    damaged = [line for line, may_be_valid in lines[:8000] if not may_be_valid][:3000]
    sealed = [line for line, may_be_valid in lines[:8000] if may_be_valid][:1500]
    streams = {"damaged": b"\n".join(damaged) + b"\n", "sealed": b"\n".join(sealed) + b"\n"}
    for name, data in streams.items():
        (tmp_path / (name + ".bin")).write_bytes(data)
    result = json.loads(micropython.run(VM_SCRIPT, mounts={"/data": tmp_path}, timeout=180).strip().splitlines()[-1])

    ref = Decoder("host")
    assert result["damaged"]["items"] == describe(ref.feed(streams["damaged"]))
    assert result["damaged"]["errors"] == ref.errors

    ref = Decoder("host")
    expected = describe(ref.feed(streams["sealed"]))
    got = result["sealed"]["items"]
    assert len(got) == len(expected)
    differ = [(a, b) for a, b in zip(got, expected) if a != b]
    for mp_item, py_item in differ:
        odd_json = [x for x in (mp_item, py_item) if x[0] == "b" and x[1] in ("malformed", "bad_payload")]
        assert odd_json, (mp_item, py_item)
    assert len(differ) < len(expected) // 10
