"""What a player may know (INFO-1, INFO-2) and determinisation without leakage (INFO-3)."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.engine.positions import make_position
from helpers import assert_conserved, assert_well_formed, random_playout

CASES = [("bohnanza", {"num_players": 3}), ("bohnanza", {"num_players": 5, "max_trade_rounds": 2}),
         ("bohnanza", {"edition": "english", "num_players": 6, "max_trade_rounds": 1}), ("bean_duel", {})]
IDS = ["german3", "german5", "english6", "duel"]


def _view_facts(view) -> dict:
    """Everything a view exposes through its public attributes."""
    return {"hand": view.hand, "hand_sizes": view.hand_sizes, "known_hands": view.known_hands,
            "fields": view.fields, "coins": view.coins, "discard": view.discard, "face_up": view.face_up,
            "to_plant": view.to_plant, "deck_size": view.deck_size, "runouts": view.runouts,
            "current_player": view.current_player, "active_player": view.active_player,
            "decision": view.decision, "is_over": view.is_over, "offer": view.offer}


def test_info1_own_hand_in_order_and_other_hands_hidden():
    """INFO-1: a player sees their own hand in order, the sizes of the others, and no hidden card."""
    g = make_position("bohnanza", phase="plant", num_players=3,
                      hands=[["soy", "blue", "red"], ["chili", "green"], ["garden"]])
    v = g.view(1)
    assert v.hand == ["chili", "green"]
    assert v.hand_sizes == [3, 2, 1]
    assert v.known_hands == [[None] * 3, ["chili", "green"], [None]]
    assert all(c == -1 for c in v.state.deck) and v.deck_size == len(g.state.deck)
    assert v.state.seed == 0  # the seed would reveal the deck order


def test_info1_public_facts_are_the_same_for_every_player():
    """INFO-1: fields, coins, discard, face-up area, cards to plant, the offer, the trade round, deck
    size, run-outs, the active player and the decision point are public."""
    g = make_position("bohnanza", phase="trade", num_players=3, hands=[["soy"], ["red"], ["green"]],
                      face_up=["blue", "stink"], fields=[[("chili", 2), None], [], [("wax", 1), None]],
                      coins=[1, 2, 3], discard=["red", "soy"], to_plant=[[], ["garden"], []],
                      max_trade_rounds=3, edition="english")
    g.apply("offer to player 1")
    g.apply("give trade-area blue")
    g.apply("want red")
    views = [g.view(p) for p in range(3)]
    public = [{k: v for k, v in _view_facts(view).items() if k not in ("hand", "known_hands")} for view in views]
    assert public[0] == public[1] == public[2]
    assert public[0]["offer"]["give_trade"] == ["blue"] and public[0]["offer"]["want"] == ["red"]
    assert all(v.state.t_round == 1 for v in views)


def test_info2_hand_cards_offered_are_shown_to_everyone():
    """INFO-2: hand cards given in a submitted offer become known to all players."""
    g = make_position("bohnanza", phase="trade", num_players=3,
                      hands=[["soy", "blue", "red"], ["chili"], ["green"]], face_up=["stink"])
    g.apply("offer to player 1")
    g.apply("give hand card 2")
    g.apply("submit offer")
    assert g.view(2).known_hands[0] == [None, "blue", None]
    g.apply("decline")
    assert g.view(1).known_hands[0] == [None, "blue", None]  # shown once, known while in the hand


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_info3_sample_game_keeps_everything_the_player_knows(variant, config):
    """INFO-3: a sampled game looks exactly the same to the viewing player (masked states equal:
    hand, known cards of others, fields, coins, discard, face-up, deck size, decision, ...), conserves
    cards, gives the same legal actions when that player decides, and plays on legally to the end."""
    rng = random.Random(17)
    for seed in range(4):
        g = new_game(variant, seed=seed, **config)
        total = 0
        while not g.is_over:
            steps = random_playout(g, rng, max_steps=rng.randrange(20, 160))
            total += steps
            if g.is_over:
                break
            before = g.to_json()
            for p in range(g.num_players):
                view = g.view(p)
                sampled = view.sample_game(rng.getrandbits(32))
                assert g.to_json() == before  # sampling changes nothing in the real game
                assert sampled.rules.mask(sampled.state, p).to_dict() == view.state.to_dict()
                assert _view_facts(sampled.view(p)) == _view_facts(view)
                assert_conserved(sampled, "in a sampled game")
                assert_well_formed(sampled)
                if p == g.current_player:
                    assert sampled.legal_actions() == g.legal_actions()
            if rng.random() < 0.3:
                sampled = g.view(g.current_player).sample_game(rng)
                random_playout(sampled, rng, check=assert_conserved)
                assert sampled.is_over


def test_info3_sampling_resamples_hidden_cards():
    """INFO-3: hidden cards (other hands, deck order) really are resampled."""
    g = new_game("bohnanza", seed=3, num_players=4)
    view = g.view(0)
    others = {tuple(tuple(h) for h in view.sample_game(k).state.hands[1:]) for k in range(10)}
    decks = {tuple(view.sample_game(k).state.deck) for k in range(10)}
    assert len(others) > 1 and len(decks) > 1
    for k in range(10):
        assert view.sample_game(k).state.hands[0] == g.state.hands[0]


def test_info3_sample_game_accepts_every_kind_of_rng():
    """INFO-3: sample_game takes a random.Random, a numpy Generator, an int or None; equal seeds give
    equal samples."""
    import numpy as np
    view = new_game("bean_duel", seed=1).view(1)
    assert view.sample_game(5).to_json() == view.sample_game(5).to_json()
    assert view.sample_game(random.Random(5)).to_json() == view.sample_game(random.Random(5)).to_json()
    assert view.sample_game(np.random.default_rng(5)).state.hands[1] == view.sample_game(None).state.hands[1]
    with pytest.raises(TypeError):
        view.sample_game("seed")
