"""The app and the views tell errors apart by class, never by reading an error's message.

A check over the source: wherever code holds an exception (``except … as exc``, a parameter that
is one) or an error's message (the string a ``*_failed`` slot or ``show_problem`` receives), that
value, its ``str()``, its ``args`` and text derived from them are never searched or compared:
no ``"…" in str(exc)``, no ``message.startswith(…)``, no ``== "…"``, no ``re.search(…, message)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("app", "widgets")

# parameters that hold an exception, or the message of one, in the code checked
ERROR_NAMES = {"exc", "error", "err", "e"}
MESSAGE_NAMES = {"message", "reason", "problem", "text"}
# text searching on a string: methods, and re functions taking the string second
SEARCHING_METHODS = {"startswith", "endswith", "find", "rfind", "index", "rindex", "count", "partition",
                     "rpartition", "split", "rsplit"}
DERIVING_METHODS = {"lower", "upper", "casefold", "strip", "lstrip", "rstrip"}
RE_FUNCTIONS = {"search", "match", "fullmatch", "findall", "finditer", "split", "sub"}
EXCEPTION_TYPES = {"BaseException", "Exception", "BpeLabError", "OSError"}


def _is_error_slot(name: str) -> bool:
    """Functions that receive an error's message: ``_on_*_failed``, ``*_errored``, ``show_problem``."""
    return name.endswith(("failed", "errored", "_failure")) or "problem" in name


def _annotated_as_exception(arg: ast.arg) -> bool:
    return arg.annotation is not None and any(t in ast.unparse(arg.annotation) for t in EXCEPTION_TYPES)


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str):
        self.path = path
        self.tainted: list[set[str]] = [set()]
        self.found: list[str] = []

    # -- what holds an error --------------------------------------------------------------------

    def _holds_error(self, node: ast.AST) -> bool:
        names = self.tainted[-1]
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Attribute) and node.attr == "args":
            return self._holds_error(node.value)
        if isinstance(node, ast.Subscript):
            return self._holds_error(node.value)
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in ("str", "repr", "format") and node.args:
                return self._holds_error(node.args[0])
            if isinstance(f, ast.Attribute) and f.attr in DERIVING_METHODS:
                return self._holds_error(f.value)
        if isinstance(node, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self._holds_error(v.value) for v in node.values)
        return False

    def _report(self, node: ast.AST) -> None:
        self.found.append(f"{self.path}:{node.lineno}: {ast.unparse(node)}")

    # -- scopes ---------------------------------------------------------------------------------

    def _function(self, node) -> None:
        names = set()
        for arg in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
            if arg.arg in ERROR_NAMES or _annotated_as_exception(arg):
                names.add(arg.arg)
            elif arg.arg in MESSAGE_NAMES and _is_error_slot(node.name):
                names.add(arg.arg)
        self.tainted.append(names)
        self.generic_visit(node)
        self.tainted.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.tainted.append(self.tainted[-1] | {a.arg for a in node.args.args if a.arg in ERROR_NAMES})
        self.generic_visit(node)
        self.tainted.pop()

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.tainted[-1].add(node.name)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if self._holds_error(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.tainted[-1].add(target.id)
        self.generic_visit(node)

    # -- what reads an error's text ---------------------------------------------------------------

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)) and self._holds_error(right):
                self._report(node)
            elif isinstance(op, (ast.Eq, ast.NotEq)) and (
                (self._holds_error(left) and isinstance(right, ast.Constant) and isinstance(right.value, str))
                or (self._holds_error(right) and isinstance(left, ast.Constant) and isinstance(left.value, str))
            ):
                self._report(node)
            left = right
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in SEARCHING_METHODS and self._holds_error(f.value):
                self._report(node)
            elif (f.attr in RE_FUNCTIONS and isinstance(f.value, ast.Name) and f.value.id == "re"
                  and len(node.args) >= 2 and self._holds_error(node.args[1])):
                self._report(node)
        self.generic_visit(node)


def error_text_matches(source: str, path: str = "<source>") -> list[str]:
    finder = _Finder(path)
    finder.visit(ast.parse(source))
    return finder.found


def test_app_and_widgets_never_read_an_error_message_to_tell_kinds_apart():
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found += error_text_matches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_the_check_finds_each_way_of_matching_an_error_text():
    caught = """
def load(path):
    try:
        read(path)
    except OSError as exc:
        if "No such file" in str(exc):
            pass
        text = str(exc).lower()
        if text.startswith("permission"):
            pass
        if re.search("denied", text):
            pass
        if exc.args[0] == "gone":
            pass

def _on_load_failed(self, message: str):
    if "line" in message:
        pass

def _on_errored(self, error: BaseException):
    return f"{error}".endswith("memory")
"""
    assert len(error_text_matches(caught)) == 6
    honest = """
def load(path):
    try:
        read(path)
    except NotPlainTextError as exc:
        tell(f"{exc}. Open it anyway?")
    except BpeLabError as exc:
        tell(str(exc))

def show_result(self, result):
    message = result.message
    return message.startswith("Right.")
"""
    assert error_text_matches(honest) == []
