"""Games as data and where they are kept: a game's record and its two formats (`record`), the
archive on disk (`archive`), the board's journal copied into it (`sync`), and the engine's
valuation of every move of a game (`analysis`)."""
