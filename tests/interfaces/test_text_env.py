"""TextEnv: a text-only single-seat environment (text observation, text action)."""
from __future__ import annotations

import pytest

from bean_env.agents import make_agent
from bean_env.text import ActionParseError, TextEnv


def test_text_env_plays_a_game_to_the_end():
    env = TextEnv("bean_duel", seat=0, opponents={1: make_agent("heuristic", seed=1)})
    text, info = env.reset(seed=3)
    assert "You are player 0 of 2" in text and "Legal actions:\n0: " in text
    assert env.observation_space.contains(text)
    steps, done, reward = 0, False, 0.0
    while not done:
        text, reward, terminated, truncated, info = env.step(info["legal"][-1].split(": ", 1)[1])
        done = terminated or truncated
        steps += 1
    assert steps > 10 and "The game is over." in text
    assert reward in (1.0, 0.5, -1.0) and info["winners"] and len(info["scores"]) == 2


def test_same_seed_same_text():
    def run():
        env = TextEnv("bean_solitaire")
        out = [env.reset(seed=7)[0]]
        for _ in range(5):
            out.append(env.step("0")[0])
        return out

    assert run() == run()


def test_bad_text_raises_and_changes_nothing_or_retries():
    env = TextEnv("bean_solitaire")
    text, _ = env.reset(seed=1)
    before = env.game.to_json()
    with pytest.raises(ActionParseError, match="Closest legal actions"):
        env.step("fly to the moon")
    assert env.game.to_json() == before
    env = TextEnv("bean_solitaire", invalid="retry")
    text, _ = env.reset(seed=1)
    again, reward, terminated, truncated, info = env.step("fly to the moon")
    assert again.startswith(text) and "not accepted" in again and info["error"] and reward == 0


def test_options_are_checked():
    with pytest.raises(ValueError, match="opponents"):
        TextEnv("bean_duel")
    with pytest.raises(ValueError, match="seat"):
        TextEnv("bean_solitaire", seat=1)
    with pytest.raises(ValueError, match="invalid"):
        TextEnv("bean_solitaire", invalid="ignore")
    with pytest.raises(ValueError, match="num_players"):
        TextEnv("bohnanza", num_players=9, opponents={})
    with pytest.raises(RuntimeError, match="reset"):
        TextEnv("bean_solitaire").step("0")


def test_reward_is_the_envs_win_reward():
    """The mafia variant: the envs' win rule (MAF-13), not only the engine's winner list."""
    import bean_env
    from bean_env.agents import make_agent

    env = TextEnv("al_cabohne", seat=1, opponents={0: make_agent("random", seed=2)})
    text, info = env.reset(seed=5)
    done = False
    while not done:
        text, reward, terminated, truncated, info = env.step("0")
        done = terminated or truncated
    expected = bean_env.al_cabohne_v1.raw_env().win_rewards(env.game)[1]
    assert reward == expected
