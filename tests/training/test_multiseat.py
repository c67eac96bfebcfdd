"""Multi-seat self-play (RLlib path): every learner seat's decisions are experience of the shared policy,
each seat with its own rewards, for 3-7 players; snapshot and baseline opponents still mix in."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from bean_env.training.league import split_mix  # noqa: E402
from bean_env.training.rllib.env import BeanMultiAgentEnv  # noqa: E402
from bean_env.training.rllib.trainer import build_config, parse_args  # noqa: E402

PRESET = {"trade_preset": "learning"}


def _config(n: int) -> dict:
    return dict(PRESET, num_players=n, edition="english" if n > 5 else "german")


def _play(env, seed: int):
    """Random legal play through the multi-agent env; per agent: rewards received and decisions made."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    got = {a: 0.0 for a in env.agents}
    decided = {a: 0 for a in env.agents}
    while True:
        (agent, o), = obs.items()
        assert agent in env.learners and agent == env.aec.agent_selection
        decided[agent] += 1
        obs, rewards, terms, truncs, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        assert set(rewards) <= set(obs)
        for a, r in rewards.items():
            got[a] += r
        if terms["__all__"] or truncs["__all__"]:
            assert set(obs) == set(env.learners)
            return got, decided


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_every_seat_is_experience_with_its_own_dense_rewards(n):
    """All seats learner seats: every seat decides and is paid exactly its own coins (dense reward sums to
    the seat's final score), for 3-7 players."""
    env = BeanMultiAgentEnv({"variant": "bohnanza", "rules": _config(n), "reward_mode": "dense"})
    got, decided = _play(env, seed=n)
    scores = env.aec.game.scores()
    assert len(env.learners) == n
    for agent, seat in env.aec.agent_name_mapping.items():
        assert decided[agent] > 0
        assert got[agent] == pytest.approx(scores[seat])
    assert sum(got.values()) == pytest.approx(sum(scores))


def test_opponent_seats_are_played_inside_the_env():
    env = BeanMultiAgentEnv({"variant": "bohnanza", "rules": _config(5), "reward_mode": "win",
                             "opponent_mix": "learner:0.5,heuristic:0.25,random:0.25", "seed": 3})
    kinds = set()
    for seed in range(6):
        got, decided = _play(env, seed)
        assert 1 <= len(env.learners) <= 5
        assert all(decided[a] == 0 and got[a] == 0 for a in env.opponents)   # never seen by the learner
        winners = env.aec.game.winners()
        for a in env.learners:
            seat = env.aec.agent_name_mapping[a]
            assert got[a] == pytest.approx(1.0 / len(winners) if seat in winners else -1.0)
        kinds |= {getattr(o, "kind", "?") for o in env.opponents.values()}
    assert kinds == {"heuristic", "random"}


def test_opponent_mix_needs_learner_seats():
    assert split_mix("learner:3,heuristic:1") == (0.75, {"heuristic": 1.0})
    with pytest.raises(ValueError, match="needs a positive 'learner' weight"):
        split_mix("heuristic:1")


def test_opponent_mix_takes_agent_options():
    """An opponent with options (``heuristic:trading=fair``) is one entry of the mix, as in the other
    trainers."""
    env = BeanMultiAgentEnv({"variant": "bohnanza", "rules": _config(4), "seed": 1,
                             "opponent_mix": "learner:0.5,heuristic:trading=fair:0.5"})
    assert env.learner_share == 0.5 and list(env.pool.mix) == ["heuristic:trading=fair"]


@pytest.mark.parametrize("n", [3, 7])
def test_rllib_episodes_carry_every_seat_with_its_own_rewards(n):
    """What RLlib's env runner collects for the learner: one agent episode per seat, as many steps as that
    seat made decisions, and a return equal to what the env paid that seat."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    args = parse_args(["--variant", "bohnanza", "--hidden", "8", "--train-batch", "64", "--reward-mode", "dense",
                       "--seed", str(n)])
    runner = MultiAgentEnvRunner(config=build_config(args, _config(n)))
    try:
        episode = runner.sample(num_episodes=1)[0]
        env = runner.env.envs[0].unwrapped
        result = env.last_result
        assert episode.is_done and set(episode.agent_episodes) == set(env.possible_agents)
        for agent, ep in episode.agent_episodes.items():
            assert len(ep) == result["decisions"][agent] > 0
            assert ep.get_return() == pytest.approx(result["paid"][agent])
            seat = env.aec.agent_name_mapping[agent]
            assert result["paid"][agent] == pytest.approx(result["scores"][seat])
    finally:
        runner.stop()


def test_dense_rewards_include_what_the_game_pays_at_its_start():
    """In ``hostile_takeover`` every seat starts with points; under ``dense`` they are paid at the reset,
    so each learner seat's rewards add up to its final score (in coins, HT-14) and none is lost."""
    env = BeanMultiAgentEnv({"variant": "hostile_takeover", "rules": {"num_players": 3}, "reward_mode": "dense"})
    for seed in (1, 2):
        got, decided = _play(env, seed=seed)
        scores = env.aec.game.scores()
        assert all(x >= 0 for x in scores)
        for agent in env.learners:
            assert got[agent] == pytest.approx(scores[env.aec.agent_name_mapping[agent]] / 100)
