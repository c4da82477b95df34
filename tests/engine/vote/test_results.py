import csv

from engine.vote.results import COLUMNS, ResultRow, results_csv, write_results


def test_the_csv_has_one_row_per_answer_and_round_and_counts_only(tmp_path):
    rows = [ResultRow("Which pair merges next?", "merge-1", 1, "e + s", 14, True),
            ResultRow("Which pair merges next?", "merge-1", 2, "s + t", 9, False)]
    path = tmp_path / "vote.csv"
    write_results(path, rows)
    read = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert tuple(read[0]) == COLUMNS == ("question", "question_id", "round", "option", "count", "correct")
    assert read[1:] == [["Which pair merges next?", "merge-1", "1", "e + s", "14", "yes"],
                        ["Which pair merges next?", "merge-1", "2", "s + t", "9", "no"]]


def test_a_typed_answer_a_spreadsheet_would_run_is_quoted_and_a_negative_number_is_not():
    text = results_csv([ResultRow("q", "quiz-4", 1, '=HYPERLINK("http://x")', 1, False),
                        ResultRow("q", "quiz-3", 1, "-3", 2, False), ResultRow("q", "quiz-4", 1, "@sum", 1, False)])
    options = [row[3] for row in csv.reader(text.splitlines())][1:]
    assert options == ["'=HYPERLINK(\"http://x\")", "-3", "'@sum"]
