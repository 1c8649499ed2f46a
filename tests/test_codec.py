"""The link's wire codec (firmware/sowlight_fw/link/codec.py): CRC, canonical JSON,
frames, the message table, the streaming decoder, sequence numbers, chunked
writes, the fault-injecting pipe of tests/faults.py, and the same codec on a
real MicroPython VM."""
import binascii
import json
import random
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sowlight_fw import crc

from sowlight_fw.link import codec
from sowlight_fw.link.codec import BadFrame, Decoder, FrameError, Message, encode

from faults import FaultyLink, FaultyPipe

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"

# One realistic payload per message type, with the side that sends it.  Every
# type of codec.messages() must be here (test_every_type_has_an_example).
OWARE_POS = {"pits": [0, 3, 2, 8, 2, 10, 8, 0, 7, 6, 0, 0], "stores": [2, 0], "to_move": 1}
EXAMPLES = {
    "hello": [
        ("host", {"proto": [1, 0], "role": "host", "sw": "sowlight 0.1.0", "time": 1767225600}),
        ("board", {"proto": [1, 0], "role": "board", "sw": "sowlight-fw 0.1.0", "board": "e6614103e7452d2f",
                   "config": {"geometry": {"rows": 2, "pits_per_row": 6, "stores": 2},
                              "sensors": {"kind": "occupancy", "cells": 14}, "leds": 14},
                   "variants": ["oware", "kalah", "ayoayo"], "game": 12}),
        ("board", {"proto": [1, 1], "role": "board", "sw": "sowlight-fw 0.1.0", "board": "virtual-0",
                   "config": {"geometry": {"rows": 2, "pits_per_row": 6, "stores": 2},
                              "sensors": {"kind": "occupancy", "cells": 14}, "leds": 14},
                   "variants": ["oware"], "game": None, "virtual": True, "re": 7}),
    ],
    "ping": [("host", {})],
    "pong": [("board", {"re": 2, "up": 73012}), ("host", {"re": 40})],
    "resync": [("host", {"reason": "checksum"}), ("board", {})],
    "error": [("board", {"code": "bad_variant", "msg": "this board has no variant 'bao'", "re": 5}),
              ("host", {"code": "unknown_type", "msg": "'frobnicate' is not a message type", "re": 17}),
              ("board", {"code": "version", "msg": "the host speaks link protocol 2.0", "re": None})],
    "get_state": [("host", {})],
    "new_game": [("host", {"variant": "oware", "options": {}}), ("host", {"variant": "kalah"})],
    "set_pos": [("host", {"pos": OWARE_POS})],
    "undo": [("host", {})],
    "hint": [("host", {"on": True})],
    "brightness": [("host", {"level": 64})],
    "self_test": [("host", {})],
    "calibrate": [("host", {"step": "empty"})],
    "journal_list": [("host", {}), ("host", {"from": 13, "max": 8})],
    "journal_get": [("host", {"game": 12, "from": 31, "max": 50}), ("host", {"game": 12, "from": 0})],
    "journal_ack": [("host", {"game": 12, "upto": 40})],
    "reboot": [("host", {"to": "repl"})],
    "press": [("host", {"button": "confirm"}), ("host", {"button": "menu"})],
    "sim": [("host", {"act": "lift", "cell": 3}), ("host", {"act": "drop", "cell": 4, "n": 2}),
            ("host", {"act": "take", "cell": 5, "to": -1}), ("host", {"act": "press", "button": "undo"}),
            ("host", {"act": "seeds"})],
    "guide": [("host", {"ply": 10, "move": 9}), ("host", {"ply": 10, "move": [3, -1]}), ("host", {"ply": 10}),
              ("host", {"ply": 10, "wait": True})],
    "ok": [("board", {"re": 9, "game": 13}), ("board", {"re": 10})],
    "state": [("board", {"re": 3, "game": 12, "variant": "oware", "options": {}, "pos": OWARE_POS, "ply": 9,
                         "phase": "await_lift", "expect": None, "hint": True, "brightness": 64, "rx": 3}),
              ("board", {"game": None, "variant": None, "pos": None, "ply": 0, "phase": "idle",
                         "hint": False, "brightness": 64})],
    "move": [("board", {"game": 12, "ply": 9, "player": 0, "move": 0, "name": "A",
                        "trace": [["lift", 0, 7, -1], ["drop", 1, 1, -1], ["drop", 2, 1, -1], ["drop", 3, 1, -1],
                                  ["drop", 4, 1, -1], ["drop", 5, 1, -1], ["drop", 6, 1, -1], ["drop", 7, 1, -1],
                                  ["take", 7, 2, 12]],
                        "pos": OWARE_POS}),
             ("board", {"game": 12, "ply": 10, "player": 1, "move": [3, -1], "trace": None})],
    "step": [("board", {"game": 12, "ply": 10, "ev": "lifted", "cell": 9, "i": 0, "n": 6}),
             ("board", {"game": 12, "ply": 10, "ev": "mismatch", "cell": 4, "i": 3,
                        "expect": ["drop", 3, 1, -1]})],
    "leds": [("board", {"lit": [[10, "drop"], [9, "lifted"]], "game": 12}), ("board", {"lit": []}),
             ("board", {"lit": [[3, "need", 4], [4, "trail", 2], [5, "drop"]], "game": 1})],
    "journal": [("board", {"re": 11, "games": [
        {"game": 11, "variant": "kalah", "first": 0, "last": 57, "synced": 57, "over": True},
        {"game": 12, "variant": "oware", "first": 0, "last": 9, "synced": -1, "over": False}]}),
                ("board", {"re": 12, "more": True, "games": [
                    {"game": 13, "variant": "kalah", "first": 0, "last": 41, "synced": -1, "over": True}]})],
    "records": [("board", {"re": 12, "game": 12, "more": False, "records": [
        {"ply": 0, "kind": "start", "variant": "oware", "options": {}, "t": 1767225600},
        {"ply": 1, "kind": "move", "move": 2, "player": 0, "t": 1767225612}]})],
    "log": [("board", {"level": "warn", "msg": "cell 7 reads empty but should hold 2 seeds"})],
}


