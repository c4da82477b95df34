"""The build that pyproject.toml describes, with one addition: the user guide.

The guide's pages are written in ``docs/`` (where the README links to them); a wheel carries them
as ``resources/guide/``, where ``app.help_pages`` reads them through importlib.resources. Copying
them at build time keeps one text of each page; an editable install reads ``docs/`` itself.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

GUIDE = Path(__file__).resolve().parent / "docs"


class BuildWithGuide(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        pages = sorted(GUIDE.glob("*.md"))
        if not pages:
            raise SystemExit(f"the user guide is missing: no pages in {GUIDE}")
        target = Path(self.build_lib) / "resources" / "guide"
        self.mkpath(str(target))
        for page in pages:
            self.copy_file(str(page), str(target / page.name))


setup(cmdclass={"build_py": BuildWithGuide})
