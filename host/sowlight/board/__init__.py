"""The connection to a board: finding and opening its serial port (`ports`), the link
session over it (`link`), and the board's cells and state as the companion sees them,
whichever board it is, real, virtual or emulated (`view`)."""
