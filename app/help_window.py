"""Help > Quick start and Help > User guide: the guide's pages in a window of their own, offline.

One window per main window shows one page at a time (Markdown, through QTextBrowser), with the
contents, back and forward. A link to another page opens it there and a link to a heading scrolls
to it, as on GitHub (``app.help_pages`` resolves both); a link to the web goes to the browser.

In classroom mode the window follows the mode's look: white on black, links in yellow, classroom
type (at least 24 pixels, with the mode's live type scale), and most of the screen, so a page can be
read from the back of a room; leaving the mode gives it its own look and size back.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, QUrl
from PySide6.QtGui import (
    QColor, QDesktopServices, QPalette, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextFormat,
)
from PySide6.QtWidgets import QDialog, QHBoxLayout, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from app import help_pages

# classroom type: the mode's own minimum, grown with its live scale
CLASSROOM_PX = 28
CLASSROOM_MIN_PX = 24
CLASSROOM_SHEET = ("QTextBrowser#guide {{ background: #000000; color: #FFFFFF; font-size: {px}px; border: none; }}"
                   "QDialog#guideWindow, QDialog#guideWindow QPushButton {{ background: #000000; color: #FFFFFF;"
                   " font-size: {px}px; }}"
                   "QDialog#guideWindow QPushButton {{ border: 2px solid #FFFFFF; padding: 4px 14px; }}"
                   "QDialog#guideWindow QPushButton:disabled {{ color: #BBBBBB; border-color: #BBBBBB; }}")
CLASSROOM_LINK = QColor("#FFFF00")
CLASSROOM_CODE = QColor("#1A1A1A")


class GuideWindow(QDialog):
    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("guideWindow")
        self.browser = QTextBrowser()
        self.browser.setObjectName("guide")
        self.browser.setOpenLinks(False)  # every link goes through _follow: pages, headings, the web
        self.browser.anchorClicked.connect(self._follow)
        folder = help_pages.guide_folder()
        self.browser.setSearchPaths([str(folder)])  # a page's pictures, by names relative to it
        self.contents_button = QPushButton("Contents")
        self.back_button = QPushButton("Back")
        self.forward_button = QPushButton("Forward")
        self.contents_button.clicked.connect(lambda: self.show_page(help_pages.INDEX))
        self.back_button.clicked.connect(self.back)
        self.forward_button.clicked.connect(self.forward)
        buttons = QHBoxLayout()
        for button in (self.contents_button, self.back_button, self.forward_button):
            button.setAutoDefault(False)  # Return in the page must not press a button
            buttons.addWidget(button)
        buttons.addStretch(1)
        close = QPushButton("Close")
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.browser, 1)
        self.page = ""
        self.fragment = ""
        self._back: list[tuple[str, str]] = []
        self._forward: list[tuple[str, str]] = []
        room = window.screen().availableGeometry()
        # a page's width for reading, within a small screen (1024x768) with room to spare
        self._desktop_size = QSize(min(860, room.width() * 9 // 10), min(720, room.height() * 9 // 10))
        self.resize(self._desktop_size)
        self.classroom_px: int | None = None  # the type size while classroom mode is on
        classroom = getattr(window, "classroom", None)
        if classroom is not None:
            self._classroom = classroom
            classroom.entered.connect(self._follow_classroom)
            classroom.left.connect(self._follow_classroom)
            classroom.scale_changed.connect(lambda _scale: self._follow_classroom())
            self._follow_classroom()

    # -- pages ---------------------------------------------------------------------------------

    def show_page(self, page: str, fragment: str = "", remember: bool = True) -> None:
        """Show ``page`` of the guide, at the heading whose anchor is ``fragment`` (or at its top)."""
        text = help_pages.page_text(page)
        if remember and self.page:
            self._back.append((self.page, self.fragment))
            self._forward.clear()
        if page != self.page or not remember:
            self.browser.setMarkdown(text)
            self._dress_document()
        self.page, self.fragment = page, fragment
        self.setWindowTitle(f"{help_pages.title_of(text)} — BPE Lab user guide")
        self._scroll_to(fragment)
        self.back_button.setEnabled(bool(self._back))
        self.forward_button.setEnabled(bool(self._forward))

    def back(self) -> None:
        if self._back:
            self._forward.append((self.page, self.fragment))
            self._go(*self._back.pop())

    def forward(self) -> None:
        if self._forward:
            self._back.append((self.page, self.fragment))
            self._go(*self._forward.pop())

    def _go(self, page: str, fragment: str) -> None:
        back, forward = self._back, self._forward
        self._back, self._forward = [], []
        self.show_page(page, fragment, remember=False)
        self._back, self._forward = back, forward
        self.back_button.setEnabled(bool(back))
        self.forward_button.setEnabled(bool(forward))

    def _follow(self, url: QUrl) -> None:
        target = url.toString()
        where = help_pages.resolve(self.page, target)
        if where is not None:
            self.show_page(*where)
        elif help_pages.is_external(target):
            QDesktopServices.openUrl(url)

    def heading_blocks(self) -> dict[str, int]:
        """Each heading of the page on show by its anchor, with its block number."""
        found: dict[str, int] = {}
        block = self.browser.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0:
                found.setdefault(help_pages.slug(block.text()), block.blockNumber())
            block = block.next()
        return found

    def _scroll_to(self, fragment: str) -> None:
        bar = self.browser.verticalScrollBar()
        number = self.heading_blocks().get(fragment) if fragment else None
        if number is None:
            bar.setValue(0)
            return
        document = self.browser.document()
        top = document.documentLayout().blockBoundingRect(document.findBlockByNumber(number)).top()
        bar.setValue(int(top))

    # -- look ----------------------------------------------------------------------------------

    def _dress_document(self) -> None:
        """Room above each heading, code on a ground of its own and in the size of the text around it
        (Markdown gives code the system's fixed font at the system's size), and links in a colour that
        reads on the ground of the look."""
        document = self.browser.document()
        classroom = self.classroom_px is not None
        link = CLASSROOM_LINK if classroom else self.browser.palette().color(QPalette.ColorRole.Link)
        code_ground = CLASSROOM_CODE if classroom else self.browser.palette().color(QPalette.ColorRole.AlternateBase)
        self.browser.ensurePolished()  # the window's style sheet sets the type size
        size = self.browser.font()
        px = size.pixelSize() if size.pixelSize() > 0 else round(size.pointSizeF() * self.logicalDpiY() / 72)
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        block = document.begin()
        while block.isValid():
            look = QTextBlockFormat()
            if block.blockFormat().headingLevel() > 0:
                look.setTopMargin(px if block.blockNumber() else 0)
                look.setBottomMargin(px * 0.4)
            elif not _is_code(block.blockFormat()) and QTextCursor(block).currentTable() is None:
                # paragraphs and list items apart by most of a line at any type size
                look.setTopMargin(px * 0.35)
                look.setBottomMargin(px * 0.35)
            if _is_code(block.blockFormat()):
                look.setBackground(code_ground)
            cursor.setPosition(block.position())
            cursor.mergeBlockFormat(look)
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                chars = fragment.charFormat()
                dress = QTextCharFormat()
                if chars.isAnchor():
                    dress.setForeground(link)
                    dress.setFontUnderline(True)
                if chars.fontFixedPitch() or "monospace" in (chars.fontFamilies() or []):
                    if size.pixelSize() > 0:
                        font = chars.font()
                        font.setPixelSize(size.pixelSize())
                        dress.setFont(font, QTextCharFormat.FontPropertiesInheritanceBehavior.FontPropertiesSpecifiedOnly)
                    else:
                        dress.setFontPointSize(size.pointSizeF())
                if dress.properties():
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(dress)
                it += 1
            block = block.next()
        cursor.endEditBlock()

    def _follow_classroom(self) -> None:
        classroom = self._classroom
        before = self.classroom_px
        if classroom.active:
            self.classroom_px = max(CLASSROOM_MIN_PX, round(CLASSROOM_PX * classroom.scale))
            if before is None:
                self._desktop_size = self.size()
            self.setStyleSheet(CLASSROOM_SHEET.format(px=self.classroom_px))
            screen = (self.parentWidget() or self).screen().availableGeometry()
            self.setGeometry(screen.adjusted(screen.width() // 20, screen.height() // 20,
                                             -(screen.width() // 20), -(screen.height() // 20)))
        else:
            self.classroom_px = None
            self.setStyleSheet("")
            if before is not None:
                self.resize(self._desktop_size)
        if self.page and before != self.classroom_px:
            self._redress()

    def _redress(self) -> None:
        # the page again, so its links take the colour of the look now on
        value = self.browser.verticalScrollBar().value()
        self.browser.setMarkdown(help_pages.page_text(self.page))
        self._dress_document()
        self.browser.verticalScrollBar().setValue(value)


def _is_code(block: QTextBlockFormat) -> bool:
    """Whether a block is a code block of the page, fenced or indented."""
    return any(block.hasProperty(p) for p in (QTextFormat.Property.BlockCodeFence, QTextFormat.Property.BlockCodeLanguage))


def show_guide(window: QWidget, page: str = help_pages.INDEX) -> GuideWindow:
    """Open the guide at ``page``, in the window's guide window if it has one already."""
    guide = window.findChild(GuideWindow)
    if guide is None:
        guide = GuideWindow(window)
    guide.show_page(page)
    guide.show()
    guide.raise_()
    guide.activateWindow()
    return guide
