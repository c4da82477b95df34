"""Hugging Face ``tokenizer.json``: a BPE model with the pipeline that reproduces BPE Lab's settings.

How each setting is written (the `tokenizers` library then gives BPE Lab's ids):

- whitespace split: ``WhitespaceSplit``, which cuts where BPE Lab does (Rust's
  ``char::is_whitespace``, not ``str.split()``, which also cuts at U+001C-U+001F);
  gpt2 / gpt4 split: ``Split`` with the published pattern, each match kept (the library's regex
  knows the letters and numbers of BPE Lab's Unicode table); split none: no pre-tokenizer.
- bytes units otherwise: a ``ByteLevel`` pre-tokenizer with its own regex off and no prefix space,
  after the split.
- end-of-word marker, whitespace split: the space after each word is the marker. Normalizers
  drop the text's leading whitespace and write every gap between words that is not one space (a
  run, a line break, a tab, any other whitespace character) and the end after the last word as a
  space and a line break; ``CharDelimiterSplit`` cuts at the line breaks. Each piece is then words
  each ending in one space, which the BPE model sees as the marker symbol: no merge crosses it, as
  no merge has a token ending in the marker on its left, so a piece of several words gets the ids
  of each word alone. One normalizer match per gap that is not a space (about one a line, not one
  a word), patterns the library's regex engine finds without trying every character (the leading
  whitespace, whitespace beyond ASCII, ASCII gaps and the end each a ``Replace`` of its own) and a
  pre-tokenizer that compares characters keep `tokenizers` near its speed with a model it trained
  itself, line by line too; the decoder turns the space back into the marker. A one-character marker that is
  not whitespace (``_``) is a character the text can hold, so it is put at the end of every word by
  a normalizer (a regex), after ``WhitespaceSplit``'s cuts.
- end-of-word marker, split none: a normalizer puts one marker character at the end of the text. A
  marker longer than one character (``</w>``) is spelt in the file as a private-use character,
  chosen outside the vocabulary; the decoder turns it back into the marker. A stray copy of that
  character in the input is first swapped for another unused one, so it stays unknown, as in BPE Lab.
- bytes units with the gpt2 split: ``ByteLevel`` with its own regex, which is the published GPT-2
  pattern, and no prefix space.
- unknown characters: ``unk_token`` ``<unk>`` with ``fuse_unk`` off: one unknown per character.
- special tokens: added tokens, matched before anything else, in the model's vocabulary at BPE Lab's ids.

- lowercase: the library's ``Lowercase`` normalizer first, which lowercases each character on its
  own as BPE Lab does; added tokens are matched before it, in the text as typed, as BPE Lab matches
  special tokens before lowercasing.

Not expressible or not written, so refused: a marker with the gpt2 or gpt4 split, two merges of the same pair, a merge that rebuilds a token an earlier merge joined (the
library merges the lowest rank first, BPE Lab replays the merges in order).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any, NoReturn

from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.files.reading import read_json
from engine.files.writing import write_files
from engine.formats.hf_added import AddedToken, AddedTokens
from engine.formats.hf_pipeline import FileTokenizer, FrontEnd
from engine.formats.rebuilt_tokenizer import check_ids, tokenizer_from_vocab
from engine.formats.refusal import ExportRefused, Retrain
from engine.formats.schema import Fields, SchemaError, shown
from engine.formats.table import TokenTable, refuse_lowercase
from engine.formats.verify import check_tokenizer_json
from engine.algorithm.pretokenize import GPT2_PATTERN, GPT4_PATTERN
from engine.algorithm.settings import Settings
from engine.algorithm.settings import UNKNOWN
from engine.algorithm.tokenizer import Tokenizer, rank_order_conflict
from engine.algorithm.unicode_table import WHITESPACE_CHARS

NAME = "tokenizer.json"
# where the file's one-character marker and the swap for stray copies are looked for
_PRIVATE_USE = range(0xE000, 0xF900)


def _char_class(chars: str) -> str:
    """A regex character class (Oniguruma syntax) of exactly these characters, as code point ranges."""
    codes = sorted(ord(c) for c in chars)
    parts = []
    start = prev = codes[0]
    for c in codes[1:] + [None]:
        if c is not None and c == prev + 1:
            prev = c
            continue
        parts.append(f"\\x{{{start:X}}}" if start == prev else f"\\x{{{start:X}}}-\\x{{{prev:X}}}")
        if c is not None:
            start = prev = c
    return "[" + "".join(parts) + "]"


WHITESPACE = _char_class(WHITESPACE_CHARS)
NOT_WHITESPACE = "[^" + WHITESPACE[1:]
# Oniguruma, the library's regex engine, reads "{1,3}+" as "({1,3})+", any number of digits, not
# as a possessive "{1,3}"; alone in its branch the plain form matches the same
SPLIT_PATTERNS = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")}
# the place at the end of each word where the marker goes
WORD_END = {"whitespace": f"(?<={NOT_WHITESPACE})(?={WHITESPACE}|\\z)", "none": "(?<=[\\s\\S])\\z"}


def _unused(taken: set[str], count: int) -> list[str]:
    found = []
    for code in _PRIVATE_USE:
        if chr(code) not in taken:
            found.append(chr(code))
            if len(found) == count:
                return found
    raise BpeLabError("no free private-use character is left to spell the end-of-word marker")


def marker_spelling(settings: Settings, base_tokens: Iterable[str]) -> tuple[str | None, str | None]:
    """(how the file spells the marker, a character no token holds): for a marker longer than one
    character, the spare replaces a stray copy of its spelling in the input; for a one-character
    marker, spelt as itself, it holds the decoder's place for the copies inside a token."""
    marker = settings.marker
    if marker is None:
        return None, None
    taken = set("".join(base_tokens))
    if len(marker) == 1 and not marker.isspace():
        return marker, _unused(taken, 1)[0]
    mark, stray = _unused(taken, 2)
    return mark, stray


