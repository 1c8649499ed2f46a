"""`python -m sowlight ...` is the `sowlight` command."""
import sys

from sowlight.cli import main

sys.exit(main())
