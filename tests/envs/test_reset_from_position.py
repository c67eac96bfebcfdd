"""Envs from any position: ``reset(seed=..., options={"game": Game | json text | record dict})`` for the
AEC and single-agent envs; the position's variant and configuration must match the env's."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import bean_env
from bean_env.engine.positions import make_position
from bean_env.envs.single_agent import SingleAgentEnv


def advanced_game(variant: str = "bean_duel", decisions: int = 40, seed: int = 3, **config):
    game = bean_env.new_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    for _ in range(decisions):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize("form", ["game", "json", "json_dict", "record", "record_json"])
def test_aec_reset_from_every_form_of_a_position(form):
    game = advanced_game()
    position = {"game": game, "json": game.to_json(), "json_dict": json.loads(game.to_json()),
                "record": game.record(), "record_json": json.dumps(game.record())}[form]
    env = bean_env.bean_duel_v1.env()
    env.reset(seed=1, options={"game": position})
    raw = env.unwrapped
    assert raw.game.to_json() == game.to_json()
    assert env.agent_selection == f"player_{game.current_player}"
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"].nonzero()[0],
                          sorted(raw.catalogue.encode_all(game.legal_actions(), game.current_player)))


def test_the_episode_continues_the_given_game_and_leaves_it_untouched():
    game = advanced_game("bohnanza", 60, num_players=3)
    before = game.to_json()
    env = bean_env.bohnanza_v1.env(num_players=3)
    env.reset(options={"game": game})
    reference = game.clone()
    rng = random.Random(5)
    for _ in range(50):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        i = int(rng.choice(list(np.flatnonzero(env.observe(agent)["action_mask"]))))
        reference.apply(env.unwrapped.catalogue.decode(i, env.unwrapped.agent_name_mapping[agent]))
        env.step(i)
        while not reference.is_over and len(reference.legal_actions()) == 1:  # auto_forced (AGT-3)
            reference.apply(reference.legal_actions()[0])
    assert env.unwrapped.game.history == reference.history
    assert game.to_json() == before


def test_curriculum_from_a_constructed_position():
    """A built position (``make_position``) as the start of single-agent episodes, e.g. an endgame."""
    start = make_position("bean_duel", phase="turn_start", hands=[["blue", "chili"], ["soy", "red"]],
                          fields=[[("blue", 3), None], [("soy", 2), None]], coins=[4, 5])
    env = SingleAgentEnv("bean_duel", learner_seat=0, reward_mode="dense")
    obs, info = env.reset(seed=0, options={"game": start})
    assert info["seat"] == 0 and env.game.scores() == [4, 5] and info["action_mask"].any()
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        done = terminated or truncated
    assert total == pytest.approx(env.game.scores()[0] - 4)  # dense pays the coins earned from the position on
    env.reset(seed=1)
    assert len(env.game.history) < 10  # without the option: a new deal


def test_reset_from_a_position_then_seeded_resets_stay_reproducible():
    game = advanced_game()
    a, b = bean_env.bean_duel_v1.env(), bean_env.bean_duel_v1.env()
    a.reset(seed=7, options={"game": game})
    b.reset(seed=7, options={"game": game})
    a.reset()
    b.reset()
    assert a.unwrapped.game.to_json() == b.unwrapped.game.to_json()


@pytest.mark.parametrize("make_env, position, match", [
    (lambda: bean_env.bohnanza_v1.env(num_players=3), lambda: advanced_game(), "'bean_duel' game.*'bohnanza'"),
    (lambda: bean_env.bohnanza_v1.env(num_players=4), lambda: advanced_game("bohnanza", num_players=3),
     "num_players=3 \\(env: 4\\)"),
    (lambda: bean_env.bean_duel_v1.env(allow_duplicate_fields=False), lambda: advanced_game(),
     "allow_duplicate_fields"),
    (lambda: SingleAgentEnv("bohnanza", num_players=4, edition="english"),
     lambda: advanced_game("bohnanza", edition="german", num_players=4), "edition='german'"),
], ids=["variant", "players", "rule-option", "single-agent-edition"])
def test_a_position_of_another_configuration_is_refused_by_name(make_env, position, match):
    env = make_env()
    with pytest.raises(ValueError, match=match):
        env.reset(seed=0, options={"game": position()})


@pytest.mark.parametrize("env", [bean_env.bean_duel_v1.env, lambda: SingleAgentEnv("bean_duel")],
                         ids=["aec", "single"])
def test_bad_positions_and_options_are_refused(env):
    e = env()
    finished = advanced_game(decisions=0)
    while not finished.is_over:
        finished.apply(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="finished"):
        e.reset(options={"game": finished})
    with pytest.raises(ValueError):  # the engine loader's GameFileError is a ValueError
        e.reset(options={"game": advanced_game().to_json().replace('"seed"', '"sead"')})
    with pytest.raises(ValueError):
        e.reset(options={"game": "{not json"})
    with pytest.raises(TypeError, match="'game'"):
        e.reset(options={"game": 42})
    with pytest.raises(TypeError, match="reset options"):
        e.reset(options=["game"])
