"""Debouncing the pit sensors (firmware/sowlight_fw/follow/observe.py), against its definition.

A cell's stable value is the last reading that held, scan after scan, for
debounce_ms; a reading that changes before then is never stable.  The model
below says that directly, one cell at a time; the Observer does it for every
cell at once, looking only at the cells whose reading has not yet held.
"""
from hypothesis import given, settings
from hypothesis import strategies as st

from sowlight_fw.follow.observe import UNKNOWN, Observer

SCAN_MS = 20
DEBOUNCE_MS = 60
CELLS = 5


def model(readings, debounce):
    """Each scan's stable value of one cell, from its readings (one per scan)."""
    stable = UNKNOWN
    start = 0
    out = []
    for i, v in enumerate(readings):
        if i and v != readings[i - 1]:
            start = i
        if v is not None and (i - start) * SCAN_MS >= debounce:
            stable = v
        out.append(stable)
    return out


scans = st.lists(st.lists(st.sampled_from([0, 1, 2, UNKNOWN]), min_size=CELLS, max_size=CELLS),
                 min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(scans, st.lists(st.integers(0, CELLS - 1), max_size=3))
def test_a_cells_stable_value_is_its_last_reading_that_held_for_the_debounce(rows, repeat_from):
    # Readings often stay as they were for a while (the usual scan): repeat some rows.
    for k in repeat_from:
        if k < len(rows):
            rows[k + 1:k + 1] = [list(rows[k])] * 4
    # noisy_changes beyond what a cell can reach: no cell is ever called noisy here.
    o = Observer(CELLS, DEBOUNCE_MS, 200, 255)
    seen = []
    for i, row in enumerate(rows):
        now = (i + 1) * SCAN_MS
        due = o.due(now)
        before = list(o.stable)
        o.feed(list(row), now)
        seen.append(list(o.stable))
        # due() told ahead whether this scan changes a stable value, when no reading moved in it
        # (the app collects the garbage before such a scan).
        if i and row == rows[i - 1]:
            assert due == (o.stable != before), i
        # The cells still to settle are listed once each, and are those whose reading has not held.
        assert sorted(o.active) == sorted(set(o.active))
        assert [c for c in range(CELLS) if o.listed[c]] == sorted(o.active)
    for c in range(CELLS):
        assert [s[c] for s in seen] == model([row[c] for row in rows], DEBOUNCE_MS), c


def test_the_board_is_quiet_once_no_reading_has_changed_for_the_settle_time():
    o = Observer(2, DEBOUNCE_MS, 200, 255)
    o.feed([0, 1], 0)
    assert not o.quiet(100)
    for t in range(20, 200, 20):
        o.feed([0, 1], t)
    assert o.stable == [0, 1] and o.quiet(200)
    o.feed([1, 1], 220)
    assert o.moved and not o.quiet(300)
    o.feed([1, 1], 300)
    assert not o.moved and o.quiet(420) and o.stable == [1, 1]