def _split_node(split: str) -> dict[str, Any] | None:
    if split == "whitespace":
        return {"type": "WhitespaceSplit"}
    if split in SPLIT_PATTERNS:
        return {"type": "Split", "pattern": {"Regex": SPLIT_PATTERNS[split]}, "behavior": "Isolated", "invert": False}
    return None


_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
# ByteLevel's own regex is GPT2_PATTERN: one step then splits and spells the bytes
_BYTE_LEVEL_GPT2 = {**_BYTE_LEVEL, "use_regex": True}

# the marker as the space that ends each word, and where the pieces of words are cut
SPACE_MARK = " "
_CUT = "\n"
# a gap between words that is not one space, or the end after the last word
GAPS = f"{WHITESPACE}{{2,}}|{_char_class(WHITESPACE_CHARS.replace(' ', ''))}|(?<={NOT_WHITESPACE})\\z"
_STRIP_LEFT = {"type": "Strip", "strip_left": True, "strip_right": False}


def _replace(pattern: str, content: str) -> dict[str, Any]:
    return {"type": "Replace", "pattern": {"Regex": pattern}, "content": content}


# the same in four Replace steps, each a pattern Oniguruma can look for quickly: a pattern with an
# alternative that is only an end anchor (GAPS's last), or a class of characters of several bytes,
# is tried at every character of the text, and that scan and each step's own pass over the text are
# most of what a line costs. The leading whitespace goes by a pattern anchored at the start (Strip
# rebuilds the line character by character, slower for an indented line); whitespace beyond ASCII
# (rare) becomes a line break, written as literals; a run of ASCII whitespace that is not one space
# becomes the marker and a cut; the end after a word gets the same, its pattern anchored too
_LEADING = f"\\A{WHITESPACE}+"
_WIDE_SPACE = "|".join(f"\\x{{{ord(c):X}}}" for c in WHITESPACE_CHARS if ord(c) > 0x7F)
_ASCII_SPACE = "".join(c for c in WHITESPACE_CHARS if ord(c) <= 0x7F)
_ASCII_GAPS = f"{_char_class(_ASCII_SPACE)}{{2,}}|{_char_class(_ASCII_SPACE.replace(' ', ''))}"
_TEXT_END = f"(?<={NOT_WHITESPACE})\\z"
_SPACED_NORMALIZER = {"type": "Sequence", "normalizers": [
    _replace(_LEADING, ""), _replace(_WIDE_SPACE, _CUT), _replace(_ASCII_GAPS, SPACE_MARK + _CUT),
    _replace(_TEXT_END, SPACE_MARK + _CUT)]}
# how tokenizer.json spelt the same steps before, still read as the marker
_EARLIER_SPACED_NORMALIZER = {"type": "Sequence", "normalizers": [_STRIP_LEFT, _replace(GAPS, SPACE_MARK + _CUT)]}
_SPACED_PRE_TOKENIZER = {"type": "CharDelimiterSplit", "delimiter": _CUT}


