"""AEC env behaviour: rewards, forced moves (AGT-3), illegal moves (AGT-5), options, determinism
(COM-12), rendering."""
from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

import bean_env
from bean_env import IllegalActionError
from bean_env.envs import make_env
from bean_env.envs.aec import BeanAECEnv


def play(env, seed: int, rng: random.Random, scramble: bool = False):
    """Random masked play through agent_iter/last/step; returns (last rewards per agent, obs trace)."""
    env.reset(seed=seed)
    final, trace = {}, []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        if scramble:  # the env must not depend on the global generators
            random.seed(rng.random())
            np.random.seed(rng.randrange(2**32))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return final, trace


@pytest.mark.parametrize("mode", ["win", "score", "margin"])
def test_rewards_are_paid_at_the_end_to_every_seat(mode):
    env = bean_env.bohnanza_v1.env(num_players=3, reward_mode=mode)
    final, _ = play(env, seed=4, rng=random.Random(4))
    game = env.unwrapped.game
    assert game.is_over and set(final) == {"player_0", "player_1", "player_2"}
    scores, winners = game.scores(), game.winners()
    got = [final[f"player_{p}"] for p in range(3)]
    if mode == "win":
        assert got == [1 / len(winners) if p in winners else -1.0 for p in range(3)]
    elif mode == "score":
        assert got == [float(x) for x in scores]
    else:
        assert got == [scores[p] - max(scores[q] for q in range(3) if q != p) for p in range(3)]


def test_shared_win_pays_one_over_k_com_11():
    """COM-11: k winners share the win: +1/k each, every other seat -1."""
    fake = SimpleNamespace(winners=lambda: [0, 2], num_players=4)
    assert BeanAECEnv.win_rewards(None, fake) == [0.5, -1.0, 0.5, -1.0]
    fake = SimpleNamespace(winners=lambda: [], num_players=2)
    assert BeanAECEnv.win_rewards(None, fake) == [-1.0, -1.0]


def test_no_reward_before_the_end():
    env = bean_env.bean_duel_v1.env()
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        obs, reward, term, trunc, _ = env.last()
        assert reward == 0 and not term and not trunc
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


def test_forced_decisions_look_like_chosen_ones_agt_3():
    """AGT-3: with auto_forced the engine history is the same as when every forced action is chosen
    by the agent, and every observation at the shared decision points is identical."""
    auto = bean_env.bohnanza_v1.raw_env(num_players=4, auto_forced=True)
    manual = bean_env.bohnanza_v1.raw_env(num_players=4, auto_forced=False)
    _, trace = play(auto, seed=8, rng=random.Random(8))
    history = auto.game.history
    manual.reset(seed=8)
    cat = manual.catalogue
    pending = list(trace)
    forced = 0
    for action in history:
        agent = manual.agent_selection
        obs = manual.observe(agent)
        if obs["action_mask"].sum() == 1:
            forced += 1
        else:
            want_agent, want_obs, want_mask = pending.pop(0)
            assert agent == want_agent
            assert obs["observation"].tobytes() == want_obs and obs["action_mask"].tobytes() == want_mask
        manual.step(cat.encode(action, manual.agent_name_mapping[agent]))
    assert not pending and forced > 0
    assert manual.game.history == history and manual.game.is_over


def test_auto_forced_off_gives_one_step_per_engine_decision_agt_1():
    env = bean_env.bean_duel_v1.env(auto_forced=False)
    steps = 0
    env.reset(seed=3)
    rng = random.Random(3)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    assert steps == len(env.unwrapped.game.history)


def test_illegal_action_terminates_with_penalty_agt_5():
    env = bean_env.bohnanza_v1.env(num_players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.unwrapped.game.to_json()
    env.step(bad)
    assert env.unwrapped.game.to_json() == before  # nothing applied
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0 and env.infos[agent]["illegal_action"]
    assert sum(env.rewards.values()) == -1.0


def test_illegal_action_raise_mode_changes_nothing_agt_5():
    env = bean_env.bohnanza_v1.env(num_players=3, illegal_action="raise")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.unwrapped.game.to_json()
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="outside the action space"):  # not in the space: always raises
        env.step(10**6)
    assert env.unwrapped.game.to_json() == before and not any(env.terminations.values())


@pytest.mark.parametrize("kwargs, key", [({"reward_mode": "coins"}, "reward_mode"),
                                         ({"auto_forced": 1}, "auto_forced"),
                                         ({"illegal_action": "ignore"}, "illegal_action"),
                                         ({"render_mode": "rgb"}, "render_mode"),
                                         ({"edition": "french"}, "edition"),
                                         ({"max_rounds": 2}, "max_rounds")])
def test_bad_options_name_the_key(kwargs, key):
    with pytest.raises(ValueError, match=key):
        bean_env.bohnanza_v1.env(**kwargs)


def test_engine_options_reach_the_game_trade_6():
    """TRADE-6: max_trade_rounds=0 means no trading decisions at all."""
    env = bean_env.bohnanza_v1.raw_env(num_players=3, max_trade_rounds=0, auto_forced=False)
    play(env, seed=5, rng=random.Random(5))
    assert env.game.config["max_trade_rounds"] == 0
    assert not any(a.kind in (9, 6, 7) for a in env.game.history)  # OFFER, PASS, END_TRADING


@pytest.mark.parametrize("maker", [lambda: bean_env.bohnanza_v1.env(edition="english", num_players=6),
                                   lambda: bean_env.bean_duel_v1.env()])
def test_same_seed_same_episode_despite_global_rngs_com_12(maker):
    a = play(maker(), seed=21, rng=random.Random(0), scramble=True)
    b = play(maker(), seed=21, rng=random.Random(0), scramble=True)
    assert a == b
    c = play(maker(), seed=22, rng=random.Random(0))
    assert c[1] != a[1]


def test_reset_without_seed_continues_the_seeded_stream():
    """reset(seed=s) plays the engine game of seed s (replayable with bean_env.replay); unseeded resets
    continue a stream drawn from s."""
    env = bean_env.bean_duel_v1.raw_env()
    env.reset(seed=5)
    first = env.game.seed
    assert first == 5 and env.game.to_json() == bean_env.new_game("bean_duel", seed=5).to_json()
    env.reset()
    second = env.game.seed
    env.reset(seed=5)
    assert env.game.seed == first
    env.reset()
    assert env.game.seed == second != first


def test_render_modes(capsys):
    env = bean_env.bean_duel_v1.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "decision" in text and "P0" in text
    game = env.unwrapped.game
    first = game.legal_actions()[0]
    assert f"{env.unwrapped.catalogue.encode(first, game.current_player)}={first}" in text
    human = bean_env.bean_duel_v1.env(render_mode="human")
    human.reset(seed=1)
    mask = human.observe(human.agent_selection)["action_mask"]
    human.step(int(np.flatnonzero(mask)[0]))
    assert "P1" in capsys.readouterr().out


def test_make_env_by_id_and_unwrapped_game():
    env = make_env("bean_env/bohnanza-v1", num_players=5)
    env.reset(seed=0)
    assert env.unwrapped.game.num_players == 5 and env.possible_agents[-1] == "player_4"
    with pytest.raises(ValueError, match="allowed"):
        make_env("bean_env/chess-v1")
