"""The token explorer: a text split by GPT-4's tokenizer and by the lesson's, side by side."""

from widgets.explorer.view import ExplorerView

__all__ = ["ExplorerView"]
