"""PlayerView's public calls for interfaces: ``legal_actions()`` (the game's list, from the masked state)
and ``last_action`` (the last entry of the masked history, INFO-3), in every variant."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.engine.actions import Kind

CASES = [("bohnanza", {"num_players": 4}), ("bohnanza", {"num_players": 3, "trade_preset": "learning"}),
         ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}), ("hostile_takeover", {"num_players": 3})]


@pytest.mark.parametrize("variant,config", CASES, ids=[f"{v}-{i}" for i, (v, _) in enumerate(CASES)])
def test_view_legal_actions_and_last_action_match_the_game(variant, config):
    """INFO-3: the deciding seat's ``view.legal_actions()`` is ``game.legal_actions()``, other seats get
    ``[]``; every seat's ``view.last_action`` is its masked history's last entry (hidden parts hidden)."""
    r = random.Random(7)
    hidden = 0
    for seed in (1, 2):
        g = new_game(variant, seed=seed, **config)
        for _ in range(300):
            if g.is_over:
                break
            for p in range(g.num_players):
                v = g.view(p)
                assert v.legal_actions() == (g.legal_actions() if p == g.current_player else [])
                if g.history:
                    assert v.last_action == v.history[-1]
                    hidden += v.last_action.a == -1 and v.last_action.kind in (Kind.GIVE_HAND, Kind.HT_DEFEND)
                else:
                    assert v.last_action is None
            legal = g.legal_actions()
            # prefer offers and defences so that hidden parts occur
            rich = [a for a in legal if a.kind in (Kind.OFFER, Kind.GIVE_HAND, Kind.HT_ATTACK, Kind.HT_DEFEND)]
            g.apply(r.choice(rich if rich and r.random() < 0.5 else legal))
    if variant == "hostile_takeover" or variant == "bohnanza" and "trade_preset" not in config:
        assert hidden, "no masked defence card or offer position occurred: the test lost its point"
