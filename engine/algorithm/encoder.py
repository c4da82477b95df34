"""What "something that encodes" means: the interface every tokenizer BPE Lab shows offers.

Both of the engine's models satisfy it, the merge list (``Tokenizer``) and tiktoken's ranks
(``RankTokenizer``); code that only encodes, decodes and looks tokens up accepts an ``Encoder``
and works with either. Code that needs the merges themselves (cutting at a step, replaying the
training) takes a ``Tokenizer``.
"""

from __future__ import annotations

from typing import Iterable, Protocol, runtime_checkable

from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Encoding, TraceStep


@runtime_checkable
class Encoder(Protocol):
    """Text to ids and back, the words it splits into, and how each word's merges went."""

    settings: Settings

    # read-only: a tokenizer may work these out from its tables
    @property
    def special_ids(self) -> dict[str, int]: ...

    @property
    def unknown_id(self) -> int | None:
        """The id that stands for a character never seen in training, None where every text encodes (bytes)."""

    # allow_special: text that spells a special token becomes it (by default it is ordinary text)
    def encode(self, text: str, allow_special: bool = False) -> Encoding: ...

    def encode_ids(self, text: str, allow_special: bool = False) -> list[int]: ...

    def pieces(self, text: str, allow_special: bool = False) -> list[tuple[str, bool]]: ...

    def pre_tokenize(self, text: str, allow_special: bool = False) -> list[str]: ...

    def encode_steps(self, word: str) -> tuple[tuple[str, ...], list[TraceStep]]: ...

    def decode(self, ids: Iterable[int]) -> str: ...

    def decode_bytes(self, ids: Iterable[int]) -> bytes: ...

    def id_to_token(self, token_id: int) -> str: ...

    def token_to_id(self, token: str) -> int | None: ...

    def get_vocab_size(self) -> int: ...
