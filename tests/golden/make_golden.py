#!/usr/bin/env python3
"""Write the golden traces of the rules engine: a few seeded random games per variant and player count.

    python tests/golden/make_golden.py            # rewrite tests/golden/*.jsonl
    python tests/golden/make_golden.py --check    # exit 1 if the engine no longer matches them

``tests/engine/test_engine_golden.py`` replays the files and fails on any difference, so every rules
change shows up as a diff of these files. After an intended rules change, rerun this script and commit
the new files together with the change (say in the commit which rule changed and why).

Format, one JSON object per line, per game in order:
- ``{"game": i, "variant", "config", "seed", "policy_seed", "actions": [[kind, a, b], ...]}``: the record;
  actions are the choices of a uniformly random player seeded with ``policy_seed``.
- ``{"game": i, "step": k, "decision", "player", "legal": [sorted str() of the legal actions],
  "action": str, "digest"}`` for the first ``DETAILED_STEPS`` steps: ``digest`` is the state digest
  (``tests/helpers.py: state_digest``) after the action.
- ``{"game": i, "step": k, "decision", "player", "legal_digest", "digest"}`` every ``CHECKPOINT_EVERY``
  steps after that (a hash of the legal list instead of the list, to keep the files small).
- ``{"game": i, "final": true, "steps", "digest", "scores", "winners", "runouts"}``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # tests/ for helpers
sys.path.insert(0, str(HERE.parent.parent))   # the repository, for bean_env

from helpers import legal_strings, state_digest  # noqa: E402

from bean_env import new_game  # noqa: E402

DETAILED_STEPS = 30
CHECKPOINT_EVERY = 50

# file name -> games (variant, config, seed); the policy seed is the game seed + 1000
GAMES: dict[str, list[tuple[str, dict, int]]] = {
    "bohnanza.jsonl": [
        ("bohnanza", {"edition": "german", "num_players": 3, "max_trade_rounds": 4}, 2),
        ("bohnanza", {"edition": "german", "num_players": 5, "max_trade_rounds": 0}, 3),
        ("bohnanza", {"edition": "english", "num_players": 3, "max_trade_rounds": 2}, 4),
        ("bohnanza", {"edition": "english", "num_players": 4, "max_trade_rounds": 1,
                      "allow_duplicate_fields": False}, 5),
        ("bohnanza", {"edition": "english", "num_players": 6, "max_trade_rounds": 1}, 6),
        ("bohnanza", {"edition": "english", "num_players": 7, "max_trade_rounds": 0}, 7),
    ],
    "bean_duel.jsonl": [
        ("bean_duel", {}, 1),
        ("bean_duel", {"allow_duplicate_fields": False}, 2),
    ],
}


def legal_digest(game) -> str:
    return hashlib.sha256("|".join(legal_strings(game)).encode()).hexdigest()[:12]


def trace(index: int, variant: str, config: dict, seed: int) -> list[dict]:
    """The golden lines of one game."""
    policy_seed = seed + 1000
    rng = random.Random(policy_seed)
    game = new_game(variant, seed=seed, **config)
    lines: list[dict] = []
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        before = {"decision": game.decision, "player": game.current_player}
        if step < DETAILED_STEPS:
            before["legal"] = legal_strings(game)
        elif step % CHECKPOINT_EVERY == 0:
            before["legal_digest"] = legal_digest(game)
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        if step < DETAILED_STEPS:
            lines.append({"game": index, "step": step, **before, "action": str(action),
                          "digest": state_digest(game)})
        elif step % CHECKPOINT_EVERY == 0:
            lines.append({"game": index, "step": step, **before, "digest": state_digest(game)})
        step += 1
    header = {"game": index, "variant": variant, "config": config, "seed": seed, "policy_seed": policy_seed,
              "actions": [a.to_json() for a in game.history]}
    final = {"game": index, "final": True, "steps": step, "digest": state_digest(game),
             "scores": game.scores(), "winners": game.winners(), "runouts": game.state.runouts}
    return [header, *lines, final]


def build(name: str) -> str:
    out = []
    for i, (variant, config, seed) in enumerate(GAMES[name]):
        out.extend(json.dumps(line, separators=(",", ":")) for line in trace(i, variant, config, seed))
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args()
    status = 0
    for name in GAMES:
        path = HERE / name
        text = build(name)
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} differs from the engine")
                status = 1
        else:
            path.write_text(text)
            print(f"wrote {path} ({len(text)} bytes)")
    return status


if __name__ == "__main__":
    sys.exit(main())
