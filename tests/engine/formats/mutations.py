"""Malformed files for the readers, made by mutating well-formed ones with a seeded generator.

Every format BPE Lab reads has a seed file or folder (``make_seeds``) and a way to use what loads
(``use``), so a reader that accepts a bad file without a message is caught when the result is
used. Readers with no command of their own (the settings object every file carries) are run through the
API alone; quiz progress is read from a lesson as the quiz panel restores it. ``Mutator`` changes one file of a seed: truncations, bit flips, invalid UTF-8, NUL bytes,
lines removed, repeated or swapped; for JSON also values swapped for other types, huge numbers,
NaN, deep nesting, duplicate keys, keys removed or added. ``bench/fuzz_readers.py`` runs the same
generator longer.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from engine.algorithm.corpus import Corpus
from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile, save_lesson
from engine.formats.load import export, Source
from engine.lesson_io.loading import load_source
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train

TEXT = "low lower newest widest </w> <|endoftext|> café 🙂 a\tb\n x"
WORDS = "low 5\nlower 2\nnewest 6\nwidest 3\ncafé 2\n"
QUIZ_JSON = {
    "format": "bpe-lab-quiz", "version": 1, "title": "t",
    "misconceptions": [{"id": "w", "title": "Each word counts once", "text": "why", "fix": "how"}],
    "questions": [
        {"id": "n", "kind": "number", "prompt": "How many?", "answer": 9, "tolerance": 0.5,
         "wrong": [{"answer": 2, "misconception": "w"}], "labels": ["counting"]},
        {"id": "c", "kind": "choose", "prompt": "Which?", "multiple": False,
         "options": [{"text": "a", "correct": True}, {"text": "b", "misconception": "w"}]},
        {"id": "f", "kind": "fill", "text": "x [[1]] y [[2]]", "blanks": [["y", "z"], "w"], "case_sensitive": False},
        {"id": "o", "kind": "order", "prompt": "Order", "items": ["1", "2", "3"]},
    ],
    "examples": [{"id": "e", "title": "Steps", "body": "b", "steps": ["one", "two"]}],
}
QUIZ_MARKDOWN = """# Concepts

---
kind: "misconception"
id: "w"
title: "Each word counts once"
---
Counts are weighted.

```json
{"fix": "multiply"}
```

---
kind: "question"
id: "count"
title: "Counting"
labels: ["counting", "pairs"]
---
How many times does `s t` occur? ![the tiles](tiles.png "tiles") and ![missing][m]

[m]: <not here.png>

```json
{"type": "number", "answer": 9, "wrong": [{"answer": 2, "misconception": "w"}]}
```

---
kind: "question"
id: "pick"
labels:
  - choosing
---
Which one?

```json
{"type": "choose", "options": [{"text": "a", "correct": true}, "b"]}
```

---
kind: "worked-example"
id: "ex"
---
Watch.

```json
{"steps": ["first", "second"]}
```
"""
# the published concept-page shape: version headings, metadata lines, JSON front matter, no question ids
QUIZ_PAGE = """# Concepts

## Version 7d1f0e6a3c9b8a2f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a70
Published 2025-03-01, proof: sha256:00ff, score 0.91. Source: https://lessons.example.org/bpe

---
format: 1
concept: "tokens"
kind: "misconception"
id: "w"
labels: {"lang":"en","level":"beginner"}
changes: []
---
Counts are weighted.

Fix: multiply by the word's count.

## Version 0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9
Published 2025-03-02, proof: sha256:01ff, score 0.90. Source: https://lessons.example.org/bpe

---
format: 1
concept: "tokens"
kind: "question"
labels: {"lang":"en"}
---
How many times does `s t` occur? Fill: it occurs ___ times.

```json
{"type": "number", "answer": 9, "wrong": [{"answer": "2", "misconception": "w"}], "purpose": "weights"}
```

