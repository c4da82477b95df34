"""How the tile view's files are built: no probing of objects, and the layout and film free of Qt."""

from __future__ import annotations

import ast
from pathlib import Path

import widgets.tiles

TILES = Path(widgets.tiles.__file__).parent


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_no_tile_file_probes_what_it_is_given():
    # the session, the views and the themes are asked through their public API, never probed
    paths = sorted(TILES.glob("*.py"))
    assert {"canvas.py", "animation.py", "layout.py", "painter.py", "view.py"} <= {p.name for p in paths}
    for path in paths:
        source = path.read_text(encoding="utf-8")
        assert "hasattr(" not in source and "getattr(" not in source, path.name


def test_the_layout_and_the_film_need_no_qt():
    for name in ("animation.py", "layout.py"):
        assert not imports(TILES / name) & {"PySide6", "shiboken6", "pyqtgraph"}, name
