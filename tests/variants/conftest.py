"""Makes tracesteps.py (the variant tests' shared helpers) importable whatever pytest's import mode."""

import sys
from pathlib import Path

_VARIANTS_DIR = str(Path(__file__).resolve().parent)
if _VARIANTS_DIR not in sys.path:
    sys.path.insert(0, _VARIANTS_DIR)
