"""The user guide's DuckDB recipe writes the very counts file ``bpe-lab count`` writes, so counts made
by an engine that scales out train the same merges."""

from __future__ import annotations

import random
import re
from pathlib import Path


from app.cli import main

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "command-line.md"
WORDS = ["the", "The", "cat", '"cat"', "it's", "日本語", "🙂", "ΟΔΟΣ", "a-b", "x\u0301", "1234", "end.", "\\n", "a,b"]
GAPS = [" ", "  ", "\n", "\r\n", "\t", "\u00a0", "\u2028", "\u3000", "\x0b", "\x1c", "\u200b"]


def recipe() -> str:
    """The SQL block of the guide's "Corpora bigger than one machine" section."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Corpora bigger than one machine"):]
    return re.search(r"```sql\n(.*?)```", section, re.S).group(1)


def sample(seed: int = 4, words: int = 5000) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(words))


def test_duckdb_counts_equal_bpe_lab_count(tmp_path, capsys):
    import duckdb  # a test dependency: missing, this fails rather than skips
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(sample().encode("utf-8"))
    theirs, ours = tmp_path / "duckdb.tsv", tmp_path / "ours.tsv"
    sql = recipe().replace("'corpus.txt'", f"'{corpus}'").replace("'counts.tsv'", f"'{theirs}'")
    duckdb.connect().execute(sql)
    assert main(["count", str(corpus), "--out", str(ours)]) == 0
    assert theirs.read_bytes() == ours.read_bytes()
    # and both train the same merges as the text itself
    histories = []
    for source, counts in ((corpus, False), (theirs, True)):
        out, history = tmp_path / f"tok{len(histories)}.json", tmp_path / f"h{len(histories)}.json"
        argv = ["train", str(source), "--merges", "40", "--out", str(out), "--history", str(history)]
        assert main(argv + (["--word-counts"] if counts else [])) == 0
        histories.append(history.read_text(encoding="utf-8"))
    assert histories[0] == histories[1]
    capsys.readouterr()
