"""The trading controls (rule options of `bohnanza`, see tests/engine/test_trade_options.py) in the env:
the mask is the engine's legal actions under the learning preset, and the negotiation memory of the
observation records whole offers (``OFFER_CARDS``) like composed ones."""
from __future__ import annotations

import random

import numpy as np

from bean_env.engine.actions import Kind
from bean_env.engine.positions import make_position
from bean_env.envs import make_env
from bean_env.envs.obs.core import encoder_for


def test_agt1_learning_preset_env_masks_are_the_legal_whole_offers():
    """AGT-1: under ``trade_preset="learning"`` every mask marks exactly the engine's legal actions,
    whole offers included, and random masked play finishes the game."""
    env = make_env("bean_env/bohnanza-v1", trade_preset="learning")
    env.reset(seed=4)
    r = random.Random(4)
    whole = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        game = env.unwrapped.game
        legal = game.legal_actions()
        mask = obs["action_mask"]
        assert int(mask.sum()) == len(legal)
        whole += any(a.kind == Kind.OFFER_CARDS for a in legal)
        env.step(int(r.choice(np.flatnonzero(mask))))
    assert env.unwrapped.game.is_over and whole > 0


def test_negotiation_memory_records_whole_offers():
    """The observation's memory of this turn's offers sees a whole offer and its answer."""
    g = make_position("bohnanza", phase="trade", num_players=3, hands=[["red", "soy"], ["chili"], ["garden"]],
                      face_up=["stink", "blue"], trade_preset="learning")
    mem = encoder_for(g).new_memory().reset(g)
    for action in ("offer red for chili to player 1", "decline"):
        g.apply(action)
        mem.update(g)
    (rec,) = mem.offers
    assert (rec.prop, rec.to, rec.decliners) == (0, 1, [1]) and len(rec.give) == len(rec.want) == 1