def spaced_marker(settings: Settings) -> bool:
    """Whether tokenizer.json spells the marker as the space after each word: with the whitespace
    split and chars, for a marker the text cannot hold inside a word (longer than one character, or
    whitespace)."""
    marker = settings.marker
    return (settings.split == "whitespace" and settings.units == "chars" and marker is not None
            and (len(marker) > 1 or marker.isspace()))


def _spaced_decoder(marker: str) -> dict[str, Any]:
    decoder: dict[str, Any] = {"type": "BPEDecoder", "suffix": marker}
    if marker == SPACE_MARK:
        return decoder
    # the Replace names the marker for a reader; BPEDecoder then ends each word at it
    return {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": SPACE_MARK}, "content": marker}, decoder]}


def pipeline(settings: Settings, mark: str | None, stray: str | None) -> dict[str, Any]:
    """The normalizer, pre-tokenizer and decoder for these settings."""
    split_node = _split_node(settings.split)
    if settings.units == "bytes":
        pre = {"type": "Sequence", "pretokenizers": [split_node, _BYTE_LEVEL]} if split_node else _BYTE_LEVEL
        if settings.split == "gpt2":
            pre = dict(_BYTE_LEVEL_GPT2)
        return {"normalizer": None, "pre_tokenizer": pre, "decoder": dict(_BYTE_LEVEL)}
    marker = settings.marker
    if marker is None:
        return {"normalizer": None, "pre_tokenizer": split_node, "decoder": {"type": "Fuse"}}
    steps: list[dict[str, Any]] = []
    if stray is not None and mark != marker:
        steps.append({"type": "Replace", "pattern": {"String": mark}, "content": stray})
    steps.append({"type": "Replace", "pattern": {"Regex": WORD_END[settings.split]}, "content": mark})
    decoder: dict[str, Any] = {"type": "BPEDecoder", "suffix": marker}
    if mark == marker and stray is not None:
        # a one-character marker is also a character of the text ("_" in __init__): BPEDecoder would
        # read every copy as a word end, BPE Lab's decode reads only a token's last; the copies
        # before it are set aside and put back (a file written without the spare reads them all)
        decoder = {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"Regex": f"{re.escape(marker)}(?=[\\s\\S])"}, "content": stray},
            decoder,
            {"type": "Replace", "pattern": {"String": stray}, "content": marker},
        ]}
    elif mark != marker:
        decoder = {
            "type": "Sequence",
            "decoders": [{"type": "Replace", "pattern": {"String": mark}, "content": marker}, decoder],
        }
    return {"normalizer": {"type": "Sequence", "normalizers": steps}, "pre_tokenizer": split_node, "decoder": decoder}


def lean_pipeline(settings: Settings, mark: str | None, stray: str | None) -> dict[str, Any]:
    """The pipeline tokenizer.json carries: ``pipeline``'s, but with the marker spelt as the space
    after each word where ``spaced_marker`` allows (``mark`` is then that space)."""
    parts: dict[str, Any]
    if spaced_marker(settings) and settings.marker is not None:
        parts = {"normalizer": _SPACED_NORMALIZER, "pre_tokenizer": _SPACED_PRE_TOKENIZER,
                 "decoder": _spaced_decoder(settings.marker)}
    else:
        parts = pipeline(settings, mark, stray)
    if settings.lowercase:
        norm = parts["normalizer"]
        steps = [] if norm is None else norm["normalizers"] if norm["type"] == "Sequence" else [norm]
        parts["normalizer"] = {"type": "Sequence", "normalizers": [_LOWERCASE, *steps]} if steps else _LOWERCASE
    return parts


_LOWERCASE = {"type": "Lowercase"}


