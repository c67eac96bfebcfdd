"""What a user of the envs meets first: the mask in ``info`` (gymnasium's wrappers hide
``action_masks()``), clear messages for a mistyped variant or option, rendering at reset and from one
seat (INFO-3), and opponents named by agent specs through ``bean_env.registry``."""
from __future__ import annotations

import random
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import bean_env
from bean_env.envs.single_agent import SingleAgentEnv
from bean_env.render import render_game


def test_gymnasium_make_info_carries_the_mask_of_unwrapped_action_masks():
    env = gymnasium.make("bean_env/BeanDuel-v1")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        mask = info["action_mask"]
        assert mask.dtype == bool and np.array_equal(mask, env.unwrapped.action_masks())
        assert mask.any()
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break


def test_unknown_single_agent_variant_lists_the_variants_like_new_game():
    with pytest.raises(ValueError, match="unknown variant 'bean_dual'.*bean_duel"):
        SingleAgentEnv("bean_dual")
    with pytest.raises(ValueError, match="unknown variant 'bean_dual'.*bean_duel"):
        bean_env.new_game("bean_dual")


@pytest.mark.parametrize("make", [lambda **kw: gymnasium.make("bean_env/BeanDuel-v1", **kw),
                                  lambda **kw: bean_env.bean_duel_v1.env(**kw)], ids=["gym", "aec"])
def test_option_typo_names_it_and_lists_rule_and_env_options(make):
    with pytest.raises(ValueError) as caught:
        make(reward_mod="dense")
    text = str(caught.value)
    assert "'reward_mod'" in text and "did you mean 'reward_mode'" in text
    assert "allow_duplicate_fields" in text and "illegal_action" in text and "render_seat" in text


def test_single_agent_typo_lists_its_own_options_too():
    with pytest.raises(ValueError, match="learner_seat.*opponents|opponents.*learner_seat"):
        SingleAgentEnv("bean_duel", oponents="random")


def test_human_render_mode_prints_at_reset(capsys):
    env = bean_env.bean_duel_v1.env(render_mode="human")
    env.reset(seed=1)
    assert "P0" in capsys.readouterr().out
    single = SingleAgentEnv("bean_duel", render_mode="human")
    single.reset(seed=1)
    assert "P1" in capsys.readouterr().out


def test_render_seat_shows_only_what_that_seat_may_know_info_3():
    """INFO-3: rendered from a seat, the table is the seat's view (``render_game(game, viewer=seat)``);
    it does not change when the cards hidden from that seat are dealt differently."""
    env = bean_env.bohnanza_v1.env(num_players=3, render_mode="ansi", render_seat=1)
    env.reset(seed=8)
    rng = random.Random(8)
    for _ in range(15):  # a few decisions in, so that the table has history
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
    game = env.unwrapped.game
    text = env.render()
    assert text.startswith(render_game(game, viewer=1))
    assert ("actions:" in text) == (game.current_player == 1)
    # the same public position with the other seats' hands redealt renders the same
    other = game.view(1).sample_game(random.Random(99))
    assert render_game(other, viewer=1) == render_game(game, viewer=1)
    assert render_game(game, viewer=None) != render_game(game, viewer=1)  # the whole table shows more


def test_single_agent_render_seat_learner():
    env = SingleAgentEnv("bean_duel", render_mode="ansi", render_seat="learner", learner_seat=1)
    env.reset(seed=2)
    assert env.render() == render_game(env.game, viewer=1)


@pytest.mark.parametrize("seat", [2, -1, "0", True, "opponent"], ids=repr)
def test_bad_render_seat_is_refused(seat):
    with pytest.raises(ValueError, match="render_seat"):
        bean_env.bean_duel_v1.env(render_seat=seat)
    if seat != "learner":
        with pytest.raises(ValueError, match="render_seat"):
            SingleAgentEnv("bean_duel", render_seat=seat)


def test_opponents_accept_agent_specs():
    env = SingleAgentEnv("bean_duel", opponents="mcts:simulations=4")
    _, info = env.reset(seed=1)
    assert type(env._policies[1]).__name__ == "MCTSAgent" and env._policies[1].simulations == 4
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize("spec, words", [("mcts:sims=5", ["sims", "simulations"]),
                                         ("mcts:simulations=abc", ["abc", "simulations"]),
                                         ("heuristc", ["heuristc", "heuristic"])])
def test_bad_agent_specs_fail_when_the_env_is_made(spec, words):
    with pytest.raises(ValueError) as caught:
        SingleAgentEnv("bean_duel", opponents=[spec])
    assert all(w in str(caught.value) for w in words)


def test_env_modules_do_not_import_the_agents_package():
    """Layers: envs sit below agents; naming an opponent goes through ``bean_env.registry``."""
    code = ("import sys, bean_env.envs.single_agent, bean_env.envs.bohnanza_v1, bean_env.envs.hostile_takeover_v1;"
            "print(any(m == 'bean_env.agents' or m.startswith('bean_env.agents.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_ansi_render_lists_a_few_of_thousands_of_whole_offers():
    """Under the learning preset an offer decision has thousands of whole offers (AGT-2): the rendered
    action list shows a few of them with their integers (each legal in the mask) and says how many more
    there are, instead of a line of thousands of entries at every step."""
    from bean_env.engine.positions import make_position
    from bean_env.envs import make_env

    game = make_position("bohnanza", num_players=5, edition="english", trade_preset="learning", phase="trade",
                         active=0, hands=[["green", "red", "soy", "stink", "chili"]] * 5, face_up=["red", "blue"])
    env = make_env("bohnanza", num_players=5, edition="english", trade_preset="learning",
                            render_mode="ansi")
    env.reset(seed=0, options={"game": game})
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.sum() > 1000
    line = env.render().splitlines()[-1]
    listed, more = line.removeprefix("actions: ").split(" ... and ")
    integers = [int(item.split("=")[0]) for item in listed.split(", ")]
    assert len(integers) < 30 and all(mask[i] for i in integers)
    assert more == (f"{int(mask.sum()) - len(integers):,} more whole offers "
                    "(every legal integer: the observation's action_mask)")
