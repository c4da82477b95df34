"""The errors the engine raises: each message is meant for the user, each class lets a caller tell
one kind of problem from another without reading the message."""


class BpeLabError(Exception):
    """Bad input, said plainly: what is wrong and what to do about it."""


class NotPlainTextError(BpeLabError):
    """A file that is not plain UTF-8 text (binary, or another encoding)."""


class TrainingError(BpeLabError):
    """Training found its own counts inconsistent and stopped rather than loop or learn a wrong merge."""
