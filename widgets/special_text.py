"""How the settings form's Special row spells a list of special tokens, and reads one back.

Tokens are separated by whitespace; a token that holds whitespace or starts with a double quote is
written in double quotes, with ``\\"`` and ``\\\\`` inside for a quote and a backslash. So every
token the engine accepts can be typed, and what the row shows reads back to the same tokens.
"""

from __future__ import annotations

from engine.errors import BpeLabError


def _needs_quotes(token: str) -> bool:
    return not token or token.startswith('"') or any(c.isspace() for c in token)


def join_specials(tokens: tuple[str, ...] | list[str]) -> str:
    """The row's text for these tokens."""
    shown = []
    for token in tokens:
        if _needs_quotes(token):
            token = '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'
        shown.append(token)
    return " ".join(shown)


def split_specials(text: str) -> tuple[str, ...]:
    """The tokens typed in the row; a quote left open is refused with what to do."""
    tokens: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] != '"':
            j = i
            while j < n and not text[j].isspace():
                j += 1
            tokens.append(text[i:j])
            i = j
            continue
        token, i = _quoted(text, i + 1)
        tokens.append(token)
    return tuple(tokens)


def _quoted(text: str, i: int) -> tuple[str, int]:
    """The token in quotes that starts at ``i`` (after its opening quote), and where reading goes on."""
    chars = []
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
            chars.append(text[i + 1])
            i += 2
        elif c == '"':
            return "".join(chars), i + 1
        else:
            chars.append(c)
            i += 1
    raise BpeLabError('a special token in quotes has no closing quote: end it with " (write \\" for a quote inside)')
