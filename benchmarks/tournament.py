"""Strategy tournaments between agents, and the strength ladder of docs/results.md.

    python benchmarks/tournament.py bohnanza heuristic random random random -o num_players=4 --games 100
    python benchmarks/tournament.py bean_duel heuristic mcts --games 40 --backend ray
    python benchmarks/tournament.py ladder            # regenerate docs/results.md (make results)

The first form is the same as ``bean-env tournament`` (see ``agents/tournament.py`` for the options);
``ladder`` runs ``agents/ladder.py``.
"""
from __future__ import annotations

import sys

from bean_env.agents import ladder, tournament

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["ladder"]:
        sys.exit(ladder.main(argv[1:]))
    sys.exit(tournament.main(argv))
