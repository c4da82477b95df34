"""The animated tile view: the corpus as rows of tiles, each merge played as two tiles fusing."""

from widgets.tiles.palette import tile_look
from widgets.tiles.theme import TileTheme
from widgets.tiles.view import TileView

__all__ = ["TileView", "TileTheme", "tile_look"]
