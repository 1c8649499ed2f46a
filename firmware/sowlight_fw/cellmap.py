"""Which board cell plays each cell of a game: the one map between a game's cells and a board's.

cell_map() fits a game's shape onto a board (or says it does not fit);
game_cells() is the map the controller follows a game with, its stores
included; board_counts() the seeds a position puts in each board cell by
that map; fitting_variants() the variants a board can play.  The laptop's
board view (host/sowlight/board/view.py) reads the same map from here.

A game's cells are its pits in canonical order, then its players' stores;
a board's cells are its pits, then its stores (docs/config.md).
"""
import mancala


def cell_map(board, rows, pits_per_row, stores, stores_at_left=False):
    """Which board cell plays each cell of a game board, or None if it does not fit.

    The game's cells are its pits in canonical order, then its two stores if it
    sows into them (`stores` true).  A board's first end store is at player 0's
    right, as the counter-clockwise games have it; a game whose stores are at
    their owners' left (`stores_at_left`: Sunca) gets the two the other way
    round.  A game fits as built when the shape is the same (a board's stores
    may go unused).  A two-row game with one more pit per
    row and no sown stores fits a board with sensed stores by playing each store
    as its player's last pit (source 000, NOTES ON PLAYING; docs/config.md).
    """
    n = board.pits_per_row
    if rows != board.rows:
        return None
    if pits_per_row == n and (not stores or board.stores == 2):
        cells = list(range(board.pits))
        if stores:
            cells.append(board.pits + 1 if stores_at_left else board.pits)
            cells.append(board.pits if stores_at_left else board.pits + 1)
        return tuple(cells)
    if (rows == 2 and not stores and board.stores == 2 and pits_per_row == n + 1
            and board.cell_sensors[board.pits] is not None and board.cell_sensors[board.pits + 1] is not None):
        cells = list(range(n))
        cells.append(board.pits)          # player 0's last pit is its store
        cells.extend(range(n, 2 * n))
        cells.append(board.pits + 1)      # player 1's last pit is its store
        return tuple(cells)
    return None


def fit(board, rows, pits_per_row, stores):
    """"exact", "stores-as-pits" or None: how cell_map() fits the game."""
    if cell_map(board, rows, pits_per_row, stores) is None:
        return None
    return "exact" if pits_per_row == board.pits_per_row else "stores-as-pits"


def game_cells(board, game):
    """For each cell of `game` (its pits, then its players' stores), the board cell that plays it
    (-1: none); None when the game does not fit this board."""
    cm = cell_map(board, game.rows, game.pits_per_row, game.stores_sown, game.stores_at_left)
    if cm is None:
        return None
    n = game.n_pits
    gmap = [-1] * (n + game.players)
    for i in range(n):
        gmap[i] = cm[i]
    for p in range(game.players):
        if game.stores_sown:
            gmap[n + p] = cm[n + p]
        elif board.stores == 2 and board.pits == n and p < 2:
            gmap[n + p] = board.pits + (1 - p if game.stores_at_left else p)   # captures go into the board's stores
    return tuple(gmap)


def board_counts(game_counts, gmap, out):
    """The seeds each board cell holds in a position, into `out` (one item a board cell; filled, not
    allocated: the follower refills its buffers with it): `game_counts` the rules core's cells
    (Game.cells()), `gmap` the board cell of each (game_cells(); -1: kept beside the board)."""
    for b in range(len(out)):
        out[b] = 0
    for i in range(len(game_counts)):
        b = gmap[i]
        if b >= 0:
            out[b] += game_counts[i]
    return out


def fitting_variants(board, names=None):
    """The playable variants (or those of `names`) whose board fits this one (docs/config.md,
    cell_map).  The rules' catalog is read once for all of them (variant_infos)."""
    out = []
    for info in mancala.variant_infos(names):
        if cell_map(board, info["rows"], info["pits_per_row"], info["stores_sown"]) is not None:
            out.append(info["id"])
    return out
