"""Saving a chart as PNG or SVG (drawn in its theme) and its numbers as CSV; a text cell that a
spreadsheet would run as a formula (a pair ``=`` ``1``) is quoted (``engine.formats.spreadsheet``)."""

from __future__ import annotations

import csv
import io
import os
import sys

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (the exporters are a submodule pyqtgraph does not import)

from engine.errors import BpeLabError
from engine.formats.spreadsheet import safe_cell
from engine.files.writing import write_atomic
from widgets.saving import png_bytes

FORMATS = ("png", "svg", "csv")


def _accept_closed_paths() -> None:
    """Let pyqtgraph's SVG exporter read the paths Qt 6.11 writes.

    Qt now ends a closed path with a separate "Z"; pyqtgraph 0.14 expects every token of a path to
    be an "x,y" pair and stops with a ValueError. Every such path already returns to its start, so
    the "Z" is dropped before pyqtgraph moves the coordinates.
    """
    module = sys.modules["pyqtgraph.exporters.SVGExporter"]
    original = module.correctCoordinates
    if getattr(original, "accepts_closed_paths", False):
        return

    def correct(node, defs, item, options):
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                tokens = [t.rstrip("Zz") for t in d.split()]
                path.setAttribute("d", " ".join(t for t in tokens if t))
        return original(node, defs, item, options)

    # the mark says the exporter was wrapped already: pyqtgraph's module holds no types to say so
    correct.accepts_closed_paths = True  # type: ignore[attr-defined]
    module.correctCoordinates = correct  # type: ignore[attr-defined]


_accept_closed_paths()


def export_image(plot: pg.PlotWidget, path: str, width: int = 1600) -> None:
    """Write the plot to ``path``; the file's ending (.png or .svg) picks the format.

    The whole scene is exported, not only the plot item, so views laid over it (a second y axis)
    come along.
    """
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    scene = plot.scene()
    if kind == "png":
        exporter = pg.exporters.ImageExporter(scene)
        exporter.parameters()["width"] = width
        exporter.parameters()["antialias"] = True
        data = png_bytes(exporter.export(toBytes=True))
    elif kind == "svg":
        data = pg.exporters.SVGExporter(scene).export(toBytes=True)
    else:
        raise BpeLabError(f"'{path}': a chart is saved as .png or .svg; use .csv for its numbers")
    write_atomic(path, data)


def export_rows(rows: list[dict], path: str) -> None:
    """Write rows (all with the same keys) as CSV with a header line."""
    text = io.StringIO(newline="")
    if rows:
        out = csv.DictWriter(text, fieldnames=list(rows[0]))
        out.writeheader()
        for row in rows:
            out.writerow({k: _cell(v) for k, v in row.items()})
    write_atomic(path, text.getvalue())


def _cell(value: object) -> object:
    """A number as a number (a negative one stays one); text quoted where a spreadsheet would run it."""
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, str):
        return safe_cell(value)
    return "" if value is None else value
