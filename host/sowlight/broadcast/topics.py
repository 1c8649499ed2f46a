"""The topic tree of a broadcast and of remote play (docs/broadcast.md is the specification).

    t = EventTopics("club-night")              # root "sowlight"
    t.record(board, game, ply)                 # sowlight/club-night/boards/<board>/games/<game>/<ply>
    t.parse(topic)                             # ("record", board, game, ply), ("state", board) ...

Every name a board, an event or a table brings (a board id, an event's name)
becomes one topic level: characters MQTT gives a meaning to (`/ + #`),
control characters and spaces are written as `_`, so a name can never reach
into another branch of the tree.
"""
import re

ROOT = "sowlight"
_BAD = re.compile(r"[/+#\x00-\x20\x7f]")


class TopicError(ValueError):
    """A name that cannot be a topic level (empty)."""


def level(name):
    """`name` as one topic level."""
    text = _BAD.sub("_", str(name))
    if not text:
        raise TopicError("a topic level cannot be empty: give a name")
    return text


class EventTopics:
    """The topics of one event: every board that broadcasts to it, and its hosts."""

    def __init__(self, event, root=ROOT):
        self.base = "%s/%s" % (level(root), level(event))

    def host(self, client_id):
        return "%s/hosts/%s" % (self.base, level(client_id))

    def hello(self, board):
        return "%s/boards/%s/hello" % (self.base, level(board))

    def state(self, board):
        return "%s/boards/%s/state" % (self.base, level(board))

    def record(self, board, game, ply):
        return "%s/boards/%s/games/%d/%d" % (self.base, level(board), game, ply)

    def live(self, board):
        return "%s/boards/%s/live" % (self.base, level(board))

    def fill(self, board):
        return "%s/boards/%s/fill" % (self.base, level(board))

    def everything(self):
        return self.base + "/#"

    def parse(self, topic):
        """(kind, board, game, ply) of one of this event's topics: kind is host, hello, state,
        record, live or fill (board is the client id for host; game and ply None but for record);
        None for a topic that is not one of them."""
        if not topic.startswith(self.base + "/"):
            return None
        parts = topic[len(self.base) + 1:].split("/")
        if len(parts) == 2 and parts[0] == "hosts":
            return ("host", parts[1], None, None)
        if len(parts) < 3 or parts[0] != "boards":
            return None
        board = parts[1]
        if len(parts) == 3 and parts[2] in ("hello", "state", "live", "fill"):
            return (parts[2], board, None, None)
        if len(parts) == 5 and parts[2] == "games" and parts[3].isdigit() and parts[4].isdigit():
            return ("record", board, int(parts[3]), int(parts[4]))
        return None


class TableTopics:
    """The topics of a remote game's table: its game, and what each seat's host says."""

    def __init__(self, table, root=ROOT):
        self.base = "%s/tables/%s" % (level(root), level(table))

    def game(self):
        return self.base + "/game"

    def seat(self, seat):
        return "%s/seats/%d" % (self.base, seat)

    def move(self, seat, number):
        return "%s/seats/%d/moves/%d" % (self.base, seat, number)

    def everything(self):
        return self.base + "/#"

    def parse(self, topic):
        """("game", None, None), ("seat", seat, None) or ("move", seat, number); None otherwise."""
        if not topic.startswith(self.base + "/"):
            return None
        parts = topic[len(self.base) + 1:].split("/")
        if parts == ["game"]:
            return ("game", None, None)
        if len(parts) >= 2 and parts[0] == "seats" and parts[1].isdigit():
            seat = int(parts[1])
            if len(parts) == 2:
                return ("seat", seat, None)
            if len(parts) == 4 and parts[2] == "moves" and parts[3].isdigit():
                return ("move", seat, int(parts[3]))
        return None
