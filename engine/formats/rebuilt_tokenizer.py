"""A merge-list tokenizer rebuilt from a vocabulary and merges that were written elsewhere.

Files give every token an id of their own choosing; BPE Lab lays ids out as base, merges,
special tokens, unknown. When a file follows that layout, importing gives a plain ``Tokenizer``;
otherwise a ``RenumberedTokenizer`` encodes with the file's ids (a tokenizer trained by the
`tokenizers` library puts its special tokens first, for example).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from engine.algorithm.bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE
from engine.errors import BpeLabError
from engine.algorithm.settings import UNKNOWN, Settings
from engine.algorithm.tokenizer import Tokenizer


class RenumberedTokenizer(Tokenizer):
    """A ``Tokenizer`` whose ids are a file's ids: ``file_ids[i]`` is the file's id for the id i
    that ``plain``, the same tokenizer in BPE Lab's layout, gives.

    ``truncated()`` gives a plain Tokenizer with BPE Lab's own ids.
    """

    def __init__(self, plain: Tokenizer, file_ids: Sequence[int]):
        super().__init__(plain.settings, plain.base, plain.merges, tables=plain.tables.renumbered(file_ids))
        self._plain = plain

    def truncated(self, merges: int) -> Tokenizer:
        # the tables hold the file's ids, which a cut cannot share: cut the tables in BPE Lab's layout
        # (a window cuts on every step: rebuilding 100,000 merges each time would stall it)
        return self._plain.truncated(merges)


def tokenizer_from_vocab(
    settings: Settings,
    vocab: dict[str, int],
    merges: Sequence[tuple[str, str]],
    specials: dict[str, int],
    unknown: str | None,
    source: str,
    where: Callable[[int], str],
    marker_as: str | None = None,
    base: Sequence[str] | None = None,
) -> Tokenizer:
    """A tokenizer from a file's vocabulary (its spelling -> id) and merges (pairs in its spelling).

    ``where(i)`` names merge i in the file for messages ("line 7", "model.merges[5]").
    ``marker_as`` is how the file spells the end-of-word marker, when not as the marker itself.
    ``base`` lists the base tokens (in the file's spelling) where the file says which they are;
    otherwise they are the tokens no merge makes, other than special and unknown ones.
    """
    marker = settings.marker
    if settings.units == "bytes":
        # byte-level text has no unknown characters; a file's unknown token is then an ordinary entry
        unknown = None
    made: set[str] = set()
    # a special token a merge names or makes is that regular token (an added token of
    # `tokenizers` can be one): it keeps its one id and is no special token of its own here
    used = {part for a, b in merges for part in (a, b, a + b)}
    specials = {t: i for t, i in specials.items() if t not in used}
    for i, (a, b) in enumerate(merges):
        for part in (a, b, a + b):
            if part not in vocab:
                what = "makes" if part == a + b else "names"
                raise BpeLabError(
                    f"{source}, {where(i)}: the merge '{a} {b}' {what} '{part}', which is not in the vocabulary; "
                    "the merges and the vocabulary must come from the same tokenizer"
                )
        made.add(a + b)
    for name in specials:
        if name not in vocab:
            raise BpeLabError(f"{source}: the special token '{name}' has no id in the vocabulary")
    if settings.units == "chars":
        if unknown is None:
            raise BpeLabError(
                f"{source}: a character-level model needs an unknown token (BPE Lab gives one per unseen "
                "character); set \"unk_token\" in the model"
            )
        if unknown not in vocab:
            raise BpeLabError(f"{source}: the unknown token '{unknown}' is not in the vocabulary")
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    skip = set(specials) | ({unknown} if unknown else set())
    if base is None:
        base_spelt = [t for t, _ in by_id if t not in made and t not in skip]
    else:
        base_spelt = sorted(base, key=vocab.__getitem__)

    def to_lab(token: str) -> str:
        return marker if (marker_as and marker is not None and token == marker_as) else token

    # a token's BPE Lab spelling follows how it is made, like the file's spelling
    lab: dict[str, str] = {t: to_lab(t) for t in base_spelt}
    lab_merges = []
    for i, (a, b) in enumerate(merges):
        if a not in lab or b not in lab:
            missing = a if a not in lab else b
            raise BpeLabError(
                f"{source}, {where(i)}: the merge '{a} {b}' uses '{missing}' before any merge makes it; "
                "merges must be listed in the order they were learned"
            )
        lab.setdefault(a + b, lab[a] + lab[b])
        lab_merges.append((lab[a], lab[b]))
    ordered_specials = tuple(t for t, _ in sorted(specials.items(), key=lambda kv: kv[1]))
    full = Settings(**{**settings.to_dict(), "special_tokens": ordered_specials})
    lab_base = [lab[t] for t in base_spelt]
    check_base(settings, lab_base, source, exact=False)
    try:
        plain = Tokenizer(full, lab_base, lab_merges)
    except BpeLabError as exc:
        raise BpeLabError(f"{source}: {exc}") from None
    # the file's id of each of BPE Lab's ids
    file_of_lab = {}
    for spelt, i in vocab.items():
        if spelt in skip:
            continue
        key = lab.get(spelt, spelt)
        if key in file_of_lab:
            raise BpeLabError(f"{source}: '{spelt}' and another token stand for the same token '{key}'")
        file_of_lab[key] = i
    file_ids = []
    for i, token in enumerate(plain.vocab):
        if i == plain.unknown_id and unknown is not None:  # chars units, which name their unknown token (checked above)
            file_ids.append(vocab[unknown])
        elif token in plain.special_ids and plain.special_ids[token] == i:
            file_ids.append(specials[token])
        else:
            file_ids.append(file_of_lab[token])
    if len(file_ids) != len(vocab):
        raise BpeLabError(f"{source}: the vocabulary holds {len(vocab)} tokens but the merges explain {len(file_ids)}")
    if file_ids == list(range(len(file_ids))):
        return plain
    try:
        return RenumberedTokenizer(plain, file_ids)
    except BpeLabError as exc:
        raise BpeLabError(f"{source}: {exc}") from None


def check_base(settings: Settings, base: Sequence[str], source: str, exact: bool = True) -> None:
    """Refuse a base vocabulary that cannot spell (or decode) every word these settings make.

    Bytes units need the 256 byte symbols; chars units the end-of-word marker in force. ``exact``
    (BPE Lab's own files) also holds the base to what training makes: for bytes the 256 symbols
    alone, for chars single characters and the marker. Imported files may add unmade tokens, but
    byte-level ones must still be spelt in the byte alphabet, or they could not be decoded.
    """
    marker = settings.marker
    if settings.units == "bytes":
        if exact:
            odd = [t for t in base if t not in CHAR_TO_BYTE]
        else:
            odd = [t for t in base if not t or any(c not in CHAR_TO_BYTE for c in t)]
        missing = len(set(BYTE_TO_CHAR) - set(base))
        if odd or missing:
            raise BpeLabError(
                f"{source}: a bytes vocabulary's base holds the 256 byte symbols"
                + (" and nothing else" if exact else ", spelt in the GPT-2 byte alphabet")
                + (f"; this one also holds '{odd[0][:40]}'" if odd else f"; this one lacks {missing} of them")
                # tokenizers loads such a file and leaves the bytes it lacks out of the ids, unannounced
                + ("" if odd or exact else ", which tokenizers would silently leave out of the ids")
            )
        return
    if marker is not None and marker not in base:
        raise BpeLabError(
            f"{source}: the end-of-word marker '{marker}' is not in the base vocabulary, so no word can be spelt: "
            "add it, or set \"end_of_word\": null"
        )
    for token in base if exact else ():
        if len(token) != 1 and token != marker:
            raise BpeLabError(
                f"{source}: the base vocabulary holds '{token[:40]}'; base tokens are single characters "
                "(and the end-of-word marker): move it to the merges"
            )


def check_ids(pairs: Iterable[tuple[str, object]], source: str, key: str) -> dict[str, int]:
    """A vocabulary from (token, id) pairs as read, with duplicate tokens and ids named."""
    vocab: dict[str, int] = {}
    owner: dict[int, str] = {}
    for token, i in pairs:
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise BpeLabError(f"{source}: {key}['{token}'] must be a whole number, 0 or more (it is {i!r})")
        if token in vocab:
            raise BpeLabError(f"{source}: {key} lists '{token}' twice")
        if i in owner:
            raise BpeLabError(
                f"{source}: {key} gives id {i} to both '{owner[i]}' and '{token}'; each id must be used once"
            )
        vocab[token] = i
        owner[i] = token
    if sorted(owner) != list(range(len(owner))):
        gap = next(n for n in range(len(owner) + 1) if n not in owner)
        raise BpeLabError(f"{source}: {key} has no token with id {gap}; ids must run from 0 without gaps")
    return vocab


__all__ = ["RenumberedTokenizer", "tokenizer_from_vocab", "check_base", "check_ids", "UNKNOWN"]
