"""A training run's history as JSON, for scripts and checks (``bpe-lab train --history``).

Each step lists the first of its tied pairs (``tied``, at most ``engine.algorithm.trainer.TIES_KEPT``, the winner first)
and how many pairs tied in all (``tie_count``): the full lists of a long run would dwarf the rest.
"""

from __future__ import annotations

import json
from typing import Any

from engine.lesson.history import History
from engine.algorithm.trainer import MergeStep, Trainer


def history_to_data(trainer: Trainer, steps: list[MergeStep]) -> dict[str, Any]:
    # the totals and sizes come from the history index, as the window's and the handout's do
    history = History(trainer.corpus, steps)
    return {
        "initial_tokens": history.total_tokens(0),
        "base_vocabulary": list(trainer.base),
        "stop_reason": trainer.stop_reason,
        "steps": [
            {
                "step": s.step,
                "pair": list(s.pair),
                "token": s.token,
                "count": s.count,
                "tied": [list(p) for p in s.tied],
                "tie_count": s.tie_count,
                "tokens_after": history.total_tokens(s.step),
                "vocab_size": history.vocab_size(s.step),
            }
            for s in steps
        ],
    }


def history_to_json(trainer: Trainer, steps: list[MergeStep]) -> str:
    return json.dumps(history_to_data(trainer, steps), ensure_ascii=False) + "\n"