def _without_lowercase(parts: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """(the parts without a first Lowercase step, whether there was one) for a pipeline that
    ``lean_pipeline`` writes with lowercase on; else (parts, False)."""
    norm = parts["normalizer"]
    if norm == _LOWERCASE:
        rest = None
    elif norm is not None and norm["type"] == "Sequence" and (norm.get("normalizers") or [None])[0] == _LOWERCASE:
        rest = {**norm, "normalizers": norm["normalizers"][1:]}
    else:
        return parts, False
    unlowered = {**parts, "normalizer": rest}
    return (unlowered, True) if _written_by_lab(unlowered) else (parts, False)


def check_expressible(settings: Settings, format_name: str = NAME) -> None:
    if format_name != NAME:
        # tokenizer.json carries the lowercasing as a normalizer (``lean_pipeline``)
        refuse_lowercase(settings, format_name)
    if settings.marker is not None and settings.split not in WORD_END:
        raise ExportRefused(
            f"{format_name} cannot put an end-of-word marker after each {settings.split} piece: ",
            Retrain("end_of_word", None, Retrain("split", "whitespace")), ", or export with --format bpelab"
        )


def spelled_table(tokenizer: Encoder, format_name: str) -> tuple[TokenTable, list[str], str | None, str | None]:
    table = TokenTable.of(tokenizer)
    check_expressible(table.settings, format_name)
    repeated = table.repeated_pair()
    if repeated is not None:
        a, b = table.tokens[repeated.left], table.tokens[repeated.right]
        raise BpeLabError(
            f"merge {repeated.rank + 1} repeats the pair '{a}' '{b}' of an earlier merge, which {format_name} "
            "cannot hold twice: export with --format bpelab"
        )
    conflict = rank_order_conflict([(table.tokens[m.left], table.tokens[m.right]) for m in table.merges])
    if conflict is not None:
        rebuilt, earlier = conflict
        m = table.merges[rebuilt]
        raise BpeLabError(
            f"merge {rebuilt + 1} rebuilds '{table.tokens[m.token]}', which merge {earlier + 1} had already joined: "
            f"{format_name} merges the pair of lowest rank first and would join it again, where BPE Lab replays the "
            "merges in order as training did, so some text would get other ids: export with --format bpelab"
        )
    base = [table.tokens[i] for i in table.base_ids]
    mark, stray = marker_spelling(table.settings, base)
    return table, table.spelled(mark, format_name), mark, stray


def tokenizer_json_data(tokenizer: Encoder) -> dict[str, Any]:
    table, spelt, mark, stray = spelled_table(tokenizer, NAME)
    if spaced_marker(table.settings):
        mark, stray = SPACE_MARK, None
        spelt = table.spelled(mark, NAME)
    added = [
        {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for t, i in sorted(table.special_ids.items(), key=lambda kv: kv[1])
    ]
    pairs = [[spelt[m.left], spelt[m.right]] for m in table.merges]
    merges: list[list[str]] | list[str] = pairs
    if not any(" " in part for pair in pairs for part in pair):
        # "a b" strings load in every version of the library; pairs are needed only for tokens with spaces
        merges = [" ".join(pair) for pair in pairs]
    model = {
        "type": "BPE",
        "dropout": None,
        "unk_token": UNKNOWN if table.unknown_id is not None else None,
        "continuing_subword_prefix": None,
        "end_of_word_suffix": None,
        "fuse_unk": False,
        "byte_fallback": False,
        "ignore_merges": False,
        "vocab": {t: i for i, t in enumerate(spelt)},
        "merges": merges,
    }
    parts = lean_pipeline(table.settings, mark, stray)
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": parts["normalizer"],
        "pre_tokenizer": parts["pre_tokenizer"],
        "post_processor": None,
        "decoder": parts["decoder"],
        "model": model,
    }


def tokenizer_json(tokenizer: Encoder) -> str:
    return json.dumps(tokenizer_json_data(tokenizer), ensure_ascii=False, indent=1) + "\n"


def checked_files(tokenizer: Encoder, path: str | os.PathLike[str]) -> dict[str | os.PathLike[str], str]:
    """{path: tokenizer.json's text}, once the tokenizers library, given it, gives BPE Lab's ids."""
    text = tokenizer_json(tokenizer)
    check_tokenizer_json(tokenizer, text)
    return {path: text}


def save_hf(tokenizer: Encoder, path: str | os.PathLike[str]) -> None:
    write_files(checked_files(tokenizer, path))


# -- import ---------------------------------------------------------------------------------------


def _pre_tokenizer_settings(node: Any, source: str) -> tuple[str, str]:
    """(split, units) that a pre-tokenizer stands for."""

    def refuse(what: str) -> NoReturn:
        raise BpeLabError(
            f"{source}: pre_tokenizer {what} is not one BPE Lab can reproduce (it reads whitespace, gpt2, "
            "gpt4 or no split, with chars or ByteLevel bytes)"
        )

    def split_of(n: object) -> str:
        for name in ("whitespace", "gpt2", "gpt4"):
            if n == _split_node(name):
                return name
        refuse(json.dumps(n, ensure_ascii=False)[:120])

    def byte_level(n: Any, regex: bool) -> bool:
        return (
            isinstance(n, dict) and n.get("type") == "ByteLevel" and n.get("add_prefix_space") is False
            and n.get("use_regex", True) is regex
        )

    if node is None:
        return "none", "chars"
    if byte_level(node, True):
        return "gpt2", "bytes"
    if byte_level(node, False):
        return "none", "bytes"
    if isinstance(node, dict) and node.get("type") == "ByteLevel":
        refuse("ByteLevel with add_prefix_space on")
    if isinstance(node, dict) and node.get("type") == "Sequence":
        inner = node.get("pretokenizers")
        if isinstance(inner, list) and len(inner) == 2 and byte_level(inner[1], False):
            return split_of(inner[0]), "bytes"
        if isinstance(inner, list) and len(inner) == 1:
            return _pre_tokenizer_settings(inner[0], source)
        refuse("Sequence")
    if isinstance(node, dict) and node.get("type") in ("Split", "WhitespaceSplit"):
        return split_of(node), "chars"
    refuse(str(node.get("type") if isinstance(node, dict) else node))


def _marker_of(data: dict[str, Any], split: str, base_tokens: list[str], source: str) -> tuple[str | None, str | None]:
    """(marker, how the file spells it) from the normalizer and decoder this module writes."""
    normalizer = data.get("normalizer")
    if normalizer is None:
        return None, None
    steps = normalizer.get("normalizers") if isinstance(normalizer, dict) else None
    last = steps[-1] if isinstance(steps, list) and steps else None
    if isinstance(last, dict) and last.get("type") == "Replace" and isinstance(last.get("content"), str):
        mark = last["content"]
        decoder = data.get("decoder") or {}
        marker = mark
        if decoder.get("type") == "Sequence":
            first = (decoder.get("decoders") or [{}])[0]
            if first.get("type") == "Replace" and first.get("pattern") == {"String": mark}:
                marker = first.get("content")
        if isinstance(marker, str) and marker and split in WORD_END:
            settings = Settings(split=split, units="chars", end_of_word=marker)
            lab_base = [marker if t == mark else t for t in base_tokens]
            expected_mark, stray = marker_spelling(settings, lab_base)
            if expected_mark == mark and pipeline(settings, mark, stray)["normalizer"] == normalizer:
                return marker, mark
    kind = normalizer.get("type") if isinstance(normalizer, dict) else normalizer
    raise BpeLabError(
        f"{source}: normalizer {kind} is not one BPE Lab can reproduce (it reads none, or the end-of-word "
        "marker BPE Lab writes); lowercase or normalize the text yourself and remove the normalizer"
    )


_BERT_NORMALIZER = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                    "strip_accents": None, "lowercase": False}


