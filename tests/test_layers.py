"""No module imports itself in a circle.

Every import counts, at module level or inside a function: an import moved into a function still
makes a cycle, it only hides it until the function runs. Which layer may import which (app -> widgets
-> engine, an engine without Qt, resources without app or widgets) is said by the import contracts in
pyproject.toml, which tools/test.sh checks with lint-imports; they cannot say "no cycle between two
modules", so that check is here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "widgets", "app", "resources")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def imported_names(path: Path, module: str) -> set[str]:
    """Every dotted name the file imports anywhere, relative imports made absolute.

    ``from a.b import c`` gives both ``a.b`` and ``a.b.c``: c may be a module or a name in a.b.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def import_graph(root: Path) -> dict[str, set[str]]:
    """Project module -> the project modules it imports (the most specific module each name names)."""
    modules = project_modules(root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in imported_names(path, module):
            # "a.b.C" names the module a.b when C is a class in it; take the longest module prefix
            parts = name.split(".")
            while parts and ".".join(parts) not in modules:
                parts.pop()
            if parts and ".".join(parts) != module:
                targets.add(".".join(parts))
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so a long chain of imports cannot reach the recursion limit
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def one_cycle(graph: dict[str, set[str]], members: list[str]) -> list[str]:
    """One closed path through a component, to show in a message: a -> b -> ... -> a."""
    inside = set(members)
    start = members[0]
    path, seen = [start], {start}
    node = start
    while True:
        following = sorted(graph[node] & inside)
        if start in following and len(path) > 1:
            return path + [start]
        step = next((m for m in following if m not in seen), None)
        if step is None:
            # a dead end inside the component: the component list alone is still the answer
            return members
        path.append(step)
        seen.add(step)
        node = step


def test_no_import_cycle():
    graph = import_graph(ROOT)
    assert len(graph) > 50 and graph["engine.formats.load"], "the graph should hold the whole project"
    found = [" -> ".join(one_cycle(graph, members)) for members in cycles(graph)]
    assert found == [], "import cycles:\n" + "\n".join(found)


# the checks themselves, on small made-up projects


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").touch()
    return tmp_path


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    root = _project(tmp_path, {
        "engine/a.py": "from engine.b import f\n",
        "engine/b.py": "def f():\n    from engine.c import g\n    return g\n",
        "engine/c.py": "def g():\n    from . import a\n",
        "engine/d.py": "import engine.a\n",
    })
    graph = import_graph(root)
    assert cycles(graph) == [["engine.a", "engine.b", "engine.c"]]
    assert one_cycle(graph, ["engine.a", "engine.b", "engine.c"]) == ["engine.a", "engine.b", "engine.c", "engine.a"]


def test_a_class_imported_from_a_module_points_at_the_module(tmp_path):
    root = _project(tmp_path, {
        "engine/a.py": "from engine.b import Thing\n",
        "engine/b.py": "class Thing: pass\n",
    })
    assert import_graph(root)["engine.a"] == {"engine.b"}
    assert cycles(import_graph(root)) == []
