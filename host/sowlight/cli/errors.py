"""The error a command reports to the user in one line (`sowlight: ...`) with an exit status."""


class CliError(Exception):
    """A problem to tell the user in one line; exit status 1 (or `status`)."""

    def __init__(self, message, status=1):
        Exception.__init__(self, message)
        self.status = status