def _spaced_marker_of(parts: dict[str, Any]) -> str | None:
    """The marker of a file that spells it as the space after each word (``lean_pipeline``), else None."""
    if parts["normalizer"] not in (_SPACED_NORMALIZER, _EARLIER_SPACED_NORMALIZER) \
            or parts["pre_tokenizer"] != _SPACED_PRE_TOKENIZER:
        return None
    decoder = parts["decoder"]
    if isinstance(decoder, dict) and decoder.get("type") == "Sequence":
        decoder = (decoder.get("decoders") or [{}])[-1]
    marker = decoder.get("suffix") if isinstance(decoder, dict) and decoder.get("type") == "BPEDecoder" else None
    if isinstance(marker, str) and marker and parts["decoder"] == _spaced_decoder(marker):
        return marker
    return None


def _written_by_lab(parts: dict[str, Any]) -> bool:
    """Whether the pipeline is one BPE Lab's own exports write: a split and units its settings name,
    and no normalizer but the end-of-word marker's Replace steps, or the marker spelt as a space."""
    if _spaced_marker_of(parts) is not None:
        return True
    norm = parts["normalizer"]
    if norm is not None and not (norm["type"] == "Sequence" and all(
            step["type"] == "Replace" for step in norm.get("normalizers") or [])):
        return False
    if norm is not None and isinstance(parts["pre_tokenizer"], dict) and "ByteLevel" in _kinds(parts["pre_tokenizer"]):
        return False
    try:
        _pre_tokenizer_settings(parts["pre_tokenizer"], "")
    except BpeLabError:
        return False
    return True


def _kinds(node: Any) -> list[str]:
    """The types of a pre-tokenizer's steps, a Sequence's read through."""
    if node is None:
        return []
    if node["type"] == "Sequence":
        return [kind for inner in node.get("pretokenizers") or [] for kind in _kinds(inner)]
    return [str(node["type"])]


