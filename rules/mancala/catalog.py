"""Every rule set in the sources: its id, where its code lives, its names, its board.

This table is all the board imports to resolve a name; the chosen variant's
module is imported only after that (see mancala.Game).  Each row:

  (id, module, class, title, aliases, rows, pits_per_row, stores, players, source)

- module/class: where the variant's code is, or None when the sources record
  no rules (the entry is documented, not playable) or it is not built yet.
- rows, pits_per_row: the board the game is played on by default.
- stores: 0 = no store cell is sown (captures are kept beside the board),
  1 = each player's store is a cell of the sowing track.
- players: the numbers of players the rules allow.
- source: file and section in the source texts (docs/variants/<id>.md cites it in full).
"""

ENTRIES = (
    # Two rows.
    ("oware", "oware", "Oware", "Oware", ("wari", "awele", "awale", "ayo", "ourri"), 2, 6, 0, (2,), "003 OWARE"),
    ("ayoayo", "ayoayo", "Ayoayo", "Ayoayo", ("ayòayò", "ayo ayo"), 2, 6, 0, (2,), "003 AYÒAYÒ"),
    ("kalah", "kalah", "Kalah", "Kalah", ("kalaha", "kalah champion"), 2, 6, 1, (2,), "003 KALAH"),
    ("dakon", "dakon", "Dakon", "Dakon", (), 2, 7, 1, (2,), "000 THE STORY OF DAKON"),
    ("sunca", "sunca", "Sunca", "Sunca", ("sungka",), 2, 7, 1, (2,), "000 SUNCA"),
    ("pandi", "pandi", "Pandi", "Pandi", (), 2, 7, 0, (2,), "000 PANDI"),
    ("sitas-solitaire", "sita", "SitasSolitaire", "Sita's Solitaire", ("sita",), 2, 7, 0, (1,), "000 SITA'S SOLITAIRE"),
    ("pallam-kuzhi", "pallam_kuzhi", "PallamKuzhi", "Pallam Kuzhi", ("pallanguzhi", "pallamkurie"), 2, 7, 0, (2,), "000 PALLAM KUZHI"),
    ("mankaleh", "mankaleh", "Mankaleh", "Mankaleh", (), 2, 7, 0, (2,), "000 MANKALEH"),
    ("egyptian-simple", "egyptian", "EgyptianSimple", "Egyptian Mankalah (simple mode)", ("egyptian mankalah", "egyptian mankalah simple mode", "egyptian", "game of the ignorants"), 2, 6, 0, (2,), "000 EGYPTIAN MANKALAH A"),
    ("egyptian-advanced", "egyptian", "EgyptianAdvanced", "Egyptian Mankalah (advanced mode)", ("egyptian mankalah advanced mode", "game of the wise"), 2, 6, 0, (2,), "000 EGYPTIAN MANKALAH B"),
    ("lane", "lane", "Lane", "Mancala after Lane", ("mancala after lane", "mankalah", "mankal'ah", "egyptian game of mankal'ah"), 2, 6, 0, (2,), "002 Rules 1-10"),
    ("syrian", "lane", "Syrian", "Syrian Mancala", ("syrian mancala", "syrian game of mancala", "manqala"), 2, 7, 0, (2,), "001 The Syrian Game of Mancala"),
    ("adi", "adi", "Adi", "Adi", ("african game of adi",), 2, 6, 0, (2,), "000 THE AFRICAN GAME OF ADI"),
    ("giuthi", "giuthi", "Giuthi", "Giuthi (Count and Capture)", ("gayothe",), 2, 6, 0, (2,), "000 GIUTHI (Gayothe)"),
    ("giuthi-driedger", "giuthi", "GiuthiDriedger", "Giuthi (Driedger)", ("kikuyu giuthi", "kikuyu"), 2, 8, 0, (2,), "004 12 - KIKUYU, GIUTHI"),
    ("kpo", "kpo", "Kpo", "Kpo", ("poo", "vei"), 2, 6, 0, (2, 3, 4), "000 MANCALA by Culin"),
    ("choro", None, None, "Choro", (), 2, 0, 0, (2,), "000 THE GAME OF CHORO"),
    ("annana", "annana", "Annana", "Annana", ("djamo", "kale", "djamo poo kale"), 2, 6, 0, (2,), "001 Annana; Djamo and Poo"),
    ("enkeshui", "enkeshui", "Enkeshui", "Enkeshui", ("maasai", "maasi"), 2, 8, 0, (2,), "004 9 - MAASI, ENKESHUI"),
    ("mbothe", "mbothe", "Mbothe", "Mbothe", ("pokomo",), 2, 10, 0, (2,), "004 11 - POKOME, MBOTHE"),
    ("ndoto", "ndoto", "Ndoto", "Ndoto", ("kilinje",), 2, 8, 0, (2,), "004 13 - KILINJE, NDOTO"),
    ("kiothi", "kiothi", "Kiothi", "Kiothi", ("meru",), 2, 10, 0, (2,), "004 14 - MERU, KIOTHI"),
    ("lukho", "lukho", "Lukho", "Lukho", ("bukuso",), 2, 8, 0, (2,), "004 15 - BUKUSO, LUKHO"),
    # Four rows (and Gabatta's three), built by the second rules issue.
    ("mongola", "mongola", "Mongola", "Mongola (Count and Capture)", ("congo",), 4, 7, 0, (2,), "000 MONGOLA"),
    ("mongola-driedger", "omweso", "MongolaDriedger", "Mongola (Driedger)", ("congo mongola",), 4, 7, 0, (2,), "004 8 - CONGO, MONGOLA"),
    ("hus", "hus", "Hus", "Hus", ("otjitoto",), 4, 12, 0, (2,), "001 I. The Game of Hus"),
    ("maruba", "maruba", "Maruba", "Maruba", ("mofuba",), 4, 8, 0, (2,), "001 Maruba, Mofuba"),
    ("tschuba", "maruba", "Tschuba", "Tschuba", (), 4, 8, 0, (2,), "001 Tschuba"),
    ("chuba", "maruba", "Chuba", "Chuba", (), 4, 11, 0, (2,), "001 Chuba"),
    ("omweso", "omweso", "Omweso", "Omweso", ("mweso", "baganda"), 4, 8, 0, (2,), "004 3 - MWESO, 4 - BAGANDA, OMWESO"),
    ("coro", "omweso", "Coro", "Coro", ("lango",), 4, 8, 0, (2,), "004 5 - LANGO, CORO"),
    ("kombe", "omweso", "Kombe", "Kombe", ("lamu",), 4, 8, 0, (2,), "004 6 - LAMU, KOMBE"),
    ("mongale", "omweso", "Mongale", "Mongale", ("mombasa",), 4, 8, 0, (2,), "004 7 - MOMBASA, MONGALE"),
    ("aweet", "omweso", "Aweet", "Aweet", ("dinka",), 4, 10, 0, (2,), "004 10 - DINKA (SUDAN), AWEET"),
    ("gabatta", None, None, "Gabatta", ("abyssinian gabatta",), 3, 6, 0, (2,), "001 The Abyssinian Game of Gabatta"),
)

# Entries whose sources record no rules at all: documented, never playable.
NO_RULES = ("choro", "gabatta")
