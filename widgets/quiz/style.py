"""The quiz panel's style sheet: large type at scale 1, everything scaled together."""

from __future__ import annotations

STYLE = """
QWidget {{ font-size: {base}pt; }}
QLabel#title {{ font-size: {title}pt; font-weight: bold; }}
QLabel#prompt, QLabel#fillText, QLabel#exampleStep {{ font-size: {prompt}pt; }}
QLabel#note, QLabel#notice {{ font-size: {small}pt; color: palette(window-text); font-style: italic; }}
QLabel#score {{ font-size: {base}pt; font-weight: bold; }}
QLabel#hint {{ font-size: {base}pt; border: 2px dashed #7a6300; border-radius: 6px; padding: 8px;
              background: #fff7d6; color: #111111; }}
QFrame#feedback {{ border-radius: 8px; padding: 6px; }}
QFrame#feedback[verdict="right"] {{ border: 4px solid #1b6e2a; background: #e3f4e1; }}
QFrame#feedback[verdict="partly"] {{ border: 4px dotted #8a5300; background: #fff1d0; }}
QFrame#feedback[verdict="wrong"] {{ border: 4px dashed #b0182b; background: #fbe3e6; }}
QFrame#feedback[verdict="hidden"] {{ border: 4px solid #555555; background: #eeeeee; }}
QFrame#feedback QLabel {{ color: #111111; font-size: {base}pt; }}
QFrame#feedback QLabel#verdict {{ font-size: {prompt}pt; font-weight: bold; }}
QRadioButton, QCheckBox, QListWidget, QLineEdit, QLabel#option {{ font-size: {option}pt; }}
QRadioButton, QCheckBox {{ padding: 4px; }}
QRadioButton::indicator, QCheckBox::indicator {{ width: {box}px; height: {box}px; }}
QListWidget::item {{ padding: 6px; border-bottom: 1px solid palette(mid); color: palette(text); }}
QListWidget::item:selected {{ background: #d6e4fb; color: #111111; border: 3px solid #2a5db0; }}
QPushButton {{ font-size: {base}pt; padding: 6px 14px; }}
QWidget#chrome QLabel, QWidget#chrome QComboBox, QWidget#chrome QCheckBox, QWidget#chrome QPushButton {{
    font-size: {chrome}pt; }}
QWidget#chrome QPushButton {{ padding: 3px 10px; }}
"""


def style_sheet(scale: float) -> str:
    def pt(n: float) -> int:
        return max(8, round(n * scale))

    return STYLE.format(base=pt(15), title=pt(24), prompt=pt(20), option=pt(18), small=pt(12), box=pt(22),
                        # the pack and mode controls are for the teacher, not the class: ordinary size
                        chrome=pt(10))