def all_examples():
    for mtype, examples in sorted(EXAMPLES.items()):
        for sender, payload in examples:
            yield mtype, sender, payload


def decode_all(data, sender=None):
    d = Decoder(sender)
    return d, d.feed(data)


# ----- CRC-32 ----------------------------------------------------------------


@pytest.mark.parametrize("data, value", [
    (b"", 0),
    (b"123456789", 0xCBF43926),  # the CRC-32 check value
    (b"The quick brown fox jumps over the lazy dog", 0x414FA339),
    (b"\x00" * 32, 0x190A55AD),
    (b"\xff" * 32, 0xFF6CAB0B),
])
def test_crc32_known_values(data, value):
    assert crc.crc32(data) == value
    assert crc.crc32_pure(data) == value


def test_crc32_native_on_cpython():
    assert crc.NATIVE


def test_pure_crc32_equals_binascii_on_random_data_and_continuations():
    rng = random.Random(1)
    for n in list(range(0, 70)) + [255, 256, 1000, 4096]:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        start = rng.getrandbits(32)
        assert crc.crc32_pure(data) == binascii.crc32(data)
        assert crc.crc32_pure(data, start) == binascii.crc32(data, start)
        # feeding in two parts gives the CRC of the whole
        k = n // 3
        assert crc.crc32_pure(data[k:], crc.crc32_pure(data[:k])) == binascii.crc32(data)


def test_pure_crc32_accepts_memoryview_and_bytearray():
    assert crc.crc32_pure(memoryview(b"x123456789")[1:]) == 0xCBF43926
    assert crc.crc32_pure(bytearray(b"123456789")) == 0xCBF43926


# ----- canonical JSON -------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_dumps_is_cpython_json_in_canonical_form(value):
    for c_lists in (False, True):  # True: lists of plain words through the C json, as on MicroPython
        codec._C_LISTS = c_lists
        try:
            text = codec.dumps(value)
        finally:
            codec._C_LISTS = False
        assert text == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        assert json.loads(text) == value
        assert text.isascii() and "\n" not in text and "\r" not in text


@pytest.mark.parametrize("text", ["plain", "", 'quote " and backslash \\', "tab\tnew\nline\rcr\x08\x0c",
                                  "\x00\x01\x1f\x7f", "caf\u00e9", "\u2603 snow", "emoji \U0001F600", "\ud800"])
def test_strings_are_escaped_like_cpython(text):
    assert codec.dumps(text) == json.dumps(text)


def test_tuples_are_written_as_lists():
    assert codec.dumps({"m": (3, -1)}) == '{"m":[3,-1]}'


@pytest.mark.parametrize("value, words", [
    (1.5, "floats are not allowed"),
    ({"a": [0.0]}, "floats are not allowed"),
    ({1: "x"}, "keys must be strings"),
    ({"s": {1, 2}}, "cannot put"),
    ({"b": b"bytes"}, "cannot put"),
])
def test_dumps_refuses_what_has_no_portable_json(value, words):
    with pytest.raises(FrameError, match=words):
        codec.dumps(value)


def test_dumps_refuses_deep_nesting():
    value = []
    for _ in range(40):
        value = [value]
    with pytest.raises(FrameError, match="nested deeper"):
        codec.dumps(value)


# ----- the frame format -----------------------------------------------------


def test_worked_example_from_the_doc():
    frame = encode(1, "ping", {})
    assert frame == b"@0001 ping {} bf27fdbd\n"
    assert binascii.crc32(b"@0001 ping {}") == 0xBF27FDBD
    assert encode(0x2A, "hint", {"on": True}) == b'@002a hint {"on":true} fcaeee86\n'


def test_frame_layout():
    payload = {"variant": "oware", "options": {"seeds": 4}}
    frame = encode(0xBEEF, "new_game", payload)
    assert re.fullmatch(rb"@[0-9a-f]{4} [a-z_]{1,16} \S.* [0-9a-f]{8}\n", frame)
    body, tail = frame[:-1].rsplit(b" ", 1)
    assert int(tail, 16) == binascii.crc32(body)
    assert body == b'@beef new_game {"options":{"seeds":4},"variant":"oware"}'


@pytest.mark.parametrize("mtype, sender, payload", list(all_examples()))
def test_every_example_round_trips(mtype, sender, payload):
    frame = encode(77, mtype, payload)
    assert len(frame) <= codec.MAX_FRAME
    for d in (Decoder(sender), Decoder()):
        (msg,) = d.feed(frame)
        assert isinstance(msg, Message)
        assert (msg.seq, msg.type, msg.payload) == (77, mtype, json.loads(json.dumps(payload)))
        assert d.frames == 1 and d.bad_total() == 0


def test_every_type_has_an_example():
    assert set(EXAMPLES) == set(codec.messages())
    for mtype, (who, fields) in codec.messages().items():
        senders = {s for s, _ in EXAMPLES[mtype]}
        assert senders <= ({"board", "host"} if who == "*" else {who}), mtype


def test_encode_checks_its_arguments():
    with pytest.raises(FrameError, match="seq must be"):
        encode(65536, "ping")
    with pytest.raises(FrameError, match="seq must be"):
        encode(-1, "ping")
    with pytest.raises(FrameError, match="message type must be"):
        encode(1, "Ping")
    with pytest.raises(FrameError, match="message type must be"):
        encode(1, "a_type_name_too_long")
    with pytest.raises(FrameError, match="unknown message type 'frobnicate'"):
        encode(1, "frobnicate")
    with pytest.raises(FrameError, match="'hint' needs field 'on'"):
        encode(1, "hint", {})
    assert encode(1, "frobnicate", {"x": 1}, check=False).startswith(b"@0001 frobnicate ")


