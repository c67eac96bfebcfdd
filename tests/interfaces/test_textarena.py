"""The TextArena adapter (``bean_env.text.arena``): TextArena's reset/get_observation/step/close loop."""
from __future__ import annotations

import pytest

ta = pytest.importorskip("textarena")

from bean_env.text.arena import BeanArenaEnv, register_textarena  # noqa: E402


def test_textarena_make_and_play_a_game():
    ids = register_textarena()
    assert "bean_env-bohnanza-v0" in ids and register_textarena() == ids   # idempotent
    env = ta.make("bean_env-bean_duel-v0")
    env.reset(num_players=2, seed=1)
    done, steps, seen = False, 0, set()
    while not done:
        player, obs = env.get_observation()
        assert obs.startswith("Rules summary:") == (player not in seen) and "Legal actions:\n0: " in obs
        seen.add(player)
        done, info = env.step(action=obs.split("Legal actions:\n", 1)[1].splitlines()[0].split(": ", 1)[1])
        steps += 1
    rewards, game_info = env.close()
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.5, 0.5])
    assert game_info[0]["turn_count"] + game_info[1]["turn_count"] == steps and "winners" in game_info[0]["reason"]


def test_offer_line_and_invalid_moves_end_the_game():
    env = BeanArenaEnv("bohnanza", max_trade_rounds=1, error_allowance=1)
    env.reset(num_players=3, seed=2)
    while env.game.decision != "offer" or env.game.current_player != env.game.state.active:
        env.step("0")
    hand = env.game.view(env.game.current_player).hand
    done, info = env.step(f"offer all give {hand[-1]}")                   # a gift offer, composed
    assert not done and env.game.decision == "respond"
    p = env.game.current_player
    before = env.game.to_json()
    done, info = env.step("sell everything")
    assert not done and info["invalid_move"] and env.game.to_json() == before
    assert "Your last reply was not accepted" in env.get_observation()[1]
    done, info = env.step("still nonsense")
    assert done
    rewards, game_info = env.close()
    assert rewards[p] == -1.0 and all(r == 0.0 for q, r in rewards.items() if q != p)
    assert game_info[p]["invalid_move"]


def test_numpy_integer_seed_same_game():
    import numpy as np

    a, b = BeanArenaEnv("bean_duel"), BeanArenaEnv("bean_duel")
    a.reset(num_players=2, seed=np.int64(5))
    b.reset(num_players=2, seed=5)
    assert a.get_observation() == b.get_observation()


def test_bad_configuration():
    with pytest.raises(ValueError, match="num_players"):
        BeanArenaEnv("bean_duel").reset(num_players=3)
    with pytest.raises(ValueError, match="num_players"):
        BeanArenaEnv("bohnanza", num_players=4).reset(num_players=3)
    with pytest.raises(ValueError, match="edition"):
        BeanArenaEnv("bohnanza", edition="french")
