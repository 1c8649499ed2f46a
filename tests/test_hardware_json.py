"""The position-keeping JSON parser behind `sowlight board config check`."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from sowlight.hardware.config import JsonSyntaxError, parse_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from([None, 0, 2, "\t"]), st.booleans())
def test_decodes_exactly_what_json_decodes(value, indent, ascii_only):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert parse_json(text).value == json.loads(text)


def test_positions_of_keys_and_values():
    text = '{\n  "a": 1,\n  "b": [10,\n        {"c": "x"}],\n  "d": null\n}\n'
    located = parse_json(text)
    assert located.key_at[("a",)] == (2, 3)
    assert located.value_at[("a",)] == (2, 8)
    assert located.value_at[("b", 0)] == (3, 9)
    assert located.value_at[("b", 1)] == (4, 9)
    assert located.key_at[("b", 1, "c")] == (4, 10)
    assert located.value_at[("d",)] == (5, 8)
    # A path that does not exist falls back to the nearest part that does.
    assert located.where(("b", 1, "missing")) == (4, 9)


def test_columns_count_characters_not_bytes():
    located = parse_json('{"name": "Sowlight ×", "x": 1}')
    assert located.key_at[("x",)] == (1, 24)  # in bytes it would be 25


def test_duplicate_keys_are_recorded_with_both_lines():
    located = parse_json('{\n "a": 1,\n "a": 2\n}')
    assert located.value == {"a": 2}
    assert located.duplicates == [(("a",), (3, 2), (2, 2))]


@pytest.mark.parametrize("text, line, col, words", [
    ('{\n  "a": 1,\n}', 3, 1, "trailing comma"),
    ('{"a": [1, 2,]}', 1, 13, "trailing comma"),
    ('{\n  "a": 1\n  "b": 2\n}', 3, 3, "missing comma"),
    ('{\n  // pins\n  "a": 1\n}', 2, 3, "no comments"),
    ("{'a': 1}", 1, 2, "double quotes"),
    ('{"a": True}', 1, 7, "true, false, null"),
    ('{"a": "open\n}', 1, 12, "raw line break"),
    ('{"a": "never closed}', 1, 7, "never closed"),
    ('{"a": 01}', 1, 7, "leading zeros"),
    ('{"a": 1.}', 1, 7, "decimal point"),
    ('{"a": "\\q"}', 1, 8, "unknown escape"),
    ('{"a": 1}}', 1, 9, "after the end"),
    ('{"a": [1, 2}', 1, 12, "missing comma"),
    ('{"a": 1', 1, 8, "'}' is missing"),
    ("", 1, 1, "empty"),
])
def test_syntax_errors_say_where_and_what(text, line, col, words):
    with pytest.raises(JsonSyntaxError) as info:
        parse_json(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert words in info.value.reason


def test_surrogate_pairs_and_bom():
    assert parse_json('\ufeff["\\ud83c\\udf31"]').value == ["\U0001f331"]


def test_deep_nesting_is_refused_not_a_crash():
    with pytest.raises(JsonSyntaxError):
        parse_json("[" * 1000 + "]" * 1000)
