"""``bpe-lab --help`` names what the window takes as well as the commands."""

import pytest

from app.main import window_arguments
from tests.app.cli_run import run


def help_text(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as done:
        run(capsys, *argv)
    assert done.value.code == 0
    return capsys.readouterr().out


def test_help_names_the_file_and_every_option_the_window_takes(capsys):
    text = help_text(capsys, "--help")
    assert text.startswith("usage: bpe-lab [FILE] [--close-after SECONDS]")
    assert "bpe-lab FILE opens a lesson (.bpelab) or a text file" in text
    args, _qt = window_arguments(["lesson.bpelab", "--close-after", "3"])
    assert args.path == "lesson.bpelab" and args.close_after == 3.0
    assert all(f"--{name.replace('_', '-')}" in text for name in vars(args) if name != "path")


def test_a_command_help_keeps_its_own_usage(capsys):
    assert help_text(capsys, "train", "--help").startswith("usage: bpe-lab train ")
