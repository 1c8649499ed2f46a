"""The `sowlight` command run as a user runs it: a new process, text in and out."""
import subprocess
import sys


def sowlight(*args, input=None, timeout=240):
    return subprocess.run([sys.executable, "-m", "sowlight", *args], input=input, capture_output=True, text=True,
                          timeout=timeout)
