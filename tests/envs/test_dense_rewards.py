"""``reward_mode="dense"``: every seat gets its coins as they are earned, so the rewards of an episode
sum to the final score in coins (hostile takeover's engine scores in hundredths, HT-14; bean solitaire's
score counts the mafia's coins twice, MAF-13), plus ``win_bonus`` x the ``"win"`` reward at the end."""
from __future__ import annotations

import random

import numpy as np
import pytest
from envcases import CASES, case_id, env_module

from bean_env.envs.single_agent import SingleAgentEnv

# bounded games: the budget truncates long takeover games; dense rewards are paid up to there
SHORT = {"hostile_takeover": {"max_turns": 30}}


def play(env, seed: int) -> tuple[dict[str, float], int]:
    """Random masked play to the end; returns each agent's summed reward and the number of nonzero
    rewards seen before the last step."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    total = {a: 0.0 for a in env.possible_agents}
    early = 0
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        early += reward != 0
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return total, early


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_dense_rewards_sum_to_the_final_score_in_every_variant(case):
    variant, cfg = case
    env = env_module(variant).env(reward_mode="dense", **cfg, **SHORT.get(variant, {}))
    total, _ = play(env, seed=11)
    raw = env.unwrapped
    final = [x / raw.score_scale for x in raw.game.scores()]
    assert [total[a] for a in raw.possible_agents] == pytest.approx(final, abs=1e-9)


@pytest.mark.parametrize("variant", ["bean_duel", "bean_solitaire"])
def test_dense_rewards_are_paid_during_the_game(variant):
    """Coins reach the seats when a field is sold, not only at the end (a random game that sells
    nothing before the end would pay nothing early: these seeds do sell)."""
    env = env_module(variant).env(reward_mode="dense")
    _, early = play(env, seed=11)
    assert early > 0


def test_dense_takeover_rewards_are_coins_not_hundredths_ht_14():
    env = env_module("hostile_takeover").env(reward_mode="dense", num_players=3, max_turns=30)
    total, _ = play(env, seed=2)
    scores = env.unwrapped.game.scores()
    assert [total[a] for a in env.possible_agents] == pytest.approx([x / 100 for x in scores])


def test_win_bonus_is_added_at_the_end_com_11():
    """COM-11: the bonus follows the "win" reward (+bonus/k to each of k winners, -bonus to the others)."""
    plain = env_module("bohnanza").env(reward_mode="dense", num_players=3)
    bonus = env_module("bohnanza").env(reward_mode="dense", num_players=3, win_bonus=5.0)
    total_plain, _ = play(plain, seed=4)
    total_bonus, _ = play(bonus, seed=4)
    win = plain.unwrapped.win_rewards(plain.unwrapped.game)
    for p, a in enumerate(plain.possible_agents):
        assert total_bonus[a] == pytest.approx(total_plain[a] + 5.0 * win[p])


@pytest.mark.parametrize("variant", ["bean_duel", "bean_solitaire", "al_cabohne"])
def test_single_agent_dense_rewards_sum_to_the_learner_score(variant):
    env = SingleAgentEnv(variant, reward_mode="dense", learner_seat=0)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        done = terminated or truncated
    assert total == pytest.approx(env.game.scores()[0])


@pytest.mark.parametrize("kwargs", [{"win_bonus": -1.0, "reward_mode": "dense"},
                                    {"win_bonus": float("nan"), "reward_mode": "dense"},
                                    {"win_bonus": "big", "reward_mode": "dense"},
                                    {"win_bonus": 1.0, "reward_mode": "win"},
                                    {"reward_mode": "coins"}], ids=repr)
def test_bad_reward_options_name_the_key(kwargs):
    key = "win_bonus" if "win_bonus" in kwargs else "reward_mode"
    with pytest.raises(ValueError, match=key):
        env_module("bean_duel").env(**kwargs)
    with pytest.raises(ValueError, match=key):
        SingleAgentEnv("bean_duel", **kwargs)