## Version ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100
Published 2025-03-03, proof: sha256:02ff, score 0.92. Source: https://lessons.example.org/bpe

---
format: 1
concept: "tokens"
kind: "worked-example"
---
```json
{"steps": ["first", {"text": "second"}]}
```
"""

# what the quiz panel saved in a lesson: a pack file, the question up, first answers, teacher mode
QUIZ_PROGRESS = {"version": 1, "source": "file:pack.json", "position": 2, "teacher_mode": True,
                 "answers": {"n": {"score": 1.0, "correct": True}, "c": {"score": 0.5, "correct": False}}}
SETTINGS = {"split": "gpt2", "units": "bytes", "end_of_word": None, "lowercase": True, "min_frequency": 1,
            "merges": 8, "vocab_size": None, "special_tokens": ["<|endoftext|>"], "tie_break": "hf"}

# each format's seeds (file names in their own folders) and what the CLI does with a file of it
# (None: no command reads it alone, so only the API is run)
FORMATS = {
    "bpelab": (("chars/tok.json", "bytes/tok.json"), ["encode", "--tokenizer", "{path}", "--trace", TEXT]),
    "lesson": (("lesson.bpelab",), ["export", "{path}", "--format", "csv", "--out", "-"]),
    # quiz progress inside a lesson, next to the pack it names
    "lesson-quiz": (("lesson.bpelab",), ["export", "{path}", "--format", "csv", "--out", "-"]),
    "merges-txt": (("folder/merges.txt",), ["encode", "--tokenizer", "{path}", TEXT]),
    "settings": (("settings.json",), None),
    # a training text, counted a part at a time as a large file is
    "text": (("corpus.txt",), ["count", "{path}", "--out", "-", "--workers", "1"]),
    "hf": (("chars/tokenizer.json", "bytes/tokenizer.json"), ["encode", "--tokenizer", "{path}", TEXT]),
    "gpt2": (("folder",), ["encode", "--tokenizer", "{path}", TEXT]),
    "tiktoken": (("tok.tiktoken",), ["encode", "--tokenizer", "{path}", TEXT]),
    "csv": (("chars/vocab.csv", "bytes/vocab.csv"), ["encode", "--tokenizer", "{path}", TEXT]),
    "quiz-json": (("pack.json",), ["quiz", "check", "{path}"]),
    "quiz-markdown": (("pack.md", "page.md"), ["quiz", "check", "{path}"]),
}


def _trained(**settings) -> tuple[Tokenizer, list]:
    s = Settings(min_frequency=1, merges=12, special_tokens=("<|endoftext|>",), **settings)
    trainer, steps = train(Corpus.from_text("low lower newest widest lowest " * 3 + "café 🙂 a\tb", s))
    return Tokenizer.from_trainer(trainer), steps


def make_seeds(root: Path) -> dict[str, list[Path]]:
    """Well-formed seeds of every format, each in its own folder under ``root``; format -> their paths."""
    chars, chars_steps = _trained()
    byte_level, byte_steps = _trained(units="bytes", split="gpt2")
    ranked, _ = _trained(units="bytes", split="whitespace")
    seeds = {}
    for name, (files, _) in FORMATS.items():
        seeds[name] = [root / name / f for f in files]
        for path in seeds[name]:
            path.parent.mkdir(parents=True, exist_ok=True)
    (bpelab_chars, bpelab_bytes), (hf_chars, hf_bytes), (csv_chars, csv_bytes) = (
        seeds["bpelab"], seeds["hf"], seeds["csv"])
    export(Source(chars), "bpelab", bpelab_chars)
    export(Source(byte_level), "bpelab", bpelab_bytes)
    save_lesson(LessonFile(WORDS, word_counts=True, settings=Settings(merges=6), step=3), seeds["lesson"][0])
    save_lesson(LessonFile(TEXT, settings=Settings(merges=5), step=2, quiz=QUIZ_PROGRESS), seeds["lesson-quiz"][0])
    _write_json(seeds["lesson-quiz"][0].parent / "pack.json", QUIZ_JSON)
    _write_folder(seeds["merges-txt"][0].parent, Settings(units="bytes", split="gpt2"))
    _write_json(seeds["settings"][0], SETTINGS)
    seeds["text"][0].write_text("\ufeff" + (TEXT + "\n") * 3 + "naïve — Ünïcode ﬁ 日本語 \r\nend", encoding="utf-8")
    _write_json(hf_chars, _hf_data(chars))
    _write_json(hf_bytes, _hf_data(byte_level))
    _write_folder(seeds["gpt2"][0], Settings(units="bytes", split="gpt2"))
    _write_tiktoken(seeds["tiktoken"][0], ranked)
    export(Source(chars, chars_steps), "csv", csv_chars)
    export(Source(byte_level, byte_steps), "csv", csv_bytes)
    _write_json(seeds["quiz-json"][0], QUIZ_JSON)
    seeds["quiz-markdown"][0].write_text(QUIZ_MARKDOWN, encoding="utf-8")
    (seeds["quiz-markdown"][0].parent / "tiles.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    seeds["quiz-markdown"][1].write_text(QUIZ_PAGE, encoding="utf-8")
    return seeds


def _write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _hf_data(tokenizer) -> dict:
    # written without the library check: the seeds must not need `tokenizers` to be made
    from engine.formats.hf import tokenizer_json_data

    return tokenizer_json_data(tokenizer)


def _write_folder(folder: Path, settings: Settings) -> None:
    from engine.formats.gpt2 import folder_files

    tokenizer, _ = _trained(**{k: getattr(settings, k) for k in ("units", "split")})
    for path, text in folder_files(tokenizer, folder).items():
        Path(path).parent.mkdir(exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")


def _write_tiktoken(path: Path, tokenizer) -> None:
    from engine.formats.tiktoken_file import tiktoken_files

    for p, text in tiktoken_files(tokenizer, path).items():
        Path(p).write_text(text, encoding="utf-8")


def files_of(seed: Path) -> list[Path]:
    """The files a seed is made of (a gpt2 folder's three, a .tiktoken and its sidecar); a
    merges.txt stands for itself, though its folder comes with it."""
    if seed.is_dir():
        return sorted(seed.iterdir())
    sidecar = Path(str(seed) + ".json")
    return [seed, sidecar] if sidecar.exists() else [seed]


# -- mutations ------------------------------------------------------------------------------------

HUGE = "9" * 5000
VALUES = [None, True, False, 0, -1, 5, 2**31, 2**63, 2**64 + 1, 1.5, -0.0, 1e300, "", "x", "<unk>", "</w>",
          "\x00", "\ud800", [], [1, 2], ["x"], [[1]], {}, {"a": 1}, {"type": "Sequence"}, "a" * 140_000]
# text that stands for a value JSON cannot write from Python, put in after dumping
RAW = {"@HUGE@": HUGE, "@NAN@": "NaN", "@INF@": "Infinity", "@BIGFLOAT@": "1e400", "@DEEP@": "[" * 3000 + "]" * 3000}


def _paths(data, prefix=()):
    """Every (path, value) in a JSON value, containers first."""
    yield prefix, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def _set(data, path, value):
    if not path:
        return value
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def _json_mutation(rng: random.Random, text: str) -> str:
    data = json.loads(text)
    paths = list(_paths(data))
    path, value = rng.choice(paths)
    op = rng.randrange(9)
    if op == 0:
        new = rng.choice(VALUES + list(RAW))
        data = _set(data, path, new)
    elif op == 8 and path:
        # a value from elsewhere in the file: right in type and spelling, wrong in where it stands
        new = json.loads(json.dumps(rng.choice(paths)[1]))
        data = _set(data, path, new)
    elif op == 1 and path:
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
    elif op == 2 and isinstance(value, dict):
        value[rng.choice(["extra", "type", "version", "settings", "id", "special_tokens"])] = rng.choice(VALUES)
    elif op == 3 and isinstance(value, list) and value:
        i, j = rng.randrange(len(value)), rng.randrange(len(value))
        rng.choice([lambda: value.insert(i, value[j]), lambda: value.pop(i),
                    lambda: value.__setitem__(i, value[j]), lambda: value.reverse()])()
    elif op == 4 and isinstance(value, str):
        data = _set(data, path, rng.choice([value + value, value[:1], value.upper(), "\u00a0" + value, value + "</w>"]))
    elif op == 5 and isinstance(value, (int, float)) and not isinstance(value, bool):
        data = _set(data, path, rng.choice([value + 1, -value - 1, value * 1000, 10**19, str(value), "@HUGE@"]))
    out = json.dumps(data, ensure_ascii=False)
    for mark, raw in RAW.items():
        out = out.replace(f'"{mark}"', raw)
    if op == 6:
        # a key written twice in one object
        m = rng.choice(list(re.finditer(r'\{"([^"\\]*)": ', out)) or [None])
        if m is not None:
            out = out[: m.end()] + f'1, "{m.group(1)}": ' + out[m.end():]
    elif op == 7:
        depth = rng.choice([50, 150, 100_000])
        out = out.replace("[", "[" * depth + "[", 1).replace("]", "]" + "]" * depth, 1)
    return out


def _line_mutation(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(8)
    numbers = re.findall(r"\d+", text)
    if op == 7 and numbers and re.search(r"\d+", lines[i]):
        # a number made another of the file's own, or one more or less: a plausible id or count
        found = rng.choice(list(re.finditer(r"\d+", lines[i])))
        value = int(found.group()[-18:])  # a run of thousands of digits is another mutation's work
        new = rng.choice([rng.choice(numbers), str(value + 1), str(max(0, value - 1))])
        lines[i] = lines[i][: found.start()] + new + lines[i][found.end():]
    elif op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        parts = re.split(r"([ ,:])", lines[i])
        k = rng.randrange(len(parts))
        parts[k] = rng.choice(["", HUGE, "-1", "x", "2147483648", "a" * 140_000, "\x00", "é", '"', "NaN", "[[[["])
        lines[i] = "".join(parts)
    elif op == 4:
        lines[i] = lines[i] + rng.choice([" extra", ",", " 1", "\r", '"'])
    elif op == 5:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    else:
        lines.insert(i, rng.choice(["", "---", "```json", "kind: question", "labels: [1e400]", "id: [\"x\"]"]))
    return "\n".join(lines)


def _byte_mutation(rng: random.Random, data: bytes) -> bytes:
    op = rng.randrange(5)
    if not data:
        return b"\xff"
    i = rng.randrange(len(data))
    if op == 0:
        return data[:i]
    if op == 1:
        flipped = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(flipped))
            flipped[k] ^= 1 << rng.randrange(8)
        return bytes(flipped)
    if op == 2:
        return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe9"]) + data[i:]
    if op == 3:
        return data[:i] + b"\x00" + data[i:]
    return b"\xff\xfe" + data.decode("utf-8", "replace").encode("utf-16-le")


class Mutator:
    """Working copies of a format's seeds; ``next`` puts back what the last mutation changed, then
    mutates one file of one seed."""

    def __init__(self, seeds: list[Path], work: Path):
        self.paths = []
        self.originals = {}
        for n, seed in enumerate(seeds):
            shutil.copytree(seed.parent, work / str(n))
            path = work / str(n) / seed.name
            self.paths.append(path)
            self.originals.update({p: (path, p.read_bytes()) for p in files_of(path)})
        self.changed: Path | None = None

    def next(self, rng: random.Random) -> Path:
        """The path of the seed holding the mutated file."""
        if self.changed is not None:
            _overwrite(self.changed, self.originals[self.changed][1])
        target = self.changed = rng.choice(sorted(self.originals))
        path, data = self.originals[target]
        # now and then two or three changes on top of each other: one alone rarely gets past the
        # first check that refuses it
        for _ in range(rng.choice((1, 1, 1, 1, 2, 3))):
            data = _mutation(rng, data)
        _overwrite(target, data)
        return path


def _mutation(rng: random.Random, data: bytes) -> bytes:
    kind = rng.random()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        kind = 0.0  # an earlier change left bytes that are not text
    if kind < 0.3:
        return _byte_mutation(rng, data)
    is_json = text.lstrip().startswith(("{", "["))
    if is_json and kind < 0.8:
        try:
            return _json_mutation(rng, text).encode("utf-8", "surrogatepass")
        except (ValueError, RecursionError):
            pass  # an earlier change left text that is not JSON
    return _line_mutation(rng, text).encode("utf-8", "surrogatepass")


def _overwrite(path: Path, data: bytes) -> None:
    # in place, then cut to length: some file systems flush a file opened with truncation on close,
    # which costs more than the whole check of the file
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate()


# -- using what loads -----------------------------------------------------------------------------


def check(kind: str, path: Path) -> tuple[str, str | None]:
    """("ok" or "refused", the problem or None) for one file: the CLI in-process on it, which goes
    through the API's readers (only a ``BpeLabError`` becomes exit 2; any other exception escapes),
    then, where it loads, the API using the result further."""
    if FORMATS[kind][1] is None:
        return use(kind, path), None
    status, err = run_cli(kind, path)
    problem = cli_problem(status, err)
    if problem is None and status == 0:
        return use(kind, path), None
    return "refused", problem


def use(kind: str, path: Path) -> str:
    """Load ``path`` through the API and use the result; 'ok' or 'refused'. Any other error escapes."""
    try:
        if kind.startswith("quiz"):
            _use_pack(path)
        elif kind == "lesson":
            _use_lesson(path)
        elif kind == "lesson-quiz":
            _use_quiz_progress(path)
        elif kind == "settings":
            _use_settings(path)
        elif kind == "text":
            _use_text(path)
        else:
            tokenizer = load_source(path).tokenizer
            _use_tokenizer(tokenizer, path.name)
            if kind == "tiktoken":
                _as_tiktoken_reads_it(tokenizer, path)
    except BpeLabError as exc:
        assert str(exc).strip(), "an empty message"
        return "refused"
    return "ok"


def _use_tokenizer(tokenizer, name: str = "tokenizer") -> None:
    from engine.drain import drain
    from engine.formats.listing import merges_of, vocab_of
    from engine.lesson_io.from_tokenizer import merges_of as lesson_merges

    encoding = tokenizer.encode(TEXT)
    back = tokenizer.decode(list(encoding.ids))
    settings = tokenizer.settings
    kept = "".join(tokenizer.pre_tokenize(TEXT, allow_special=False)) == TEXT
    if settings.units == "bytes" and not settings.lowercase and kept:
        # byte-level ids of words that keep every character stand for the text exactly, whatever the file held
        assert back == TEXT, f"decodes as {back!r}"
    for word in dict.fromkeys(tokenizer.pre_tokenize(TEXT)):
        tokenizer.encode_steps(word)
    tokenizer.decode([i for i, _ in vocab_of(tokenizer)])
    merges_of(tokenizer)
    # what the window does with a tokenizer it opens: its merges become the lesson's steps
    drain(lesson_merges(tokenizer, name))


def _as_tiktoken_reads_it(tokenizer, path: Path) -> None:
    """A .tiktoken that BPE Lab reads gives the ids tiktoken gives, where tiktoken reads it too and
    its split pattern is one BPE Lab writes (the two regex engines may read another one apart)."""
    import base64
    import tiktoken

    from engine.formats.tiktoken_file import PATTERNS

    try:
        side = json.loads(Path(str(path) + ".json").read_text(encoding="utf-8"))
        ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in path.read_text().splitlines())}
        if side["pat_str"] not in PATTERNS.values():
            return
        encoding = tiktoken.Encoding(name="fuzz", pat_str=side["pat_str"], mergeable_ranks=ranks,
                                     special_tokens=side["special_tokens"])
    except Exception:  # noqa: BLE001 (a file tiktoken does not take says nothing here)
        return
    assert tokenizer.encode_ids(TEXT) == encoding.encode_ordinary(TEXT), "tiktoken gives other ids"


def _use_quiz_progress(path: Path) -> None:
    from engine.formats.lesson_file import load_lesson
    from engine.quiz import load_pack
    from engine.quiz.progress import QuizProgress, read_progress

    lesson = load_lesson(path)
    read_progress(lesson.quiz)
    # as the quiz panel restores it: a damaged part is left out, what cannot be read is noted
    quiz = QuizProgress(load_pack(path.parent / "pack.json"))
    if not quiz.restore_progress(lesson.quiz):
        assert quiz.notice.strip(), "a refusal without a notice"
    quiz.score_text()


def _use_text(path: Path) -> None:
    from engine.algorithm.word_counting import count_file, count_text
    from engine.files.reading import read_text

    # parts of a few bytes cut inside characters and words: the counts must not change
    whole = count_text(read_text(path), Settings())
    for part in (5, 64):
        assert count_file(path, Settings(), workers=1, part=part) == whole, f"counted in parts of {part}"


def _use_settings(path: Path) -> None:
    from engine.files.reading import read_json
    from engine.formats.settings_data import settings_from_data

    settings = settings_from_data(read_json(path), str(path))
    trainer, steps = train(Corpus.from_text(TEXT, settings))
    _use_tokenizer(Tokenizer.from_trainer(trainer))


def _use_lesson(path: Path) -> None:
    from engine.formats.lesson_file import load_lesson

    lesson = load_lesson(path)
    corpus = lesson.corpus()
    if not corpus.is_empty and len(lesson.text) < 10_000:
        trainer, steps = train(corpus)
        _use_tokenizer(Tokenizer.from_trainer(trainer, merges=min(lesson.step, len(steps))))


def _use_pack(path: Path) -> None:
    from engine.quiz import grade, load_pack

    from engine.quiz.images import ImageFiles, with_images

    pack = load_pack(path)
    # every text as the quiz panel shows it, images read from the pack's folder
    images = ImageFiles()
    for text in _texts((pack.questions, pack.examples, pack.readings, tuple(pack.misconceptions.values()))):
        with_images(text, path.parent, images)
    for q in pack.questions:
        for answer in ("9", 9, [0], [0, 1], ["y", "w"], [2, 0, 1], "1e400", 10**400, None):
            try:
                grade(q, answer, pack.misconceptions)
            except TypeError:
                # an answer of the wrong shape for this kind of question: the panel never sends it
                pass


def _texts(value):
    """Every string in a pack's records (dataclasses, tuples, dicts), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _texts(getattr(value, f.name))


def run_cli(kind: str, path: Path) -> tuple[int, str]:
    """The CLI in-process on ``path``: (exit status, stderr)."""
    from app.cli import main

    argv = [a.format(path=path) for a in FORMATS[kind][1]]
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        status = main(argv)
    return status, err.getvalue()


def cli_problem(status: int, err: str) -> str | None:
    """What is wrong with a CLI run's outcome, or None: exit 0, or exit 2 with one line on stderr."""
    if "Traceback" in err:
        return "a traceback"
    if status == 0:
        return None
    if status != 2:
        return f"exit status {status}"
    lines = err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("bpe-lab: ") or len(lines[0]) < 15:
        return f"not one line: {err[:300]!r}"
    return None
