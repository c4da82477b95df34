"""Quizzes: question kinds, grading, pack files, and questions generated from a lesson."""

from engine.quiz.grading import Result, grade
from engine.quiz.load import load_pack
from engine.quiz.packs import FORMAT, VERSION, pack_from_data, pack_from_json, pack_to_data
from engine.quiz.questions import (
    KINDS,
    ChooseQuestion,
    FillQuestion,
    Misconception,
    NumberQuestion,
    Option,
    OrderQuestion,
    Pack,
    Question,
    Reading,
    WorkedExample,
    WrongAnswer,
)

__all__ = [
    "FORMAT", "KINDS", "VERSION", "ChooseQuestion", "FillQuestion", "Misconception", "NumberQuestion",
    "Option", "OrderQuestion", "Pack", "Question", "Reading", "Result", "WorkedExample", "WrongAnswer", "grade",
    "load_pack", "pack_from_data", "pack_from_json", "pack_to_data",
]
