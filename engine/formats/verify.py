"""Every export is loaded in the library it targets before it is written, and must give BPE Lab's ids.

In both of BPE Lab's modes: text that spells a special token is ordinary text by default, which is
`tokenizers` with ``encode_special_tokens = True`` and tiktoken's ``encode_ordinary``; allowed
(``--allow-special``), special tokens are matched whole, which is the libraries' default (tiktoken
with ``allowed_special="all"``).

The check text mixes scripts, emoji, code, whitespace runs, the tokenizer's special tokens, a
character no vocabulary holds, every base token and the text of the learned tokens, so each merge
gets a chance to apply. A library that is not installed is skipped: the files are then written
unchecked, which is what the same export would be with the check switched off.
"""

from __future__ import annotations

import base64
import functools
import json
from typing import Any, Callable

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.formats.merges_txt import read_merges

SAMPLE = (
    "The lowest newer widest. I'll pay 1234567 dollars, they've WE'RE 3.14159 x=42; Größe, straße! été ΟΔΟΣ Привет, мир! مرحبا 日本語のテキスト 中文 한국어 "
    "🙂🎸 👩\u200d👩\u200d👧 🇫🇷 def f(x):\n\treturn x ** 2  # square\n\n\n    \u3000\xa0 end  \x00\ue000\U0010fffd"
)


def check_text(tokenizer: Encoder, limit: int = 4000) -> str:
    parts = [SAMPLE, "".join(tokenizer.special_ids)]
    vocab = getattr(tokenizer, "vocab", None)
    if vocab is not None:
        specials = set(tokenizer.special_ids)
        words = []
        for token in vocab[:limit]:
            if token in specials:
                continue
            if tokenizer.settings.units == "bytes":
                try:
                    token = symbols_to_bytes(token).decode("utf-8", errors="replace")
                except KeyError:
                    continue
            elif tokenizer.settings.marker is not None:
                # a token ending in the marker is the end of a word
                token = token.replace(tokenizer.settings.marker, " ")
            words.append(token)
        # a line break before each token keeps a token without a leading space whole in the gpt splits
        parts.append("\n".join(words))
    return " ".join(parts)


def first_difference(ours: list[int], theirs: list[int]) -> int | None:
    """The first position where two id lists differ (a shorter list differs where it ends); None if equal."""
    if ours == theirs:
        return None
    return next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))


# BPE Lab's two modes, named as a message says them, by allow_special
MODES = {False: "special-token text as ordinary text", True: "special tokens matched whole"}


def library_encoders(library: Any) -> dict[bool, Callable[[str], list[int]]]:
    """A `tokenizers.Tokenizer`'s ids in each of BPE Lab's modes, by allow_special."""
    def encode(text: str, allow_special: bool) -> list[int]:
        # the library's own switch (tokenizers >= 0.19): False, its default, matches added tokens whole
        library.encode_special_tokens = not allow_special
        ids: list[int] = library.encode(text).ids
        return ids

    return {allow: functools.partial(_with_mode, encode, allow) for allow in MODES}


def _with_mode(encode: Callable[[str, bool], list[int]], allow_special: bool, text: str) -> list[int]:
    return encode(text, allow_special)


def tiktoken_encoders(encoding: Any) -> dict[bool, Callable[[str], list[int]]]:
    """A `tiktoken.Encoding`'s ids in each of BPE Lab's modes, by allow_special."""
    return {False: encoding.encode_ordinary, True: lambda text: encoding.encode(text, allowed_special="all")}


def _compare(name: str, encoders: dict[bool, Callable[[str], list[int]]], tokenizer: Encoder, text: str) -> None:
    for allow, library_ids in encoders.items():
        ours = list(tokenizer.encode_ids(text, allow_special=allow))
        theirs = list(library_ids(text))
        at = first_difference(ours, theirs)
        if at is not None:
            raise BpeLabError(
                f"checked in {name} with {MODES[allow]}, the export gives other ids than BPE Lab from token {at} "
                f"on (BPE Lab {ours[at:at + 3]}, {name} {theirs[at:at + 3]}), so nothing was written: "
                "export with --format bpelab, and please report this"
            )


def check_tokenizer_json(tokenizer: Encoder, text_json: str) -> None:
    try:
        from tokenizers import Tokenizer as Library
    except ImportError:
        return
    try:
        library = Library.from_str(text_json)
    except Exception as exc:  # noqa: BLE001 (the library's own complaint, whatever its type)
        raise BpeLabError(f"the tokenizers library refuses the export ({exc}), so nothing was written") from None
    _compare("tokenizers", library_encoders(library), tokenizer, check_text(tokenizer))


def gpt2_tokenizer_json(vocab_json: str, merges_txt: str, sidecar_json: str) -> str:
    """The tokenizer.json that `tokenizers` needs to read a gpt2 folder as BPE Lab wrote it."""
    side = json.loads(sidecar_json)
    merges, _ = read_merges(merges_txt, "merges.txt")
    data = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [
            {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for t, i in side["special_tokens"].items()
        ],
        "normalizer": side["normalizer"], "pre_tokenizer": side["pre_tokenizer"], "post_processor": None,
        "decoder": side["decoder"],
        "model": {"type": "BPE", "dropout": None, "unk_token": side["unk_token"], "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": json.loads(vocab_json), "merges": [list(m) for m in merges]},
    }
    return json.dumps(data, ensure_ascii=False)


def check_gpt2_files(tokenizer: Encoder, vocab_json: str, merges_txt: str, sidecar_json: str) -> None:
    check_tokenizer_json(tokenizer, gpt2_tokenizer_json(vocab_json, merges_txt, sidecar_json))


def tiktoken_encoding(ranks_text: str, sidecar_json: str) -> Any:
    """tiktoken's ``Encoding`` of a .tiktoken file and its sidecar (tiktoken must be importable)."""
    import tiktoken

    side = json.loads(sidecar_json)
    ranks = {}
    for line in ranks_text.splitlines():
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    try:
        return tiktoken.Encoding(
            name=side["name"], pat_str=side["pat_str"], mergeable_ranks=ranks,
            special_tokens=side["special_tokens"], explicit_n_vocab=side["explicit_n_vocab"],
        )
    except Exception as exc:  # noqa: BLE001 (the library's own complaint, whatever its type)
        raise BpeLabError(f"tiktoken refuses the export ({exc!r}), so nothing was written") from None


def check_tiktoken_files(tokenizer: Encoder, ranks_text: str, sidecar_json: str) -> None:
    try:
        import tiktoken  # noqa: F401 (only whether it is installed)
    except ImportError:
        return
    encoding = tiktoken_encoding(ranks_text, sidecar_json)
    _compare("tiktoken", tiktoken_encoders(encoding), tokenizer, check_text(tokenizer))