def _steps_of(node: Any) -> list[Any]:
    if node is None:
        return []
    if node["type"] == "Sequence":
        return [step for inner in node.get("pretokenizers") or [] for step in _steps_of(inner)]
    return [node]


def _normalizer_kinds(node: Any) -> list[str]:
    if node is None:
        return []
    if node["type"] == "Sequence":
        return [kind for inner in node.get("normalizers") or [] for kind in _normalizer_kinds(inner)]
    return [str(node["type"])]


def _space_replacements(node: Any) -> list[str]:
    """What a normalizer's Replace steps spell a space as (Llama's Prepend and Replace of " " with "▁")."""
    if node is None:
        return []
    if node["type"] == "Sequence":
        return [r for inner in node.get("normalizers") or [] for r in _space_replacements(inner)]
    content = node.get("content")
    if node["type"] == "Replace" and node.get("pattern") == {"String": " "} and isinstance(content, str) \
            and len(content) == 1:
        return [content]
    return []


def front_end(parts: dict[str, Any], suffix: str, byte_fallback: bool, source: str,
              ignore_merges: bool = False, fuse_unk: bool = False) -> FrontEnd | None:
    """The front end of a file whose normalizer and pre-tokenizer BPE Lab's settings do not name
    (the library's own recipes, and any other steps it reproduces), or None for BPE Lab's pipelines."""
    pre, norm = parts["pre_tokenizer"], parts["normalizer"]
    if not (suffix or byte_fallback or ignore_merges or fuse_unk) and _written_by_lab(parts):
        return None
    # the steps and their Unicode tables (and numpy) load only for files that need them
    from engine.formats.hf_steps import normalizer_steps, pre_tokenizer_steps

    normalizers = normalizer_steps(norm, source)
    steps = pre_tokenizer_steps(pre, source)
    kinds = _kinds(pre)
    metaspaces = [step for step in _steps_of(pre) if step["type"] == "Metaspace"]
    spaces = [step.get("replacement") for step in metaspaces] + _space_replacements(norm)
    byte_level = "ByteLevel" in kinds or "ByteLevel" in _normalizer_kinds(norm)
    decoding = "bytes" if byte_level else "metaspace" if spaces else "join"
    if metaspaces and metaspaces[0].get("prepend_scheme") == "never":
        decoding = "metaspace_unprefixed"
    name = f"{pre['type']} pre-tokenizer" if pre is not None else f"{norm['type'] if norm else 'missing'} normalizer"
    return FrontEnd(tuple(normalizers), tuple(steps), name, suffix=suffix, byte_fallback=byte_fallback,
                    decoding=decoding, space=str(spaces[0]) if spaces else "\u2581", ignore_merges=ignore_merges,
                    fuse_unk=fuse_unk)


def _merge_pair(entry: object, i: int, source: str) -> tuple[str, str]:
    if isinstance(entry, str):
        parts = entry.split(" ")
        if len(parts) == 2:
            return parts[0], parts[1]
    elif isinstance(entry, list) and len(entry) == 2 and all(isinstance(x, str) for x in entry):
        return entry[0], entry[1]
    raise BpeLabError(f"{source}: model.merges[{i}] must be two tokens (\"a b\" or [\"a\", \"b\"]), not {entry!r}")


# where a Sequence node keeps its steps, per pipeline part
_STEPS = {"normalizer": "normalizers", "pre_tokenizer": "pretokenizers", "decoder": "decoders",
          "post_processor": "processors"}


def _pipeline_node(value: Any, name: str, source: str, part: str) -> Any:
    """A pipeline part as the file holds it: null, or an object with a "type" text (a Sequence's
    steps each such an object), so that reading it further needs no more type checks."""
    if value is None:
        return None
    node = Fields.of(value, source, name)
    node.text("type", must="must name the node's type as a text")
    steps = _STEPS[part]
    if node.has(steps):
        for i, step in enumerate(node.items(steps)):
            if step is None:
                raise SchemaError(f"{source}: {name}.{steps}[{i}] must be a JSON object (it is null)")
            _pipeline_node(step, f"{name}.{steps}[{i}]", source, part)
    return value


def _added_tokens(f: Fields, source: str) -> list[AddedToken]:
    out = []
    for i, entry in enumerate(f.items("added_tokens", [], optional=True) or []):
        token = Fields.of(entry, source, f"added_tokens[{i}]")
        content, tid = token.text("content", nonempty=True), token.whole("id")
        # the library's defaults for a flag left out
        flags = {key: bool(token.flag(key, False, optional=True))
                 for key in ("single_word", "lstrip", "rstrip", "normalized")}
        out.append(AddedToken(content, tid, special=bool(token.flag("special", False, optional=True)), **flags))
    return out


