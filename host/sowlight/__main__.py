"""`python -m sowlight ...` is the `sowlight` command."""
import sys

from .cli import main

sys.exit(main())
