"""The classroom look: one palette and one type scale for everything a class sees.

Classroom mode gives the window ``palette()`` and ``window_sheet(px)`` (and the application the
palette, for dialogs, which are windows of their own), so every widget inside inherits white and
yellow on black at classroom type: a view built later, a label added to a view, a dialog opened
in the mode, the band that says why. Views that paint themselves (tiles, charts, explorer panes,
the covers) take their projector colours and sizes from here too, through ``app.classroom_looks``.

The type scale is set for a 1080p projector and follows a smaller screen, but text a class reads
never goes below ``LEAST_PX`` at the mode's starting size (24 px reads from the back of a room at
1280x720). Every colour of text here is at least 7:1 against the black ground.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

GROUND = "#000000"
TEXT = "#FFFFFF"
ACCENT = "#FFFF00"  # what to look at: focus, the chosen, the winner's frame on the tiles
MUTED = "#E0E0E0"  # secondary text, still 15:1 on the ground
DISABLED = "#A0A0A0"  # 8:1: a control that cannot act now still reads
PANEL = "#141414"  # every other row, a box's ground
# the quiz's verdicts: each also has its mark and border style, so they read in grey
RIGHT = "#66FF66"
PARTLY = "#FFB000"
WRONG = "#FF7A8A"
TIP_GROUND, TIP_TEXT = "#FFFFE0", "#000000"

PX_1080 = 36  # body text on a 1920x1080 projector
LEAST_PX = 24  # body text at the mode's starting size on any screen
POINTS_PER_PX = 72 / 96  # for themes that size their type in points (the charts')


def text_px(fit: float, scale: float = 1.0) -> int:
    """Body text in pixels for a screen ``fit`` of a 1080p one, at the live ``scale`` (1 at the start)."""
    return max(8, round(max(LEAST_PX, PX_1080 * fit) * scale))


def text_points(px: int) -> int:
    return max(6, round(px * POINTS_PER_PX))


def palette() -> QPalette:
    """The classroom palette: what a widget paints where no style sheet rule speaks for it."""
    p = QPalette()
    R = QPalette.ColorRole
    colours = {
        R.Window: GROUND, R.WindowText: TEXT, R.Base: GROUND, R.AlternateBase: PANEL, R.Text: TEXT,
        R.Button: GROUND, R.ButtonText: TEXT, R.BrightText: ACCENT, R.Highlight: ACCENT, R.HighlightedText: GROUND,
        R.ToolTipBase: TIP_GROUND, R.ToolTipText: TIP_TEXT, R.PlaceholderText: MUTED, R.Link: ACCENT,
        R.LinkVisited: ACCENT, R.Light: TEXT, R.Midlight: MUTED, R.Mid: MUTED, R.Dark: MUTED, R.Shadow: TEXT,
    }
    for role, value in colours.items():
        p.setColor(role, QColor(value))
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(DISABLED))
    return p


def window_sheet(px: int) -> str:
    """The window's style sheet in the mode, with body text of ``px`` pixels.

    A view's own sheet wins over this one where both speak, so views keep their own sizes (their
    own type scales) but name no colour of their own that this sheet must override.
    """
    box = max(16, round(px * 0.8))
    return f"""
QWidget {{ color: {TEXT}; font-size: {px}px; }}
QWidget:disabled {{ color: {DISABLED}; }}
QMainWindow, QDialog, QMessageBox, QTabWidget::pane, QStackedWidget, QScrollArea {{
    background-color: {GROUND}; border: none; }}
QPushButton, QToolButton, QComboBox {{ background-color: {GROUND}; color: {TEXT}; border: 2px solid {TEXT};
    padding: 4px 12px; }}
QPushButton:focus, QToolButton:focus, QComboBox:focus {{ border: 4px solid {ACCENT}; }}
QPushButton:pressed, QPushButton:checked, QToolButton:checked {{ background-color: {ACCENT}; color: {GROUND}; }}
QComboBox QAbstractItemView, QMenu {{ background-color: {GROUND}; color: {TEXT}; border: 2px solid {TEXT};
    selection-background-color: {ACCENT}; selection-color: {GROUND}; }}
QMenu::item:selected {{ background-color: {ACCENT}; color: {GROUND}; }}
QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox, QListView, QTableView, QTreeView {{
    background-color: {GROUND}; color: {TEXT}; border: 2px solid {TEXT};
    selection-background-color: {ACCENT}; selection-color: {GROUND}; }}
QHeaderView::section {{ background-color: {GROUND}; color: {TEXT}; border: 1px solid {TEXT}; padding: 4px; }}
QCheckBox::indicator, QRadioButton::indicator {{ width: {box}px; height: {box}px; border: 3px solid {TEXT};
    background-color: {GROUND}; }}
QRadioButton::indicator {{ border-radius: {box // 2 + 3}px; }}
QCheckBox::indicator:checked, QRadioButton::indicator:checked {{ background-color: {ACCENT}; }}
QGroupBox {{ border: 2px solid {TEXT}; margin-top: 1.3em; padding-top: 0.3em; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 8px; padding: 0 4px; }}
QTabBar::tab {{ background-color: {GROUND}; color: {TEXT}; border: 2px solid {TEXT}; padding: 4px 12px;
    font-size: {px}px; }}
QTabBar::tab:selected {{ background-color: {TEXT}; color: {GROUND}; }}
QToolTip {{ font-size: {px}px; color: {TIP_TEXT}; background-color: {TIP_GROUND}; border: 2px solid {TIP_TEXT}; }}
QLabel#whyBand {{ border-top: 3px solid {ACCENT}; padding: 6px 12px; }}
#quiz QLabel#hint {{ border: 3px dashed {ACCENT}; padding: 8px; background-color: {GROUND}; color: {TEXT}; }}
#quiz QFrame#feedback {{ background-color: {GROUND}; }}
#quiz QFrame#feedback[verdict="right"] {{ border: 4px solid {RIGHT}; }}
#quiz QFrame#feedback[verdict="partly"] {{ border: 4px dotted {PARTLY}; }}
#quiz QFrame#feedback[verdict="wrong"] {{ border: 4px dashed {WRONG}; }}
#quiz QFrame#feedback[verdict="hidden"] {{ border: 4px solid {TEXT}; }}
#quiz QFrame#feedback QLabel {{ color: {TEXT}; }}
#quiz QListWidget::item {{ color: {TEXT}; border-bottom: 1px solid {MUTED}; }}
#quiz QListWidget::item:selected {{ background-color: {ACCENT}; color: {GROUND}; border: 3px solid {TEXT}; }}
"""
