"""The vocabulary CSV: readable columns, counts from the training, and an exact way back."""

import csv
import io

import pytest

from engine.errors import BpeLabError
from engine.formats.csv_vocab import COLUMNS, load_csv, save_csv, vocab_csv
from engine.formats.spreadsheet import read_cell
from tests.engine.formats.samples import MODES, TEXT, trained


def raw_rows(text):
    """The rows as a spreadsheet receives them."""
    lines = text.split("\n", 1)[1]
    return list(csv.DictReader(io.StringIO(lines)))


def rows(text):
    """The rows as BPE Lab reads them."""
    return [{k: read_cell(v) for k, v in row.items()} for row in raw_rows(text)]


def test_worked_example_rows():
    tok, steps = trained("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, merges=5, specials=())
    table = rows(vocab_csv(tok, steps))
    assert list(table[0]) == COLUMNS
    made = [r for r in table if r["kind"] == "merge"]
    assert [(r["token"], r["left"], r["right"], r["count"]) for r in made] == [
        ("es", "e", "s", "9"), ("est", "es", "t", "9"), ("est</w>", "est", "</w>", "9"),
        ("lo", "l", "o", "7"), ("low", "lo", "w", "7"),
    ]
    est = next(r for r in table if r["token"] == "est")
    assert est["step"] == "2" and bytes.fromhex(est["bytes_hex"]) == b"est"
    assert int(est["left_id"]) == tok.token_to_id("es")
    assert [r["kind"] for r in table if r["token"] in ("</w>", "<unk>")] == ["marker", "unknown"]


def test_counts_are_blank_without_a_training_history():
    tok, _ = trained(merges=20)
    made = [r for r in rows(vocab_csv(tok)) if r["kind"] == "merge"]
    assert len(made) == 20 and all(r["count"] == "" for r in made)


def test_byte_tokens_are_readable_and_exact():
    tok, steps = trained(units="bytes", split="gpt2", merges=60)
    table = rows(vocab_csv(tok, steps))
    space = next(r for r in table if r["bytes_hex"] == "20")
    assert space["token"] == "␣"
    nul = next(r for r in table if r["bytes_hex"] == "00")
    assert nul["token"] == "<U+0000>"
    for r in table:
        if r["kind"] == "merge":
            assert bytes.fromhex(r["bytes_hex"]) == bytes.fromhex(table[int(r["left_id"])]["bytes_hex"]) + bytes.fromhex(
                table[int(r["right_id"])]["bytes_hex"]
            )


@pytest.mark.parametrize("mode", list(MODES))
def test_round_trip_gives_the_same_merges(mode, tmp_path):
    tok, steps = trained(**MODES[mode])
    save_csv(tok, tmp_path / "v.csv", steps)
    back = load_csv(tmp_path / "v.csv")
    assert back.merges == tok.merges and back.vocab == tok.vocab
    assert back.encode(TEXT) == tok.encode(TEXT)


TRICKY = "a\tb\r\nc d\u00a0e \x07bell \u200bzero 🙂🙂 🙂x café\ncafé\t"


@pytest.mark.parametrize("settings", [dict(units="bytes", split="gpt2"), dict(split="none"), dict(split="gpt2")])
def test_whitespace_controls_and_cut_bytes_read_back_to_the_same_ids(settings, tmp_path):
    tok, steps = trained(TRICKY, merges=40, specials=("<|endoftext|>",), **settings)
    save_csv(tok, tmp_path / "v.csv", steps)
    text = (tmp_path / "v.csv").read_text(encoding="utf-8")
    # the file shows people whitespace and controls, never the raw characters
    shown = "".join(r["token"] + r["left"] + r["right"] for r in rows(text))
    assert not any(c in shown for c in "\t\r\n\x07\u200b\u00a0")
    back = load_csv(tmp_path / "v.csv")
    assert back.vocab == tok.vocab and back.merges == tok.merges
    assert back.encode(TRICKY + "<|endoftext|>") == tok.encode(TRICKY + "<|endoftext|>")


@pytest.mark.parametrize(
    "edit, needle",
    [
        (lambda t: t.replace("6c6f", "6c6g", 1), "line \\d+: bytes_hex '6c6g' is not hexadecimal"),
        (lambda t: t.replace("\n0,", "\n1,", 1), "line 3: id 1 is used twice|line 4: id 1 is used twice"),
        (lambda t: t.replace("# BPE Lab vocabulary; settings: {", "# BPE Lab vocabulary; settings: {{", 1), "line 1"),
        (lambda t: "id,token\n" + t, "line 1: not a BPE Lab vocabulary CSV"),
    ],
)
def test_bad_rows_are_named(edit, needle, tmp_path):
    tok, steps = trained("low " * 5 + "lower " * 2, merges=3, specials=())
    path = tmp_path / "v.csv"
    save_csv(tok, path, steps)
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(BpeLabError, match=needle):
        load_csv(path)


def test_a_merge_that_spells_the_marker_again_is_kept_on_the_markers_row(tmp_path):
    # letters that spell </w>: merge 4 makes the marker's string, which keeps the marker's id
    tok, steps = trained("a " * 9 + "</w> " * 2, merges=4, specials=())
    assert ("</w", ">") in tok.merges
    table = rows(vocab_csv(tok, steps))
    marker = next(r for r in table if r["token"] == "</w>")
    assert (marker["kind"], marker["left"], marker["right"]) == ("marker", "</w", ">")
    save_csv(tok, tmp_path / "v.csv", steps)
    back = load_csv(tmp_path / "v.csv")
    assert back.merges == tok.merges and back.vocab == tok.vocab
    assert back.encode("a </w> x</w>") == tok.encode("a </w> x</w>")


# tokens a spreadsheet would run as formulas, and tokens that start with the quote the escaping uses
FORMULAS = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(1)", "'s", "''", "'=1"]
MADE = {'=HYPERLINK("http://x")', "'s", "'=1", "@SUM(1)", "''", "-2", "+1"}


@pytest.mark.parametrize("units", ["chars", "bytes"])
def test_a_cell_a_spreadsheet_would_run_is_quoted_and_reads_back_as_the_same_token(units, tmp_path):
    text = " ".join(t for t in FORMULAS for _ in range(3))
    tok, steps = trained(text, merges=60, specials=(), units=units, end_of_word=None)
    assert MADE <= {a + b for a, b in tok.merges}
    written = vocab_csv(tok, steps)
    cells = [c for r in raw_rows(written) for c in (r["token"], r["left"], r["right"])]
    assert [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")] == []
    assert {"'=HYPERLINK(\"http://x\")", "''s", "''=1", "'''", "'-2", "'+1", "'@SUM(1)"} <= set(cells)
    table = rows(written)
    assert MADE <= {r["token"] for r in table}
    for r in table:
        if r["kind"] == "merge":
            assert r["token"] == r["left"] + r["right"]
    save_csv(tok, tmp_path / "v.csv", steps)
    back = load_csv(tmp_path / "v.csv")
    assert back.vocab == tok.vocab and back.merges == tok.merges
    assert back.encode(text) == tok.encode(text)
