"""The mcts agent is reproducible: a fixed seed plays identically, and the speed work of issue 15 (bare-state
simulations, per-deal caches, the view's sampling plan) changed no choice.

``REFERENCE`` was recorded with the agent as it was before that work (commit 3106a0b's ``agents/mcts.py``):
per position and option set, the chosen action and the agent's next ``getrandbits(32)`` after the search,
a fingerprint of every random draw the search made. A deliberate change of the search's behaviour must
re-record it (and say why in its commit).
"""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.agents.heuristic import family_for

OPTIONS = [{"simulations": 30}, {"simulations": 12, "rollout_steps": None},
           {"simulations": 8, "rollout": "heuristic", "rollout_steps": 3},
           {"simulations": 10, "determinisations": 4}]

REFERENCE = {
    "bean_duel": [("discard nothing", 3449629565), ("discard nothing", 3402078573),
                  ("discard hand card 1", 3741058122), ("discard hand card 2", 2045921456),
                  ("plant green on field 1", 3824483491), ("plant green on field 1", 3558993842),
                  ("harvest field 2", 2962609816), ("discard green", 955570402)],
    "bohnanza": [("harvest field 2", 4265854110), ("harvest field 1", 3440046307),
                 ("harvest field 2", 2337222593), ("harvest field 1", 2744776746),
                 ("plant red on field 2", 4288289664), ("plant red on field 2", 3326189930),
                 ("plant red on field 2", 2962609816), ("plant red on field 1", 2505043297)],
    "hostile_takeover": [("attack player 0 field 1 with field 1", 1294704107), ("pass", 3864081176),
                         ("pass", 3741058122), ("attack player 2 field 1 with field 1", 2744776746),
                         ("merge field 1 onto field 2", 3495323822), ("merge field 1 onto field 2", 2474204011),
                         ("harvest field 2", 3067782208), ("merge field 1 onto field 2", 567501460)],
    "al_cabohne": [("place runner stack on field 1", 1924014660), ("place chili stack on field 1", 2595938792),
                   ("place chili stack on field 1", 3694720281), ("place runner stack on field 1", 2323465141),
                   ("plant field 2", 3824483491), ("harvest field 1", 2365438327),
                   ("stop planting", 2962609816), ("stop planting", 955570402)],
}
CONFIGS = {"bean_duel": {}, "bohnanza": {"num_players": 4}, "hostile_takeover": {"num_players": 4},
           "al_cabohne": {}}


def searched_positions(variant: str, config: dict, seed: int, count: int, every: int = 5) -> list:
    """Every ``every``-th decision point of seeded random play where the agent searches (more than one
    legal action, not delegated to the heuristic), as game copies."""
    delegated = family_for(variant).delegated
    game = new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    out, k = [], 0
    while not game.is_over and len(out) < count:
        legal = game.legal_actions()
        if len(legal) > 1 and game.decision not in delegated:
            k += 1
            if k % every == 0:
                out.append(game.clone())
        game.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("variant", sorted(REFERENCE))
def test_mcts_choices_match_the_recorded_reference(variant):
    """Same positions, seeds and options give the recorded choice and the same random draws (AGT-1: the
    choice is legal)."""
    got = []
    for i, game in enumerate(searched_positions(variant, CONFIGS[variant], 11, 2)):
        for j, options in enumerate(OPTIONS):
            agent = make_agent("mcts", seed=100 * i + j, **options)
            legal = game.legal_actions()
            action = agent.act(game.view(game.current_player), legal)
            assert action in legal
            got.append((str(action), agent.rng.getrandbits(32)))
    assert got == REFERENCE[variant]


def test_mcts_with_a_fixed_seed_plays_a_game_identically_twice():
    """Determinism: two runs of mcts seats (fixed seeds, numpy integer seed included) give the same game."""
    import numpy as np

    def play() -> list:
        game = new_game("bean_duel", seed=5)
        agents = [make_agent("mcts", seed=np.int64(7), simulations=6),
                  make_agent("mcts", seed=8, simulations=6, determinisations=2)]
        while not game.is_over:
            p = game.current_player
            game.apply(agents[p].act(game.view(p), game.legal_actions()))
        return [str(a) for a in game.history]

    first = play()
    assert first == play()
    assert len(first) > 50


def test_a_view_samples_the_same_deals_as_a_fresh_view():
    """INFO-3: the view's sampling plan (unseen pool, public holdings, unknown places) is computed once
    and not changed by sampling: repeated samples equal those of a fresh view of the same position."""
    game = searched_positions("bohnanza", {"num_players": 4}, 3, 3)[-1]
    p = game.current_player
    view = game.view(p)
    for seed in (1, 2, 1, 3):
        again = view.sample_game(seed)
        fresh = game.view(p).sample_game(seed)
        assert again.state.__dict__ == fresh.state.__dict__
        assert again.history == fresh.history
    assert view.sample_game(1).state.__dict__ != view.sample_game(2).state.__dict__
