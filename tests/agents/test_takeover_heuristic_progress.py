"""All-heuristic `hostile_takeover` tables finish with a result (HT-17's max_turns is a safety net,
not the normal end): a heuristic whose hand fits no field clears a field rather than stalling."""
from __future__ import annotations

import pytest

import bean_env
from bean_env.agents import make_agent
from helpers import play_agents


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_all_heuristic_games_reach_the_final_harvest(num_players):
    for seed in range(2):
        game = bean_env.new_game("hostile_takeover", seed=seed, num_players=num_players)
        agents = [make_agent("heuristic", seed=seed * 10 + p) for p in range(num_players)]
        play_agents(game, agents)
        assert game.is_over and not game.is_truncated, f"seed {seed}: stalled at turn {game.state.turn}"
        assert game.winners()
