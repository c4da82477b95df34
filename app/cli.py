"""The ``bpe-lab`` command: the window with no subcommand, the engine scriptable with one.

Each subcommand lives in ``app/commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``. Every bad input ends as one line on stderr and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from typing import NoReturn, Sequence

from engine.errors import BpeLabError, one_line

# subcommand -> module; the module is imported only when its command runs or help is asked
COMMANDS = {
    "train": "app.commands.train",
    "count": "app.commands.count",
    "encode": "app.commands.encode",
    "decode": "app.commands.decode",
    "export": "app.commands.export",
    "quiz": "app.commands.quiz",
    "snapshot": "app.commands.snapshot",
    "compare": "app.commands.compare",
    "metrics": "app.commands.metrics",
    "compare-algorithms": "app.commands.compare_algorithms",
}
# commands that use Qt with no window on screen: Qt's warnings are kept off their output
QT_COMMANDS = ("snapshot",)
EXIT_BAD_INPUT = 2
# options that stand instead of a command (anything else first opens the window)
OPTIONS = ("-h", "--help", "--version", "--install-desktop-entry", "--uninstall-desktop-entry")

# the window's own arguments (app/main.py: window_arguments), which the commands' parser does not parse
WINDOW_USAGE = ("bpe-lab [FILE] [--close-after SECONDS]\n"
                "       bpe-lab COMMAND [options]   (bpe-lab COMMAND --help for one command's)\n"
                "       bpe-lab [--version | --install-desktop-entry | --uninstall-desktop-entry]")
WINDOW_HELP = ("The window: bpe-lab FILE opens a lesson (.bpelab) or a text file to train on; with no FILE, the "
               "default lesson. --close-after SECONDS closes the window after SECONDS, as File > Quit does "
               "(to check an installation).")


class HelpLayout(argparse.HelpFormatter):
    """argparse's help layout, given the terminal's width as ``shutil.get_terminal_size`` finds it
    without importing shutil: argparse lays out a help line for every option it is given, and
    shutil (with the compression modules it imports) would cost each command's start."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, terminal_width() - 2 if width is None else width)


def terminal_width() -> int:
    """$COLUMNS, else the width of the terminal standard output goes to, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            # sys.__stdout__ is None when Python starts with no standard output at all
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse, with its complaints cut down to one line that points at --help."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpLayout)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # noqa: D102 (argparse's own hook)
        raise BpeLabError(f"{message} (see '{self.prog} --help')")


@functools.lru_cache(maxsize=None)
def build_parser(command: str | None = None) -> Parser:
    """The parser, built once: it keeps no state between parses.

    Given a command, only that command's parser: a command run from a script starts without
    importing what the other commands and ``--version`` need.
    """
    parser = Parser(prog="bpe-lab", description="Byte pair encoding, step by step. With no command: the window.",
                    usage=WINDOW_USAGE if command is None else None, epilog=WINDOW_HELP if command is None else None)
    if command is None:
        from app.about import version_line  # only --version and help ask for it

        parser.add_argument("--version", action="version", version=version_line())
        entry = parser.add_mutually_exclusive_group()
        entry.add_argument("--install-desktop-entry", action="store_true",
                           help="add BPE Lab to the application menu and open .bpelab lessons with it")
        entry.add_argument("--uninstall-desktop-entry", action="store_true", help="remove what --install-desktop-entry added")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND", prog="bpe-lab")
    for name, module in COMMANDS.items():
        if command in (None, name):
            importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in OPTIONS):
        from app.main import run_window  # the commands start without the window's code

        return run_window(argv)
    if not (process and argv[0] in COMMANDS and argv[0] not in QT_COMMANDS):
        return run_command(argv)
    _kept.ends_process = True
    exit_now(run_command(argv))


def run_command(argv: list[str]) -> int:
    try:
        args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
        if args.command is None:
            from app.desktop_entry import run  # 68 ms only the desktop entry options need

            return run(install_entry=args.install_desktop_entry)
        if args.command in QT_COMMANDS:
            from app.main import qt_messages_to_log  # only the commands that use Qt

            qt_messages_to_log()
        return importlib.import_module(COMMANDS[args.command]).run(args)
    except BpeLabError as exc:
        print(f"bpe-lab: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("bpe-lab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


class _Kept:
    """What a command built, kept to the end of its process (see ``exit_now``): only when the command
    is the whole process; a command run inside another program (a test, a script) keeps nothing."""

    def __init__(self):
        self.ends_process = False
        self.things: list = []


_kept = _Kept()


def keep_until_exit(*things) -> None:
    """Hold what a command built until its process ends, rather than free it object by object as the
    command returns (a training's records are millions of small objects; the system takes the
    memory back at once)."""
    if _kept.ends_process:
        _kept.things.extend(things)


def exit_now(code: int) -> NoReturn:
    """End a command's process once its output is out: flush standard output and error, and leave
    without freeing what it kept (``keep_until_exit``) or tearing down the interpreter. Every file a
    command writes is closed and synced before it returns; a command that opens a pool or a thread
    closes it itself. Output that cannot be written is said, and fails the command."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass  # the reader went away (``head``): as when the command itself meets it
    except (OSError, ValueError) as exc:
        os.write(2, f"bpe-lab: cannot write the output ({getattr(exc, 'strerror', None) or exc})\n".encode())
        code = code or 1
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere left to say it
    if "logging" in sys.modules:
        sys.modules["logging"].shutdown()
    os._exit(code)
