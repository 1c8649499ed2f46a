"""Every rule set in the sources: its id, where its code lives, its names, its board.

The registry imports this table only while it resolves a name (see
mancala.registry): the chosen variant's module is imported after that, and
the table is not kept.  Each row of entries() is

  (id, module, class, title, aliases, rows, pits_per_row, stores, players, source)

- module/class: where the variant's code is, or None when the sources record
  no rules (the entry is documented, not playable) or it is not built yet.
- rows, pits_per_row: the board the game is played on by default.
- stores: 0 = no store cell is sown (captures are kept beside the board),
  1 = each player's store is a cell of the sowing track.
- players: the numbers of players the rules allow.
- source: file and section in the source texts (docs/variants/<id>.md cites it in full).

The rows are written below as one string each, fields separated by "|"
(aliases and players by ","; the board as rows x pits): MicroPython keeps
every short string constant of a module in its table of interned strings for
good, but a long one is an ordinary object, freed with the table.
"""

_ROWS = (
    # Two rows.
    "oware|oware|Oware|Oware|wari,awele,awale,ayo,ourri|2x6|0|2|003 OWARE",
    "ayoayo|ayoayo|Ayoayo|Ayoayo|ayòayò,ayo ayo|2x6|0|2|003 AYÒAYÒ",
    "kalah|kalah|Kalah|Kalah|kalaha,kalah champion|2x6|1|2|003 KALAH",
    "dakon|dakon|Dakon|Dakon||2x7|1|2|000 THE STORY OF DAKON",
    "sunca|sunca|Sunca|Sunca|sungka|2x7|1|2|000 SUNCA",
    "pandi|pandi|Pandi|Pandi||2x7|0|2|000 PANDI",
    "sitas-solitaire|sita|SitasSolitaire|Sita's Solitaire|sita|2x7|0|1|000 SITA'S SOLITAIRE",
    "pallam-kuzhi|pallam_kuzhi|PallamKuzhi|Pallam Kuzhi|pallanguzhi,pallamkurie|2x7|0|2|000 PALLAM KUZHI",
    "mankaleh|mankaleh|Mankaleh|Mankaleh||2x7|0|2|000 MANKALEH",
    "egyptian-simple|egyptian|EgyptianSimple|Egyptian Mankalah (simple mode)|egyptian mankalah,egyptian mankalah simple mode,egyptian,game of the ignorants|2x6|0|2|000 EGYPTIAN MANKALAH A",
    "egyptian-advanced|egyptian|EgyptianAdvanced|Egyptian Mankalah (advanced mode)|egyptian mankalah advanced mode,game of the wise|2x6|0|2|000 EGYPTIAN MANKALAH B",
    "lane|lane|Lane|Mancala after Lane|mancala after lane,mankalah,mankal'ah,egyptian game of mankal'ah|2x6|0|2|002 Rules 1-10",
    "syrian|lane|Syrian|Syrian Mancala|syrian mancala,syrian game of mancala,manqala|2x7|0|2|001 The Syrian Game of Mancala",
    "adi|adi|Adi|Adi|african game of adi|2x6|0|2|000 THE AFRICAN GAME OF ADI",
    "giuthi|giuthi|Giuthi|Giuthi (Count and Capture)|gayothe|2x6|0|2|000 GIUTHI (Gayothe)",
    "giuthi-driedger|giuthi|GiuthiDriedger|Giuthi (Driedger)|kikuyu giuthi,kikuyu|2x8|0|2|004 12 - KIKUYU, GIUTHI",
    "kpo|kpo|Kpo|Kpo|poo,vei|2x6|0|2,3,4|000 MANCALA by Culin",
    "choro|||Choro||2x0|0|2|000 THE GAME OF CHORO",
    "annana|annana|Annana|Annana|djamo,kale,djamo poo kale|2x6|0|2|001 Annana; Djamo and Poo",
    "enkeshui|enkeshui|Enkeshui|Enkeshui|maasai,maasi|2x8|0|2|004 9 - MAASI, ENKESHUI",
    "mbothe|mbothe|Mbothe|Mbothe|pokomo|2x10|0|2|004 11 - POKOME, MBOTHE",
    "ndoto|ndoto|Ndoto|Ndoto|kilinje|2x8|0|2|004 13 - KILINJE, NDOTO",
    "kiothi|kiothi|Kiothi|Kiothi|meru|2x10|0|2|004 14 - MERU, KIOTHI",
    "lukho|lukho|Lukho|Lukho|bukuso|2x8|0|2|004 15 - BUKUSO, LUKHO",
    # Four rows (and Gabatta's three), built by the second rules issue.
    "mongola|mongola|Mongola|Mongola (Count and Capture)|congo|4x7|0|2|000 MONGOLA",
    "mongola-driedger|omweso|MongolaDriedger|Mongola (Driedger)|congo mongola|4x7|0|2|004 8 - CONGO, MONGOLA",
    "hus|hus|Hus|Hus|otjitoto|4x12|0|2|001 I. The Game of Hus",
    "maruba|maruba|Maruba|Maruba|mofuba|4x8|0|2|001 Maruba, Mofuba",
    "tschuba|maruba|Tschuba|Tschuba||4x8|0|2|001 Tschuba",
    "chuba|maruba|Chuba|Chuba||4x11|0|2|001 Chuba",
    "omweso|omweso|Omweso|Omweso|mweso,baganda|4x8|0|2|004 3 - MWESO, 4 - BAGANDA, OMWESO",
    "coro|omweso|Coro|Coro|lango|4x8|0|2|004 5 - LANGO, CORO",
    "kombe|omweso|Kombe|Kombe|lamu|4x8|0|2|004 6 - LAMU, KOMBE",
    "mongale|omweso|Mongale|Mongale|mombasa|4x8|0|2|004 7 - MOMBASA, MONGALE",
    "aweet|omweso|Aweet|Aweet|dinka|4x10|0|2|004 10 - DINKA (SUDAN), AWEET",
    "gabatta|||Gabatta|abyssinian gabatta|3x6|0|2|001 The Abyssinian Game of Gabatta",
)


def _row(text):
    f = text.split("|")
    rows, _, per_row = f[5].partition("x")
    return (f[0], f[1] or None, f[2] or None, f[3], tuple(f[4].split(",")) if f[4] else (),
            int(rows), int(per_row), int(f[6]), tuple(int(p) for p in f[7].split(",")), f[8])


def entries():
    """Every row, as a tuple each.  Built when asked for, not at import: a new game looks its
    id up with by_id(), which splits one row, where building every row's tuples took some
    33 KB of a board's heap in the scan that starts the game."""
    return tuple(_row(t) for t in _ROWS)


def by_id(name):
    """The entry whose id is `name` as written, from that row alone; None when no id is.
    (No name or alias of one row is also one of another's, normalized: tests/test_engine.py
    checks it, so a look-up by every name finds this same row.)"""
    if "|" in name:
        return None         # (no id holds one: a row would match on its first fields)
    head = name + "|"
    for t in _ROWS:
        if t.startswith(head):
            return _row(t)
    return None


# Entries whose sources record no rules at all: documented, never playable.
NO_RULES = ("choro", "gabatta")
