import pytest

from app.session import Session
from engine.lesson.lesson import Lesson
from widgets.charts import ChartsView

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
PROSE = (
    "The cat sat on the mat. The other cat sat on the hat, and then the cats sat together on the mat "
    "that the other cat had sat on before. Nobody knew whose hat it was, nor whose mat, nor whose cat."
)
HELD_OUT = "The lowest hat sat on the newest mat; whose cats were they?"


@pytest.fixture
def classic_session(qtbot):
    return Session(Lesson(CLASSIC, word_counts=True, held_out="lowest newer wider lows").train())


@pytest.fixture
def prose_session(qtbot):
    return Session(Lesson(PROSE, held_out=HELD_OUT).train())


@pytest.fixture
def make_view(qtbot):
    def make(session):
        view = ChartsView(session)
        qtbot.addWidget(view)
        view.resize(1300, 650)
        view.show()
        qtbot.waitExposed(view)
        return view

    return make