def test_encode_refuses_a_frame_over_the_limit():
    records = [{"ply": i, "kind": "move", "move": i % 6, "player": i % 2} for i in range(200)]
    with pytest.raises(FrameError) as info:
        encode(1, "records", {"re": 1, "game": 1, "records": records, "more": False})
    assert info.value.reason == codec.TOO_LONG
    assert "longer than the 4096-byte limit" in str(info.value)


def test_fit_keeps_the_longest_prefix_that_frames_within_the_limit():
    rng = random.Random(5)
    for trial in range(200):
        records = [{"ply": i, "kind": "move", "move": rng.randrange(6), "player": i % 2,
                    "name": "x" * rng.randrange(0, 300)} for i in range(rng.randrange(0, 120))]
        limit = rng.choice([codec.MAX_FRAME, 300, 1000])
        reply = {"game": 3, "records": list(records), "more": False}
        cut = codec.fit("records", reply, "records", limit)
        kept = reply["records"]
        assert kept == records[:len(records) - cut]
        reply["re"] = 65535                          # the room fit() kept for the link's "re"
        assert len(encode(65535, "records", reply)) <= limit
        if cut:                                      # one more would not have fitted
            reply["records"] = records[:len(kept) + 1]
            body = ("@ffff records " + codec.dumps(reply)).encode()
            assert len(body) + 10 > limit
    games = {"games": [{"game": g, "variant": "oware", "first": 0, "last": 9, "synced": -1, "over": True}
                       for g in range(200)], "re": 4}
    assert codec.fit("journal", games, "games") > 0     # "re" is there already: no room kept for it
    assert len(encode(4, "journal", games)) > codec.MAX_FRAME - 90


# ----- validation -----------------------------------------------------------


@pytest.mark.parametrize("mtype, payload, sender, reason, words", [
    ("frobnicate", {}, None, "unknown_type", "unknown message type"),
    ("state", EXAMPLES["state"][0][1], "host", "unknown_type", "'state' is sent by the board, not by the host"),
    ("new_game", {"variant": "oware"}, "board", "unknown_type", "sent by the host"),
    ("hint", [], None, "bad_payload", "must be a JSON object"),
    ("hint", {}, None, "bad_payload", "'hint' needs field 'on' (true or false)"),
    ("hint", {"on": 1}, None, "bad_payload", "field 'on' must be true or false, not 1"),
    ("brightness", {"level": True}, None, "bad_payload", "must be an integer >= 0, not True"),
    ("brightness", {"level": -1}, None, "bad_payload", "must be an integer >= 0"),
    ("brightness", {"level": 3.0}, None, "bad_payload", "must be an integer >= 0, not 3.0"),
    ("ok", {"re": 65536}, None, "bad_payload", "seq number 0..65535"),
    ("reboot", {"to": "bootloader"}, None, "bad_payload", "one of app, repl"),
    ("step", {"game": 1, "ply": 1, "ev": "jumped", "cell": 3}, None, "bad_payload", "one of lifted, dropped, mismatch"),
    ("hello", {"proto": [1], "role": "host", "sw": "x"}, None, "bad_payload", "[major, minor]"),
    ("hello", {"proto": [1, "0"], "role": "host", "sw": "x"}, None, "bad_payload", "[major, minor]"),
    ("hello", {"proto": [1, 0], "role": "board", "sw": "x"}, None, "bad_payload", "a board's 'hello' needs field 'board'"),
    ("hello", {"proto": [1, 0], "role": "board", "sw": "x", "board": "b", "config": {"geometry": {}},
               "variants": []}, None, "bad_payload", "'config' needs field 'sensors'"),
    ("hello", {"proto": [1, 0], "role": "board", "sw": "x", "board": "b",
               "config": {"geometry": {}, "sensors": {}}, "variants": [3]}, None, "bad_payload", "must list strings"),
    ("journal", {"re": 1, "games": [{"game": 1}]}, None, "bad_payload", "games[0] needs field 'variant'"),
    ("journal", {"re": 1, "games": [7]}, None, "bad_payload", "games[0] must be an object"),
    ("records", {"re": 1, "game": 1, "more": False, "records": [{"ply": -1, "kind": "move"}]}, None,
     "bad_payload", "records[0] field 'ply' must be an integer >= 0"),
    ("leds", {"lit": [[1, 2]]}, None, "bad_payload", "[cell, role] or [cell, role, count]"),
    ("leds", {"lit": [[1, "need", -2]]}, None, "bad_payload", "[cell, role] or [cell, role, count]"),
    ("leds", {"lit": [[1, "need", 2, 0]]}, None, "bad_payload", "[cell, role] or [cell, role, count]"),
    ("journal_list", {"from": -1}, None, "bad_payload", "'journal_list' field 'from' must be an integer >= 0"),
    ("journal", {"re": 1, "games": [], "more": 1}, None, "bad_payload", "field 'more' must be true or false"),
    ("press", {}, None, "bad_payload", "'press' needs field 'button' (one of confirm, undo, hint, menu)"),
    ("press", {"button": "reset"}, None, "bad_payload", "one of confirm, undo, hint, menu, not 'reset'"),
    ("press", {"button": "confirm"}, "board", "unknown_type", "'press' is sent by the host, not by the board"),
    ("sim", {"act": "shake"}, None, "bad_payload", "one of lift, drop, take, add, remove, press, seeds"),
    ("sim", {"act": "drop", "n": -1}, None, "bad_payload", "'sim' field 'n' must be an integer >= 0"),
    ("sim", {"act": "lift", "cell": "a"}, None, "bad_payload", "'sim' field 'cell' must be an integer"),
    ("hello", {"proto": [1, 1], "role": "board", "sw": "x", "board": "b", "config": {"geometry": {}, "sensors": {}},
               "variants": [], "virtual": 1}, None, "bad_payload", "field 'virtual' must be true or false"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": [1], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": [], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": ["place", [0]], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": ["place", True], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": [3, "c n"], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
    ("move", {"game": 1, "ply": 1, "player": 0, "move": [3, 1, 0, 0], "trace": None}, None, "bad_payload",
     "a pit, [pit, choices...] or a staged move"),
])

def test_validate_says_what_is_wrong(mtype, payload, sender, reason, words):
    with pytest.raises(FrameError) as info:
        codec.validate(mtype, payload, sender)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)
    assert words in str(info.value)

