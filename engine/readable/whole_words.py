"""When each word of a text becomes one token, for a split whose pieces are not the words (gpt2,
gpt4, none), from one trace of each distinct piece.

A word (a maximal run of non-whitespace characters) is covered by 1 + (the token boundaries strictly
inside it) tokens. A boundary between two pieces never goes; a boundary inside a piece goes on the
step whose merge joins the two tokens on its sides (the piece's trace says which). So a word is one
token from the step its last inner boundary goes, and never if a piece boundary lies inside it. A
boundary inside a character (bytes units cut a character in two) is inside the word of that character.

With the whitespace split the pieces are the words, and ``metrics_run`` counts them directly.
"""

from __future__ import annotations

from engine.algorithm.tokenizer import Tokenizer
from engine.readable.metrics import word_spans

NEVER = 1 << 62


def _boundary_steps(tokenizer: Tokenizer, piece: str) -> tuple[list[int], list[int]]:
    """(for each base unit boundary 1..n-1 of ``piece``, the step it goes, NEVER if it stays;
    for each unit, the character of ``piece`` it belongs to)."""
    base, trace = tokenizer.encode_steps(piece)
    units = len(base)
    if tokenizer.settings.units == "bytes":
        char_of = [i for i, ch in enumerate(piece) for _ in range(len(ch.encode("utf-8", errors="surrogatepass")))]
    else:
        char_of = list(range(len(piece)))
    gone = [NEVER] * units  # gone[j]: the step the boundary before unit j goes (j >= 1)
    tokens = list(base)
    starts = list(range(units))  # the unit each current token starts at
    for entry in trace:
        new = entry.tokens
        kept_starts = []
        i = 0
        for token in new:
            kept_starts.append(starts[i])
            if token == tokens[i]:
                i += 1
            else:  # tokens i and i + 1 were joined: the boundary between them goes on this step
                gone[starts[i + 1]] = entry.rank + 1
                i += 2
        tokens, starts = list(new), kept_starts
    return gone, char_of


def whole_word_steps(tokenizer: Tokenizer, text: str, allow_special: bool = False) -> list[int] | None:
    """The step at which each word of ``text`` becomes one token (NEVER if it does not), in order;
    None where the pieces do not lay out the text's words (a split that drops characters)."""
    pieces = tokenizer.pieces(text, allow_special)
    joined = "".join(piece for piece, _ in pieces)
    spans = word_spans(joined)
    if len(spans) != len(word_spans(text)):
        return None
    # per character of the joined pieces: the latest step an inner boundary before it goes
    # (boundary_at[c]: the boundary at the start of character c; inside[c]: those within character c)
    boundary_at = [0] * (len(joined) + 1)
    inside = [0] * (len(joined) + 1)
    cache: dict[tuple[str, bool], tuple[list[int], list[int]]] = {}
    position = 0
    for piece, special in pieces:
        if position:
            boundary_at[position] = NEVER  # between two pieces
        if not special:
            found = cache.get((piece, special))
            if found is None:
                found = cache[(piece, special)] = _boundary_steps(tokenizer, piece)
            gone, char_of = found
            for j in range(1, len(gone)):
                c = char_of[j]
                if c != char_of[j - 1]:
                    boundary_at[position + c] = max(boundary_at[position + c], gone[j])
                else:
                    inside[position + c] = max(inside[position + c], gone[j])
        position += len(piece)
    steps = []
    for start, end in spans:
        latest = max(inside[start:end], default=0)
        if end - start > 1:
            latest = max(latest, max(boundary_at[start + 1:end]))
        steps.append(latest)
    return steps
