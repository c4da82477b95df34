"""The quiz panel's style sheet: large type at scale 1, everything scaled together.

It sizes the quiz's type and names no colour: the verdict boxes, the hint and the chosen item
take theirs from the window's theme (resources/styles, and the classroom look), so a theme can
give the whole quiz its colours, and the classroom its white on black.
"""

from __future__ import annotations

import math

STYLE = """
QWidget {{ font-size: {base}pt; }}
QLabel#title {{ font-size: {title}pt; font-weight: bold; }}
QLabel#prompt, QLabel#fillText, QLabel#exampleStep {{ font-size: {prompt}pt; }}
QLabel#note, QLabel#notice {{ font-size: {small}pt; font-style: italic; }}
QLabel#score {{ font-size: {base}pt; font-weight: bold; }}
QLabel#hint {{ font-size: {base}pt; border-radius: 6px; padding: 8px; }}
QFrame#feedback {{ border-radius: 8px; padding: 6px; }}
QFrame#feedback QLabel {{ font-size: {base}pt; }}
QFrame#feedback QLabel#verdict {{ font-size: {prompt}pt; font-weight: bold; }}
QRadioButton, QCheckBox, QListWidget, QLineEdit, QLabel#option {{ font-size: {option}pt; }}
QRadioButton, QCheckBox {{ padding: 4px; }}
QRadioButton::indicator, QCheckBox::indicator {{ width: {box}px; height: {box}px; }}
QListWidget::item {{ padding: 6px; }}
QPushButton {{ font-size: {base}pt; padding: 6px 14px; }}
QWidget#chrome QLabel, QWidget#chrome QComboBox, QWidget#chrome QCheckBox, QWidget#chrome QPushButton {{
    font-size: {chrome}pt; }}
QWidget#chrome QPushButton {{ padding: 3px 10px; }}
"""


def style_sheet(scale: float, least_px: int = 0) -> str:
    """The sheet at ``scale``, no text smaller than ``least_px`` pixels (the classroom's least)."""
    least = math.ceil(least_px * 72 / 96)

    def pt(n: float) -> int:
        return max(8, least, round(n * scale))

    return STYLE.format(base=pt(15), title=pt(24), prompt=pt(20), option=pt(18), small=pt(12), box=pt(22),
                        # the pack and mode controls are for the teacher, not the class: ordinary size
                        chrome=pt(10))
