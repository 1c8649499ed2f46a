"""The board's journal: every game, record by record, on flash, until the laptop has it.

records.py   a record's bytes (the format, its CRC checked in parse()), moves as JSON
games.py     Journal: one file per game on a storage (storage.py), repaired at boot
mend.py      a record a damaged byte took, rebuilt from the records after it
requests.py  the laptop's sync requests
"""
from .records import (JournalError, MAGIC, MAX_PAYLOAD, START, MOVE, UNDO, SETPOS, END, SYNC, LOST, KINDS,
                      PREFIX, SUFFIX, RESERVE, _CODES, encode, written, digest, file_name, parse, intact,
                      decode, move_digest, move_json, move_tuple)
from .records import GameInfo
from .games import Journal
