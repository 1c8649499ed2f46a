"""Where the companion keeps its files: the user data directory of each platform.

    Linux and others  $XDG_DATA_HOME/sowlight, else ~/.local/share/sowlight
    macOS             ~/Library/Application Support/sowlight
    Windows           %APPDATA%\\sowlight (else ~\\AppData\\Roaming\\sowlight)

The archive is `archive.sqlite3` there.  `SOWLIGHT_DB` names another archive
file, and a command's `--db PATH` wins over both.
"""
import os
import sys

APP = "sowlight"
ARCHIVE_FILE = "archive.sqlite3"
DB_ENV = "SOWLIGHT_DB"


def data_dir(platform=None, environ=None, home=None):
    """The per-user data directory for Sowlight on this platform (not created here)."""
    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    home = os.path.expanduser("~") if home is None else home
    if platform.startswith("win"):
        base = environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
        return _join(platform, base, APP)
    if platform == "darwin":
        return os.path.join(home, "Library", "Application Support", APP)
    base = environ.get("XDG_DATA_HOME")
    # The XDG spec says a relative value is invalid and must be ignored.
    if not base or not os.path.isabs(base):
        base = os.path.join(home, ".local", "share")
    return os.path.join(base, APP)


def _join(platform, *parts):
    # Build Windows paths with backslashes even when computed elsewhere (tests).
    if platform.startswith("win") and os.sep != "\\":
        return "\\".join(p.rstrip("\\/") for p in parts)
    return os.path.join(*parts)


def default_archive(environ=None):
    """The archive used when no --db is given: $SOWLIGHT_DB, else the data directory's."""
    environ = os.environ if environ is None else environ
    override = environ.get(DB_ENV)
    if override:
        return os.path.expanduser(override)
    return os.path.join(data_dir(environ=environ), ARCHIVE_FILE)


def archive_path(db=None, environ=None):
    """The archive a command uses: --db if given, else default_archive()."""
    if db:
        return os.path.expanduser(db)
    return default_archive(environ)
