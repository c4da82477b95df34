"""The one error type the engine raises for bad input: its message is meant for the user."""


class BpeLabError(Exception):
    """Bad input, said plainly: what is wrong and what to do about it."""


class NotPlainTextError(BpeLabError):
    """A file that is not plain UTF-8 text (binary, or another encoding)."""
