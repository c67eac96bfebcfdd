"""Agents only ever return legal actions (AGT-1), in every implemented variant, at every seat."""
from __future__ import annotations

import pytest

import bean_env
from bean_env.agents import make_agent
from agentcases import case_id, cases, positions
from helpers import play_agents

LINEUP = ("heuristic", "random", "mcts")
MCTS_KW = {"simulations": 3}


def _agent(name: str, seed: int):
    return make_agent(name, seed=seed, **(MCTS_KW if name == "mcts" else {}))


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_agt1_agents_return_legal_actions_at_random_positions(case):
    """AGT-1: at decision points reached by random play, each agent returns one of the legal actions."""
    variant, config = case
    for k, game in enumerate(positions(variant, config, seed=11, count=25)):
        legal = game.legal_actions()
        p = game.current_player
        for name in LINEUP:
            action = _agent(name, k).act(game.view(p), legal)
            assert action in legal, f"{name} returned {action} at {game.decision!r}; legal {legal}"


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_agt1_heuristic_and_random_play_whole_games_legally(case):
    """AGT-1: whole games between the heuristic and random agents; every action is legal and the game
    ends (or is truncated by its budget, AGT-4)."""
    variant, config = case
    game = bean_env.new_game(variant, seed=5, **config)
    n = game.num_players
    agents = [_agent(("heuristic", "random")[p % 2], p) for p in range(n)]
    steps = 0
    while not game.is_over and not game.is_truncated:
        p = game.current_player
        legal = game.legal_actions()
        action = agents[p].act(game.view(p), legal)
        assert action in legal, f"seat {p} returned {action} at {game.decision!r}"
        game.apply(action)
        steps += 1
        assert steps < 50_000
    assert game.is_over or game.is_truncated


@pytest.mark.parametrize("variant", ["bean_duel", "bean_solitaire", "al_cabohne"])
def test_agt1_mcts_plays_whole_games_legally(variant):
    """AGT-1: MCTS (tiny budget, with real play-outs) finishes whole games with legal actions only."""
    if variant not in bean_env.implemented():
        pytest.skip(f"{variant} not implemented")
    game = bean_env.new_game(variant, seed=2)
    agents = [make_agent("mcts", seed=p, simulations=2, rollout_steps=None) for p in range(game.num_players)]
    play_agents(game, agents)


def test_agt2_heuristic_builds_and_submits_whole_trade_offers():
    """AGT-2 / TRADE-2: in 4-player bohnanza the heuristic plans offers and emits them sub-decision by
    sub-decision: offers get submitted, answered, and some trades are executed."""
    game = bean_env.new_game("bohnanza", seed=3, num_players=4)
    agents = [make_agent("heuristic", seed=p) for p in range(4)]
    submitted = accepted = cancelled = 0
    while not game.is_over:
        p = game.current_player
        action = agents[p].act(game.view(p), game.legal_actions())
        submitted += action.kind == bean_env.Kind.SUBMIT
        accepted += action.kind == bean_env.Kind.ACCEPT
        cancelled += game.decision == "compose" and action.kind == bean_env.Kind.CANCEL
        game.apply(action)
    assert submitted >= 20
    assert accepted >= 3
    assert cancelled <= submitted // 4  # plans are completed, not abandoned


def test_mcts_rejects_bad_options():
    with pytest.raises(ValueError, match="rollout"):
        make_agent("mcts", rollout="greedy")
    with pytest.raises(ValueError, match="simulations"):
        make_agent("mcts", simulations=0)


def test_mcts_delegates_trade_offers_to_the_heuristic():
    """At the sub-decisions of a trade offer (AGT-2) the MCTS agent acts as the heuristic does; with
    ``delegate=False`` it searches them itself (and stays legal)."""
    from bean_env.agents.heuristic import family_for
    from bean_env.agents.heuristic.bohnanza import TRADE_DECISIONS
    assert family_for("bohnanza").delegated == TRADE_DECISIONS
    seen = 0
    for k, game in enumerate(positions("bohnanza", {"num_players": 4}, seed=31, count=40)):
        if game.decision not in TRADE_DECISIONS:
            continue
        seen += 1
        view, legal = game.view(game.current_player), game.legal_actions()
        searched = make_agent("mcts", seed=k, simulations=3, delegate=False).act(view, legal)
        assert searched in legal
        mcts = make_agent("mcts", seed=k, simulations=3)
        helper_seed = __import__("random").Random(k).getrandbits(32)
        assert mcts.act(view, legal) == make_agent("heuristic", seed=helper_seed).act(view, legal)
    assert seen >= 5
