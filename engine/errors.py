"""The errors the engine raises: each message is meant for the user, each class lets a caller tell
one kind of problem from another without reading the message."""


class BpeLabError(Exception):
    """A problem the engine reports in words a person can act on; bad input unless a subclass says otherwise."""


class NotPlainTextError(BpeLabError):
    """A file that is not plain UTF-8 text (binary, or another encoding)."""


class InternalError(BpeLabError):
    """The engine caught its own records disagreeing and stopped rather than show or learn something
    wrong: a bug to report, not a fault of the user's input."""


class TrainingError(InternalError):
    """Training found its own counts inconsistent and stopped rather than loop or learn a wrong merge."""


def is_bad_input(error: BaseException) -> bool:
    """The user's text, file or settings are at fault, not BPE Lab: the engine's words say what to change."""
    return isinstance(error, BpeLabError) and not isinstance(error, InternalError)


def internal_detail(error: BaseException) -> str:
    """An unexpected error as its type and message ('KeyError: 3'), for a line naming it as BPE Lab's."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def one_line(message: str) -> str:
    """A message as one line: a line break or other control character that a file put in it (a token
    named in the message) is shown escaped, as Python writes it."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in message)


class ReadOnlyFileError(BpeLabError):
    """A file to be replaced has no write permission for its owner: desktop editors ask before
    replacing one, so the writer refuses unless its caller has asked (``overwrite_read_only``)."""

    def __init__(self, path: str):
        super().__init__(f"{path} is read-only, so it was not replaced: make it writable, or save under another name")
        self.path = path
