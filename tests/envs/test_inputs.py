"""What ``step()`` and ``reset()`` accept (issue: strict inputs). Only integers of the action space are
actions; anything else raises before the env changes. Only an in-space masked action keeps the
"terminate with -1" convention (AGT-5, ``illegal_action="terminate"``). numpy integers work as actions
and seeds. The single-agent env refuses to step after its episode ended."""
from __future__ import annotations

import math

import numpy as np
import pytest

import bean_env
from bean_env.engine.actions import Action, Kind
from bean_env.envs.single_agent import SingleAgentEnv

NOT_ACTIONS = [("plant field 1", TypeError), (Action(Kind.PLANT, 0), TypeError), (None, TypeError),
               (-1, ValueError), (10000, ValueError), (1.5, TypeError), (1.0, TypeError),
               (math.inf, TypeError), (math.nan, TypeError), (True, TypeError), (np.bool_(False), TypeError),
               (np.float64(2.0), TypeError), (np.array([1, 2]), TypeError), ([0], TypeError)]


def snapshot(env) -> tuple:
    raw = env.unwrapped
    return (raw.game.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw._cumulative_rewards),
            dict(raw.terminations), dict(raw.truncations))


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
@pytest.mark.parametrize("action, error", NOT_ACTIONS, ids=repr)
def test_aec_step_refuses_what_is_not_an_action_of_the_space_agt_5(action, error, illegal_action):
    """AGT-5: a value outside the action space is a programming error, not an illegal move: it raises
    (naming the value), in either ``illegal_action`` mode, and changes nothing."""
    env = bean_env.bohnanza_v1.env(num_players=3, illegal_action=illegal_action)
    env.reset(seed=3)
    before = snapshot(env)
    with pytest.raises(error) as caught:
        env.step(action)
    assert str(action)[:6] in str(caught.value) or repr(action)[:6] in str(caught.value)
    assert snapshot(env) == before


def test_aec_masked_action_in_the_space_still_terminates_with_minus_one_agt_5():
    env = bean_env.bean_duel_v1.env()
    env.reset(seed=2)
    agent = env.agent_selection
    masked = np.int64(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(masked)
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0
    assert env.infos[agent]["illegal_action"]


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_aec_step_without_observing_checks_legality_alike_agt_5(illegal_action):
    """A driver may step without observing first (self-play opponents that pick from the engine's legal
    list): legal indices play exactly as after an observation (the legal list's own actions go into the
    history), and a masked index is refused the same way: ``IllegalActionError`` changing nothing, or the
    -1 termination."""
    watched = bean_env.bohnanza_v1.env(num_players=4, illegal_action=illegal_action)
    blind = bean_env.bohnanza_v1.env(num_players=4, illegal_action=illegal_action)
    watched.reset(seed=7)
    blind.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(150):
        if watched.terminations[watched.agent_selection]:
            break
        i = int(rng.choice(np.flatnonzero(watched.observe(watched.agent_selection)["action_mask"])))
        game = blind.unwrapped.game
        engine_legal, at = game.legal_actions(), len(game.history)
        watched.step(i)
        blind.step(i)  # never observed
        assert any(game.history[at] is a for a in engine_legal)  # the legal list's own action, not a copy
    played = blind.unwrapped.game.history
    assert played == watched.unwrapped.game.history and len(played) > 100
    agent = blind.agent_selection
    mask = watched.unwrapped.legal_indices()  # the same decision, listed in the other env only
    masked = next(i for i in range(blind.unwrapped.catalogue.size) if i not in mask)
    before = snapshot(blind)
    if illegal_action == "raise":
        with pytest.raises(bean_env.IllegalActionError):
            blind.step(masked)
        assert snapshot(blind) == before
    else:
        blind.step(masked)
        assert all(blind.terminations.values()) and blind.rewards[agent] == -1.0


@pytest.mark.parametrize("make", [np.int64, np.int32, np.uint16, np.array, int], ids=lambda f: f.__name__)
def test_aec_numpy_integer_actions_play_like_python_ints(make):
    plain, other = bean_env.bean_duel_v1.env(), bean_env.bean_duel_v1.env()
    plain.reset(seed=5)
    other.reset(seed=np.int64(5))
    for _ in range(40):
        if plain.terminations[plain.agent_selection]:
            break
        i = int(np.flatnonzero(plain.observe(plain.agent_selection)["action_mask"])[-1])
        plain.step(i)
        other.step(make(i))
    assert plain.unwrapped.game.history == other.unwrapped.game.history


@pytest.mark.parametrize("seed", [np.int64(5), np.int32(5), np.uint8(5)], ids=lambda s: type(s).__name__)
def test_numpy_integer_seeds_equal_python_seeds(seed):
    a, b = bean_env.bohnanza_v1.env(num_players=4), bean_env.bohnanza_v1.env(num_players=4)
    a.reset(seed=5)
    b.reset(seed=seed)
    assert a.unwrapped.game.to_json() == b.unwrapped.game.to_json()
    ga, gb = SingleAgentEnv("bean_duel"), SingleAgentEnv("bean_duel")
    oa, _ = ga.reset(seed=5)
    ob, _ = gb.reset(seed=seed)
    assert np.array_equal(oa, ob) and ga.game.to_json() == gb.game.to_json()


@pytest.mark.parametrize("seed", [1.5, "5", True, [5]], ids=repr)
def test_bad_seeds_are_refused_by_name(seed):
    with pytest.raises(TypeError, match="seed"):
        bean_env.bean_duel_v1.env().reset(seed=seed)
    with pytest.raises(TypeError, match="seed"):
        SingleAgentEnv("bean_duel").reset(seed=seed)


@pytest.mark.parametrize("action, error", NOT_ACTIONS, ids=repr)
def test_single_agent_step_refuses_what_is_not_an_action_of_the_space(action, error):
    env = SingleAgentEnv("bean_duel")
    env.reset(seed=1)
    before = env.game.to_json()
    with pytest.raises(error):
        env.step(action)
    assert env.game.to_json() == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # still playable


def test_single_agent_refuses_to_step_after_an_illegal_action_ended_the_episode_agt_5():
    env = SingleAgentEnv("bean_duel")
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert reward == -1.0 and terminated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(legal)
    env.reset(seed=0)
    env.step(legal)


def test_single_agent_refuses_to_step_after_the_game_ended():
    env = SingleAgentEnv("bean_solitaire")
    env.reset(seed=4)
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(RuntimeError, match="episode ended"):
        env.step(0)


def test_numpy_integer_seats_work_and_bools_do_not():
    env = SingleAgentEnv("bean_duel", learner_seat=np.int64(1), render_seat=np.int32(1), render_mode="ansi")
    _, info = env.reset(seed=0)
    assert info["seat"] == 1 and type(env.learner_seat) is int and "P1" in env.render()
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("bean_duel", learner_seat=True)
