"""The `code` of the link's "error" message, with what each means (codec.ERRORS).

docs/protocol.md lists who sends each one and what the receiver does about it.
A board sends codes, never these texts, so they live here, away from the
codec a board keeps loaded: `codec.ERRORS` imports this module when asked for.
"""

ERRORS = {
    # the link
    "bad_frame": "an intact frame (checksum right) that is not well formed",
    "unknown_type": "a message type this side does not know or does not accept from that sender",
    "bad_payload": "a required field is missing or has the wrong type or value",
    "version": "the peer's protocol major version differs; the session is refused",
    "no_hello": "a request came before a compatible hello",
    "busy": "a new request came while another one was still being carried out",
    # commands
    "bad_variant": "the board does not have this variant",
    "bad_option": "an option is unknown to the variant or has a value it does not allow",
    "bad_position": "the position cannot be set on this board (wrong pit count, negative seeds...)",
    "no_game": "the command needs a game in progress",
    "cannot_undo": "there is no move to take back (a board takes back its last 16 moves)",
    "out_of_range": "a number is outside the range the command allows",
    "unsupported": "the command is known but this board cannot do it (e.g. no such sensor)",
    # the journal
    "no_such_game": "the board's journal has no game with this id",
    "pruned": "the requested records were deleted after an earlier acknowledgement",
    "ack_ahead": "an acknowledgement names a ply the board has not recorded",
    # the device
    "hardware": "a self-test or sensor check failed",
    "storage": "the journal could not be written (flash full or failing)",
    "internal": "the firmware hit an unexpected error; msg says which",
}