def _plain_specials(added: list[AddedToken], merges: Iterable[tuple[str, str]], unknown: str | None) -> bool:
    """Whether the added tokens act as BPE Lab's special tokens do: matched whole, only where
    allowed, each its own token (the unknown token apart)."""
    used = {part for a, b in merges for part in (a, b, a + b)}
    return all(t.special and not (t.lstrip or t.rstrip or t.single_word or t.normalized)
               and t.content not in used and t.content != unknown for t in added)


def tokenizer_from_hf_data(data: object, source: str) -> Tokenizer:
    f = Fields.of(data, source)
    if not isinstance(f.get("model", None), dict):
        raise SchemaError(f"{source} is not a tokenizer.json: it has no \"model\" object")
    model = f.fields("model")
    kind = model.text("type", "BPE")
    if kind != "BPE":
        raise SchemaError(f"{source}: model.type is {shown(kind)}; BPE Lab reads BPE models only")
    raw_vocab = model.fields("vocab").data
    raw_merges = model.items("merges")
    unknown = model.text("unk_token", None, optional=True, nonempty=True)
    suffix = model.text("end_of_word_suffix", None, optional=True) or ""
    byte_fallback = model.get("byte_fallback", None)
    if byte_fallback not in (None, False, True):
        raise SchemaError(f"{source}: model.byte_fallback must be true or false, not {shown(byte_fallback)}")
    for key, harmless in (("dropout", (None, 0, 0.0)), ("continuing_subword_prefix", (None, ""))):
        value = model.get(key, None)
        if value not in harmless:
            raise SchemaError(
                f"{source}: model.{key} is {shown(value)}, which BPE Lab's merge replay cannot reproduce"
            )
    for key in ("truncation", "padding"):
        if f.get(key, None) is not None:
            raise SchemaError(f"{source}: \"{key}\" is set; remove it (BPE Lab encodes whole texts, unpadded)")
    parts = {part: _pipeline_node(f.get(part, None), part, source, part) for part in _STEPS}
    post = parts["post_processor"]
    if post is not None and post["type"] != "ByteLevel":
        raise SchemaError(f"{source}: post_processor {post['type'][:40]} adds tokens BPE Lab would not; remove it")
    vocab = check_ids(raw_vocab.items(), source, "model.vocab")
    merges = [_merge_pair(m, i, source) for i, m in enumerate(raw_merges)]
    conflict = rank_order_conflict(merges)
    if conflict is not None:
        rebuilt, earlier = conflict
        a, b = merges[rebuilt]
        raise SchemaError(
            f"{source}: model.merges[{rebuilt}] rebuilds '{a + b}', which model.merges[{earlier}] had already "
            "used: the library merges the pair of lowest rank first and would apply that earlier merge again, "
            "where BPE Lab replays the merges in order, so some text would get other ids"
        )
    specials: dict[str, int] = {}
    added = _added_tokens(f, source)
    flags = {key: model.get(key, None) for key in ("ignore_merges", "fuse_unk")}
    for key, value in flags.items():
        if value not in (None, False, True):
            raise SchemaError(f"{source}: model.{key} must be true or false, not {shown(value)}")
    lowercase = False
    # read as BPE Lab's lowercase setting only where BPE Lab's own tokenizer encodes the file (a
    # front end, or added tokens that do more than special tokens, keep the step in the file's pipeline)
    if not (suffix or byte_fallback or flags["ignore_merges"] or flags["fuse_unk"]) \
            and _plain_specials(added, merges, unknown):
        parts, lowercase = _without_lowercase(parts)
    front = front_end(parts, suffix, bool(byte_fallback), source, bool(flags["ignore_merges"]),
                      bool(flags["fuse_unk"]))
    normalizer = parts["normalizer"]
    for i, token in enumerate(added):
        # a front end of the library's recipes normalizes as the library does; BPE Lab's own pipelines
        # spell the end-of-word marker with their normalizer, which added tokens must not see
        if token.normalized and normalizer is not None and front is None:
            raise SchemaError(
                f"{source}: added_tokens[{i}] ('{token.content[:40]}') has \"normalized\": true, so the library "
                f"looks for it in the text its normalizer {normalizer['type'][:40]} made, which BPE Lab does not; "
                "set it to false to match it in the text as typed"
            )
    for i, (content, tid) in enumerate((t.content, t.id) for t in added):
        if content in vocab and vocab[content] != tid:
            raise SchemaError(
                f"{source}: added_tokens[{i}] gives '{content}' id {tid}, but model.vocab gives it {vocab[content]}"
            )
        if content not in vocab:
            if tid in vocab.values():
                raise SchemaError(f"{source}: added_tokens[{i}] reuses id {tid} of another token")
            vocab[content] = tid
        specials[content] = tid
    check_ids(vocab.items(), source, "the vocabulary (model.vocab with added_tokens)")
    # the library lists its unknown token among the special tokens; BPE Lab keeps it apart
    if unknown is not None:
        specials.pop(unknown, None)
    if front is not None:
        units = "bytes" if front.decoding == "bytes" else "chars"
        if units == "bytes" and suffix:
            raise SchemaError(
                f"{source}: model.end_of_word_suffix is set with a ByteLevel pre-tokenizer, where the library "
                "silently drops each last byte whose suffixed symbol is not in the vocabulary; BPE Lab does not"
            )
        inner = tokenizer_from_vocab(
            Settings(split="whitespace", units=units, end_of_word=None), vocab, merges, specials, unknown,
            source, where=lambda i: f"model.merges[{i}]",
        )
        return FileTokenizer(inner, front, unknown, AddedTokens(added, front.normalize))
    if suffix or byte_fallback:
        raise SchemaError(
            f"{source}: model.end_of_word_suffix or model.byte_fallback is set with a pre-tokenizer BPE Lab "
            "reads only without them; the shapes that load are listed in the user guide (Help > User guide, "
            "Exporting and importing)"
        )
    spaced = _spaced_marker_of(parts)
    marker: str | None
    mark: str | None
    if spaced is not None:
        split, units, marker, mark = "whitespace", "chars", spaced, SPACE_MARK
    else:
        split, units = _pre_tokenizer_settings(parts["pre_tokenizer"], source)
        made = {a + b for a, b in merges}
        base = [t for t in vocab if t not in made and t not in specials and t != unknown]
        marker, mark = (None, None) if units == "bytes" else _marker_of(parts, split, base, source)
    if units == "bytes" and parts["normalizer"] is not None:
        raise SchemaError(
            f"{source}: normalizer {parts['normalizer']['type'][:40]} is not one BPE Lab can reproduce with a "
            "byte-level model; normalize the text yourself and remove the normalizer"
        )
    settings = Settings(split=split, units=units, end_of_word=marker, lowercase=lowercase)
    tokenizer = tokenizer_from_vocab(
        settings, vocab, merges, specials, unknown, source,
        where=lambda i: f"model.merges[{i}]", marker_as=mark,
    )
    if _plain_specials(added, merges, unknown):
        return tokenizer
    return FileTokenizer(tokenizer, None, unknown if tokenizer.unknown_id is not None else None,
                         AddedTokens(added))