def moves_the_rules_core_makes(variant, games=3, plies=60):
    """Every legal move met in a few random games of `variant`, as JSON holds them."""
    import mancala
    from sowlight_fw.journal.records import move_json
    seen = {}
    for seed in range(games):
        rng = random.Random(seed)
        g = mancala.Game(variant)
        for _ in range(plies):
            if g.is_over():
                break
            moves = list(g.legal_moves())
            for m in moves:
                seen.setdefault(json.dumps(move_json(m)), move_json(m))
            g.play(rng.choice(moves))
    return list(seen.values())


@pytest.mark.parametrize("variant", ["oware", "kalah", "enkeshui", "omweso", "kombe", "coro", "aweet", "lukho"])
def test_moves_of_every_form_the_rules_core_makes_are_accepted(variant):
    """A move the board reports must reach the host: a `move` event the codec refused would be
    lost on the way (the host then finds the move only in the journal)."""
    moves = moves_the_rules_core_makes(variant)
    assert moves
    for move in moves:
        payload = {"game": 1, "ply": 2, "player": 0, "move": move, "trace": None}
        codec.validate("move", payload, "board")
        frame = codec.encode(7, "move", payload)
        assert codec.parse_line(frame.rstrip(b"\n"), codec.BOARD).payload["move"] == move


def test_every_variants_moves_are_accepted():
    import mancala
    refused = {}
    for info in mancala.variant_infos():
        for move in moves_the_rules_core_makes(info["id"], games=1, plies=30):
            try:
                codec.validate("move", {"game": 1, "ply": 2, "player": 0, "move": move, "trace": None}, "board")
            except FrameError:
                refused.setdefault(info["id"], move)
    assert refused == {}



def test_unknown_fields_are_allowed_for_newer_minor_versions():
    codec.validate("hint", {"on": True, "fade_ms": 300})
    (msg,) = Decoder("host").feed(encode(1, "hint", {"on": True, "fade_ms": 300}))
    assert msg.payload["fade_ms"] == 300


def test_hello_versions():
    board = EXAMPLES["hello"][1][1]
    assert codec.check_hello(board) == (1, 0)   # 1.0, 1.1 and 1.2 talk: minors only add
    assert (codec.PROTO_MAJOR, codec.PROTO_MINOR) == (1, 2)
    assert codec.check_hello(dict(board, proto=[1, 7])) == (1, 7)  # a newer minor talks to us
    with pytest.raises(codec.VersionError) as info:
        codec.check_hello(dict(board, proto=[0, 9]))
    assert "the board speaks link protocol 0.9, this side speaks 1.2" in str(info.value)
    assert "redeploy the firmware" in str(info.value)
    with pytest.raises(codec.VersionError, match="update the companion"):
        codec.check_hello(dict(board, proto=[2, 0]))
    host = EXAMPLES["hello"][0][1]
    with pytest.raises(codec.VersionError, match="host speaks link protocol 2.0.*redeploy the firmware"):
        codec.check_hello(dict(host, proto=[2, 0]))
    with pytest.raises(codec.VersionError, match="update the companion"):
        codec.check_hello(dict(host, proto=[0, 1]))
    mine = codec.hello("host", "sowlight 0.1.0", time=5)
    assert mine == {"proto": [codec.PROTO_MAJOR, codec.PROTO_MINOR], "role": "host", "sw": "sowlight 0.1.0", "time": 5}
    codec.validate("hello", mine)


def test_a_brief_board_hello_may_leave_out_config_and_variants():
    board = dict(EXAMPLES["hello"][1][1])
    del board["config"], board["variants"]
    with pytest.raises(codec.FrameError, match="needs field 'config'"):
        codec.validate("hello", board)
    codec.validate("hello", dict(board, brief=True))      # (1.2) the answer to a host's brief hello


def test_error_codes_are_documented_in_the_table():
    for code, meaning in codec.ERRORS.items():
        assert re.fullmatch(r"[a-z_]+", code) and meaning
    # the codes BadFrame.answer() uses are in the table
    for reason in (codec.MALFORMED, codec.UNKNOWN_TYPE, codec.BAD_PAYLOAD):
        kind, payload = BadFrame(reason, 3, "x").answer()
        assert kind == "error" and payload["code"] in codec.ERRORS


# ----- the decoder ----------------------------------------------------------


def sample_stream(rng, n=60):
    """n good frames of every type, with increasing seqs, and what they hold."""
    examples = list(all_examples())
    frames, expected = [], []
    for i in range(n):
        mtype, _, payload = examples[rng.randrange(len(examples))]
        frames.append(encode(i % 65536, mtype, payload))
        expected.append((i % 65536, mtype, json.loads(json.dumps(payload))))
    return b"".join(frames), expected


def triples(items):
    return [(m.seq, m.type, m.payload) for m in items]


def test_decoder_byte_by_byte_and_in_random_chunks():
    rng = random.Random(2)
    data, expected = sample_stream(rng)
    whole = Decoder()
    assert triples(whole.feed(data)) == expected
    one = Decoder()
    got = []
    for i in range(len(data)):
        got += one.feed(data[i:i + 1])
    assert triples(got) == expected
    for trial in range(20):
        d = Decoder()
        got, i = [], 0
        while i < len(data):
            k = rng.choice([1, 2, 3, 7, 63, 64, 65, 200, 1000, 5000])
            got += d.feed(data[i:i + k])
            i += k
        assert triples(got) == expected
        assert d.frames == len(expected) and d.bad_total() == 0


