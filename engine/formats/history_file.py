"""A training run's history as JSON, for scripts and checks (``bpe-lab train --history``)."""

from __future__ import annotations

import json

from engine.trainer import MergeStep, Trainer


def history_to_data(trainer: Trainer, steps: list[MergeStep]) -> dict:
    return {
        "initial_tokens": trainer.initial_tokens(),
        "base_vocabulary": list(trainer.base),
        "stop_reason": trainer.stop_reason,
        "steps": [
            {
                "step": s.step,
                "pair": list(s.pair),
                "token": s.token,
                "count": s.count,
                "tied": [list(p) for p in s.tied],
                "tokens_after": s.tokens_after,
                "vocab_size": s.vocab_size,
            }
            for s in steps
        ],
    }


def history_to_json(trainer: Trainer, steps: list[MergeStep]) -> str:
    return json.dumps(history_to_data(trainer, steps), ensure_ascii=False) + "\n"
