"""The quiz packs that ship with BPE Lab, read through importlib.resources (works from a wheel)."""

from __future__ import annotations

from importlib import resources

BUNDLED = "bpe_basics.json"


def bundled_text(name: str = BUNDLED) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def bundled_pack(name: str = BUNDLED):
    """The bundled pack as an ``engine.quiz.Pack``."""
    from engine.quiz.packs import pack_from_json  # the quiz code comes only when a pack is read

    return pack_from_json(bundled_text(name), f"bundled:{name}")
