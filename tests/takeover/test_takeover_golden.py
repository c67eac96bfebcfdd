"""Golden traces of hostile_takeover: seeded games replayed action by action must give the recorded legal
sets and final results (catches any unintended rules change). Regenerate after an intended change with
``python tests/takeover/test_takeover_golden.py --regen`` and review the diff."""
from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys

import pytest

from bean_env import new_game

DATA = pathlib.Path(__file__).resolve().parent / "data" / "golden.json"
CASES = [(n, seed) for n in (2, 3, 4, 5) for seed in (1, 2)]


def _trace(n: int, seed: int) -> dict:
    g = new_game("hostile_takeover", seed=seed, num_players=n, max_actions_per_turn=8)
    rng = random.Random(seed)
    legal_hash = hashlib.sha256()
    while not g.is_over:
        legal = g.legal_actions()
        legal_hash.update("|".join(map(str, legal)).encode())
        g.apply(legal[rng.randrange(len(legal))])
    actions = "|".join(str(a) for a in g.history).encode()
    return {"players": n, "seed": seed, "actions": len(g.history),
            "actions_sha": hashlib.sha256(actions).hexdigest()[:16], "scores": g.scores(),
            "winners": g.winners(), "truncated": g.is_truncated, "legal_sets": legal_hash.hexdigest()[:16]}


@pytest.mark.parametrize("n, seed", CASES)
def test_golden_trace(n, seed):
    """HT-1..19, TXT-1..18: a recorded seeded game gives the same legal sets, actions and results."""
    golden = {(t["players"], t["seed"]): t for t in json.loads(DATA.read_text())}[(n, seed)]
    assert _trace(n, seed) == golden


if __name__ == "__main__" and "--regen" in sys.argv:
    DATA.write_text(json.dumps([_trace(n, s) for n, s in CASES], indent=1) + "\n")
    print(f"wrote {DATA}")