def test_decoder_accepts_bytearray_and_memoryview():
    frame = encode(3, "ping", {})
    d = Decoder()
    assert len(d.feed(bytearray(frame[:5]))) == 0
    (msg,) = d.feed(memoryview(frame)[5:])
    assert msg.type == "ping"


def test_crlf_uppercase_hex_and_blank_lines_are_accepted():
    frame = encode(0xABCD, "hint", {"on": False})
    body = b'@ABCD hint {"on":false}'  # the CRC covers the bytes as sent, upper case or not
    upper = body + b" %08X\r\n" % binascii.crc32(body)
    d = Decoder()
    items = d.feed(b"\n\r\n\n" + upper + b"\n\n" + frame)
    assert triples(items) == [(0xABCD, "hint", {"on": False})] * 2
    assert d.bad_total() == 0


def crc_line(body):
    return body + b" %08x" % binascii.crc32(body)


@pytest.mark.parametrize("line, reason, seq", [
    (b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040", "noise", None),
    (b">>> ", "noise", None),
    (b"@0001 ping {} bf27fdbe", "checksum", None),
    (b"@0001 pong {} bf27fdbd", "checksum", None),
    (b"@0001 ping {}", "malformed", None),
    (b"@0001 ping {} bf27fdbg", "malformed", None),
    (b"@0001 ping {} +f27fdbd", "malformed", None),
    (b"@1", "malformed", None),
    (crc_line(b"@001 ping {}"), "malformed", None),
    (crc_line(b"@00001 ping {}"), "malformed", None),
    (crc_line(b"@0x01 ping {}"), "malformed", None),
    (crc_line(b"@0002 Ping {}"), "malformed", 2),
    (crc_line(b"@0002 ping"), "malformed", 2),
    (crc_line(b"@0002 a_type_name_too_long {}"), "malformed", 2),
    (crc_line(b"@0002 ping {"), "malformed", 2),
    (crc_line(b"@0002 ping {} {}"), "malformed", 2),
    (crc_line(b"@0002 ping \xff\xfe"), "malformed", 2),
    (crc_line(b"@0002 ping [1]"), "bad_payload", 2),
    (crc_line(b"@0002 ping 3"), "bad_payload", 2),
    (crc_line(b'@0002 hint {"on":"yes"}'), "bad_payload", 2),
    (crc_line(b"@0002 frobnicate {}"), "unknown_type", 2),
    (crc_line(b"@0002 state {}"), "unknown_type", 2),  # the host never sends a state
])
def test_bad_lines_are_counted_by_reason(line, reason, seq):
    d = Decoder("host")
    good = encode(9, "ping", {})
    items = d.feed(line + b"\n" + good)
    assert len(items) == 2
    bad, after = items
    assert isinstance(bad, BadFrame) and bad.reason == reason and bad.seq == seq
    assert isinstance(after, Message) and after.seq == 9  # decoding goes on at the next line
    assert d.errors[reason] == 1 and d.bad_total() == 1 and d.frames == 1


def test_too_long_lines_are_skipped_to_the_next_newline():
    limit = codec.MAX_FRAME
    pad = {"level": "info", "msg": ""}
    base = len(encode(1, "log", pad))
    exact = encode(1, "log", dict(pad, msg="x" * (limit - base)))
    assert len(exact) == limit
    body = b'@0002 log {"level":"info","msg":"' + b"x" * (limit - base + 1) + b'"}'
    over = crc_line(body) + b"\n"
    assert len(over) == limit + 1
    good = encode(3, "ping")
    for chunk in (len(over) + len(good) + len(exact), 1000, 64, 7):
        d = Decoder("board")
        stream = exact + over + b"y" * 20000 + b"\n" + good
        chunks = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
        items = []
        tracemalloc.start()
        try:
            for part in chunks:
                items += d.feed(part)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        kinds = [(type(x).__name__, getattr(x, "reason", None), x.seq) for x in items]
        assert kinds == [("Message", None, 1), ("BadFrame", "too_long", None),
                         ("BadFrame", "too_long", None), ("Message", None, 3)], chunk
        assert d.errors["too_long"] == 2
        assert peak < 20000  # the 20000-byte line is skipped, never held: the buffer never grows


def test_a_damaged_line_that_ends_with_a_frame_keeps_the_frame():
    a = encode(1, "ping", {})
    b = encode(2, "hint", {"on": True})
    d = Decoder("host")
    # a line cut off by a link drop, then the next frame; two frames whose newline was lost
    items = d.feed(a[:12] + b + a[:-1] + b + b"junk@@" + a)
    assert [type(x).__name__ for x in items] == ["BadFrame", "Message", "Message", "Message", "BadFrame", "Message"]
    assert triples([x for x in items if isinstance(x, Message)]) == [
        (2, "hint", {"on": True}), (1, "ping", {}), (2, "hint", {"on": True}), (1, "ping", {})]
    assert d.errors == dict.fromkeys(codec.REASONS, 0) | {"malformed": 1, "noise": 1}


def test_frame_text_inside_a_string_is_never_taken_for_a_frame():
    inner = encode(5, "ping", {})[:-1].decode()
    outer = encode(6, "log", {"level": "info", "msg": inner})
    d = Decoder("board")
    (msg,) = d.feed(outer)
    assert msg.type == "log" and msg.payload["msg"] == inner
    damaged = outer[:3] + b"X" + outer[4:]
    items = d.feed(damaged)
    assert [x.reason for x in items] == ["checksum"]


def test_answers_to_bad_frames():
    t, p = BadFrame("checksum", None, "CRC-32 mismatch").answer()
    assert (t, p) == ("resync", {"reason": "checksum"})
    t, p = BadFrame("noise", None, "x").answer()
    assert t == "resync"
    t, p = BadFrame("bad_payload", 12, "y" * 500).answer()
    assert t == "error" and p["code"] == "bad_payload" and p["re"] == 12 and len(p["msg"]) <= 160
    t, p = BadFrame("malformed", 4, "not JSON").answer()
    assert p["code"] == "bad_frame"
    for sender in ("board", "host"):  # either side can send the answer
        for bad in (BadFrame("too_long", None, "x"), BadFrame("unknown_type", 1, "z")):
            t, p = bad.answer()
            assert isinstance(Decoder(sender).feed(encode(1, t, p))[0], Message)


def test_parse_line_never_raises_even_on_odd_json():
    nested = b"[" * 5000 + b"]" * 5000
    item = codec.parse_line(crc_line(b"@0001 ping " + nested))
    assert isinstance(item, BadFrame) and item.reason in ("malformed", "bad_payload")
    item = codec.parse_line(crc_line(b"@0001 ping NaN"))
    assert item.reason in ("malformed", "bad_payload")


# ----- sequence numbers -----------------------------------------------------


def test_seq_tracker():
    t = codec.SeqTracker()
    assert t.check(65534) == codec.IN_ORDER  # the first frame sets the start
    assert t.check(65535) == codec.IN_ORDER
    assert t.check(0) == codec.IN_ORDER      # wraps round
    assert t.check(0) == codec.DUPLICATE
    assert t.last == 0
    assert t.check(4) == codec.GAP           # 1, 2, 3 lost
    assert (t.gaps, t.missed) == (1, 3)
    assert t.check(5) == codec.IN_ORDER
    assert t.check(65530) == codec.BEHIND    # the peer restarted with other numbers
    assert t.check(65531) == codec.IN_ORDER
    assert (t.duplicates, t.behind) == (1, 1)
    t.reset(100)
    assert t.check(101) == codec.IN_ORDER
    t.reset()
    assert t.check(7) == codec.IN_ORDER


def test_encoder_numbers_frames_and_wraps():
    e = codec.Encoder(start=65534)
    seqs = []
    for _ in range(4):
        frame = e.frame("ping")
        seqs.append(e.seq)
        assert frame.startswith(b"@%04x " % e.seq)
    assert seqs == [65534, 65535, 0, 1]
    with pytest.raises(FrameError):
        e.frame("hint", {})
    assert e.seq == 1  # a frame that could not be made used no number


def test_seq_tracker_sees_every_lost_frame_through_a_lossy_pipe():
    rng = random.Random(5)
    pipe = FaultyPipe(seed=5, drop=0.002)
    enc = codec.Encoder()
    d = Decoder("board")
    t = codec.SeqTracker()
    sent = 3000
    for _ in range(sent):
        pipe.write(enc.frame("log", {"level": "info", "msg": "x" * rng.randrange(60)}))
    got = [m for m in d.feed(pipe.read()) if isinstance(m, Message)]
    for m in got:
        t.check(m.seq)
    first_lost = got[0].seq  # frames lost before the first one seen are not gaps
    last_lost = sent - 1 - got[-1].seq
    assert t.missed + first_lost + last_lost == sent - len(got)
    assert t.missed > 0 and t.duplicates == 0


# ----- chunked writes -------------------------------------------------------


def test_chunks_stay_under_64_bytes():
    for n in (1, 62, 63, 64, 65, 126, 127, 128, 4096):
        frame = bytes(range(256)) * (n // 256) + bytes(n % 256)
        pieces = [bytes(p) for p in codec.chunks(frame)]
        assert b"".join(pieces) == frame
        assert all(0 < len(p) <= 63 for p in pieces)


def test_write_chunked_copes_with_short_writes():
    frame = encode(1, "log", {"level": "info", "msg": "m" * 300})
    got, sizes = bytearray(), []

    def short_write(piece):
        k = max(1, len(piece) // 2)
        got.extend(bytes(piece[:k]))
        sizes.append(len(piece))
        return k

    assert codec.write_chunked(short_write, frame) == len(frame)
    assert bytes(got) == frame and max(sizes) <= 63 and 64 not in sizes

    plain = bytearray()
    codec.write_chunked(lambda p: plain.extend(p), frame)  # returns None: all taken
    assert bytes(plain) == frame

    with pytest.raises(OSError, match="took no bytes"):
        codec.write_chunked(lambda p: 0, frame)


# ----- the fault-injecting pipe ---------------------------------------------


def test_pipe_without_faults_is_transparent():
    link = FaultyLink(seed=1)
    link.a.write(b"hello ")
    link.a.write(b"board")
    link.b.write(b"hi")
    assert link.b.in_waiting == 11
    assert link.b.read(6) == b"hello "
    assert link.b.read() == b"board"
    assert link.a.read() == b"hi"
    assert link.b.read() == b""


def test_pipe_faults_are_seeded_and_counted():
    data = bytes(range(256)) * 400  # 102400 bytes
    runs = []
    for _ in range(2):
        p = FaultyPipe(seed=11, drop=0.01, corrupt=0.01, duplicate=0.01)
        p.write(data)
        runs.append((p.read(), p.dropped, p.corrupted, p.duplicated))
    assert runs[0] == runs[1]  # same seed, same faults
    out, dropped, corrupted, duplicated = runs[0]
    n = len(data)
    for count in (dropped, corrupted, duplicated):
        assert 0.007 * n < count < 0.013 * n
    assert len(out) == n - dropped + duplicated
    other = FaultyPipe(seed=12, drop=0.01, corrupt=0.01, duplicate=0.01)
    other.write(data)
    assert other.read() != out


def test_pipe_corruption_changes_bytes_and_duplication_repeats_them():
    p = FaultyPipe(seed=3, corrupt=1.0)
    p.write(b"\x00" * 1000)
    assert b"\x00" not in p.read()
    p = FaultyPipe(seed=3, duplicate=1.0)
    p.write(b"abc")
    assert p.read() == b"aabbcc"
    p = FaultyPipe(seed=3, drop=1.0)
    p.write(b"abc")
    assert p.read() == b"" and p.dropped == 3


def test_pipe_repeats_whole_writes():
    p = FaultyPipe(seed=4, repeat=1.0)
    frame = encode(1, "ping")
    p.write(frame)
    assert p.read() == frame + frame and p.repeated == 1
    (m1, m2) = Decoder().feed(frame + frame)
    t = codec.SeqTracker()
    assert [t.check(m1.seq), t.check(m2.seq)] == [codec.IN_ORDER, codec.DUPLICATE]


def test_pipe_cut_at_a_chosen_byte_and_restore():
    p = FaultyPipe(seed=5)
    p.cut_at(10)
    p.write(b"0123456789abcdef")
    assert p.read() == b"0123456789"
    assert p.lost_to_cuts == 6 and not p.up
    p.write(b"lost")
    assert p.read() == b""
    p.restore()
    p.write(b"back")
    assert p.read() == b"back"
    with pytest.raises(ValueError, match="already written"):
        p.cut_at(3)


def test_link_cut_discards_bytes_in_flight():
    link = FaultyLink(seed=6)
    link.a.write(b"in flight")
    link.cut()
    link.a.write(b"while down")
    link.restore()
    link.a.write(b"after")
    assert link.b.read() == b"after"
    assert link.a_to_b.lost_to_cuts == len(b"in flight") + len(b"while down")


def test_pipe_rejects_bad_rates():
    with pytest.raises(ValueError, match="between 0 and 1"):
        FaultyPipe(drop=1.5)
    with pytest.raises(ValueError, match="must not exceed 1"):
        FaultyPipe(drop=0.5, corrupt=0.4, duplicate=0.2)


def test_frames_through_a_faulty_link_are_intact_or_counted():
    """Damaged frames are never taken for good ones, and none is lost without being counted."""
    rng = random.Random(8)
    link = FaultyLink(seed=8, drop=0.0005, corrupt=0.0005, duplicate=0.0005, repeat=0.01)
    enc = codec.Encoder()
    sent = {}
    examples = [(t, p) for t, s, p in all_examples() if s == "board"]
    for _ in range(4000):
        mtype, payload = examples[rng.randrange(len(examples))]
        link.b.write(enc.frame(mtype, payload))
        sent[enc.seq] = (mtype, json.loads(json.dumps(payload)))
    d = Decoder("board")
    items = []
    while link.a.in_waiting:
        items += d.feed(link.a.read(rng.randrange(1, 300)))
    good = [m for m in items if isinstance(m, Message)]
    for m in good:
        assert sent[m.seq] == (m.type, m.payload)
    assert d.frames == len(good) and d.bad_total() == len(items) - len(good)
    damaged = link.b_to_a.dropped + link.b_to_a.corrupted + link.b_to_a.duplicated
    assert d.bad_total() > 0 and damaged > 0
    assert len({m.seq for m in good}) > 4000 - 2 * damaged  # each fault costs at most two frames


def test_a_cut_at_any_byte_loses_only_the_frame_it_hits():
    frames = [encode(i, "hint", {"on": i % 2 == 0}) for i in range(3)]
    total = sum(len(f) for f in frames)
    for offset in range(total):
        link = FaultyLink(seed=offset)
        link.a_to_b.cut_at(offset)
        d = Decoder("host")
        items = []
        for f in frames:
            link.a.write(f)
            items += d.feed(link.b.read())
        link.restore()
        link.a.write(encode(3, "ping"))  # the session goes on after the cut
        items += d.feed(link.b.read())
        seqs = [m.seq for m in items if isinstance(m, Message)]
        # a frame comes through when the cut spares all of it, or all but its
        # newline: then the next frame's newline ends it, and the decoder finds both
        delivered = [i for i in range(3) if sum(len(f) for f in frames[:i + 1]) - 1 <= offset]
        assert seqs == delivered + [3], offset


# ----- the protocol document ------------------------------------------------


def doc_frames():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```frames\n(.*?)```", text, re.S)
    return [line.encode() for block in blocks for line in block.splitlines() if line.strip()]


def test_every_frame_in_the_doc_is_valid_and_every_type_is_shown():
    lines = doc_frames()
    assert len(lines) >= len(codec.messages())
    shown = set()
    for line in lines:
        item = codec.parse_line(line)
        assert isinstance(item, Message), (line, item)
        assert encode(item.seq, item.type, item.payload) == line + b"\n"  # canonical as written
        shown.add(item.type)
    assert shown == set(codec.messages())


def test_doc_lists_every_message_type_and_error_code():
    text = DOC.read_text(encoding="utf-8")
    for mtype in codec.messages():
        assert re.search(r"^#### `%s`" % mtype, text, re.M), "docs/protocol.md has no section for %s" % mtype
    for code in codec.ERRORS:
        assert "| `%s` |" % code in text, "docs/protocol.md does not list error code %s" % code
    for reason in codec.REASONS:
        assert "`%s`" % reason in text
    assert str(codec.MAX_FRAME) in text


# ----- the same codec on MicroPython ----------------------------------------

VM_SCRIPT = r"""
import json
from sowlight_fw import crc
from sowlight_fw.link import codec
cases = json.loads(open("/data/cases.json").read())
out = []
for seq, mtype, payload in cases:
    out.append(codec.encode(seq, mtype, payload).decode())
d = codec.Decoder()
stream = open("/data/stream.bin", "rb").read()
items = []
i = 0
step = 1
while i < len(stream):
    items += d.feed(stream[i:i + step])
    i += step
    step = step * 3 % 97 + 1
got = []
for x in items:
    if isinstance(x, codec.Message):
        got.append(["m", x.seq, x.type, x.payload])
    else:
        got.append(["b", x.reason, x.seq])
print(json.dumps({"frames": out, "items": got, "errors": d.errors,
                  "crc": [crc.crc32(b"123456789"), crc.crc32_pure(b"123456789"),
                          crc.crc32_pure(stream), crc.crc32(stream)],
                  "native": crc.NATIVE}))
"""


def describe(items):
    out = []
    for x in items:
        if isinstance(x, Message):
            out.append(["m", x.seq, x.type, x.payload])
        else:
            out.append(["b", x.reason, x.seq])
    return out


def test_codec_on_micropython_gives_the_same_bytes_and_decodes_the_same(micropython, tmp_path):
    cases = [[i * 4099 % 65536, t, p] for i, (t, s, p) in enumerate(all_examples())]
    cases.append([1, "log", {"level": "info", "msg": "caf\u00e9 \"q\" \\ \t\x01\x7f \u2603"}])
    cases.append([2, "leds", {"lit": [[1, "drop"], [2, "caf\u00e9"], [3, "tab\there"], [-4, "\x08\x0c"]]}])
    cases.append([3, "move", {"game": 2**40, "ply": 0, "player": 0, "move": [1, -1], "trace": [], "x": [True, None]}])
    rng = random.Random(9)
    good = b"".join(encode(s, t, p) for s, t, p in cases)
    noise = bytearray(good)
    for _ in range(40):  # damage some frames; the rest must come through unchanged
        noise[rng.randrange(len(noise))] = rng.randrange(256)
    stream = good + b">>> MicroPython banner\r\n" + bytes(noise) + b"x" * 5000 + b"\n" + good
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "stream.bin").write_bytes(stream)
    result = json.loads(micropython.run(VM_SCRIPT, mounts={"/data": tmp_path}).strip().splitlines()[-1])
    assert result["frames"] == [encode(s, t, p).decode() for s, t, p in cases]
    d = Decoder()
    items = d.feed(stream)
    assert result["items"] == describe(items)
    assert result["errors"] == d.errors
    assert result["crc"] == [0xCBF43926] * 2 + [binascii.crc32(stream)] * 2


def test_a_move_message_whose_trace_is_step_tuples_is_written_as_lists_on_both_interpreters(micropython):
    # The board queues a `move` message with the move's Step tuples (named tuples) as its trace;
    # MicroPython's json would write a named tuple as its repr, so the codec makes them plain.
    import mancala
    trace = list(mancala.Game("kalah").play(2))
    as_lists = {"game": 1, "ply": 1, "player": 0, "move": 2, "name": "C", "pos": {"pits": [1], "stores": [0, 0], "to_move": 1},
                "trace": [list(s) for s in trace]}
    frame = encode(7, "move", dict(as_lists, trace=trace))
    assert frame == encode(7, "move", as_lists)
    assert json.loads(frame.decode().split(" ", 2)[2].rsplit(" ", 1)[0])["trace"][0] == ["lift", 2, 4, -1]
    got = micropython.run(
        "import mancala\nfrom sowlight_fw.link import codec\n"
        "t = list(mancala.Game('kalah').play(2))\n"
        "p = {'game': 1, 'ply': 1, 'player': 0, 'move': 2, 'name': 'C', 'pos': {'pits': [1], 'stores': [0, 0], 'to_move': 1}, 'trace': t}\n"
        "print(codec.encode(7, 'move', p).decode())\n").strip().splitlines()[-1]
    assert got.encode() + b"\n" == frame


def test_a_trace_that_makes_a_step_again_is_written_whole_on_both_interpreters(micropython):
    # The codec writes each distinct step of a frame once and reuses its text (a long trace
    # meets the same shared Step tuples again and again): every occurrence is still written.
    from mancala.trace import Step
    steps = [Step("lift", 3, 2, -1), Step("drop", 4, 1, -1), Step("drop", 5, 1, -1), Step("drop", 4, 1, -1),
             ("drop", 5, 1, -1), Step("take", 4, 2, -2), [1, ["x", 2]], Step("drop", 4, 1, -1),
             Step("drop", 6, 1, None), Step('s"o\u00e9', 1, 1, -1)]     # (not a Step's usual types: written piece by piece)
    payload = {"game": 1, "ply": 1, "player": 0, "move": [3, "cn"], "name": "d4", "trace": steps,
               "pos": {"pits": [1], "stores": [], "to_move": 1}}
    frame = encode(9, "move", payload)
    assert frame == encode(9, "move", dict(payload, trace=[list(s) for s in steps]))
    assert json.loads(frame.decode().split(" ", 2)[2].rsplit(" ", 1)[0])["trace"][3:6] == [
        ["drop", 4, 1, -1], ["drop", 5, 1, -1], ["take", 4, 2, -2]]
    got = micropython.run(
        "from mancala.trace import Step\nfrom sowlight_fw.link import codec\n"
        "t = [Step('lift', 3, 2, -1), Step('drop', 4, 1, -1), Step('drop', 5, 1, -1), Step('drop', 4, 1, -1),\n"
        "     ('drop', 5, 1, -1), Step('take', 4, 2, -2), [1, ['x', 2]], Step('drop', 4, 1, -1),\n"
        "     Step('drop', 6, 1, None), Step('s\"o\\u00e9', 1, 1, -1)]\n"
        "p = {'game': 1, 'ply': 1, 'player': 0, 'move': [3, 'cn'], 'name': 'd4', 'trace': t,\n"
        "     'pos': {'pits': [1], 'stores': [], 'to_move': 1}}\n"
        "print(codec.encode(9, 'move', p).decode())\n").strip().splitlines()[-1]
    assert got.encode() + b"\n" == frame