# what CharBPETokenizer.save_model leaves out of its vocab.json + merges.txt, and from_file puts back
CHAR_BPE_SUFFIX = "</w>"
CHAR_BPE_UNKNOWN = "<unk>"


def is_char_bpe_folder(vocab: dict[str, int]) -> bool:
    """Whether a vocab.json is CharBPETokenizer's: its unknown token, and words ending in ``</w>``."""
    return CHAR_BPE_UNKNOWN in vocab and any(t.endswith(CHAR_BPE_SUFFIX) and t != CHAR_BPE_SUFFIX for t in vocab)


def char_bpe_folder_data(vocab: dict[str, int], merges: list[tuple[str, str]]) -> dict[str, Any]:
    """The tokenizer.json that ``CharBPETokenizer.from_file`` makes of a saved vocab.json + merges.txt."""
    return {
        "added_tokens": [{"id": vocab[CHAR_BPE_UNKNOWN], "content": CHAR_BPE_UNKNOWN, "special": True}],
        "normalizer": dict(_BERT_NORMALIZER),
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "decoder": {"type": "BPEDecoder", "suffix": CHAR_BPE_SUFFIX},
        "model": {"type": "BPE", "unk_token": CHAR_BPE_UNKNOWN, "end_of_word_suffix": CHAR_BPE_SUFFIX,
                  "vocab": vocab, "merges": [list(m) for m in merges]},
    }


def load_hf(path: str | os.PathLike[str]) -> Tokenizer:
    return tokenizer_from_hf_data(read_json(path), str(path))
