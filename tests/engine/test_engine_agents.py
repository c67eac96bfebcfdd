"""Decision points as agent steps (AGT-1..5): one decider, exact legal sets, composite decisions,
no forced moves inside the engine, finite episodes, clear errors; and config validation."""
from __future__ import annotations

import random

import pytest

from bean_env import Action, IllegalActionError, Kind, new_game
from bean_env.engine.positions import make_position
from helpers import random_playout

ALL_KINDS = [k for k in Kind if k <= Kind.CONTINUE]


def _catalogue() -> list[Action]:
    """Every action of the base vocabulary with small parameters."""
    return [Action(k, a, b) for k in ALL_KINDS for a in list(range(16)) for b in range(4)]


@pytest.mark.parametrize("variant,config", [("bohnanza", {"num_players": 3, "max_trade_rounds": 2}),
                                            ("bean_duel", {})])
def test_agt1_exactly_the_legal_actions_are_accepted(variant, config):
    """AGT-1: at sampled decision points of random games the engine accepts every legal action and
    rejects every other action of the vocabulary."""
    rng = random.Random(4)
    g = new_game(variant, seed=4, **config)
    catalogue = _catalogue()
    checked = 0
    while not g.is_over:
        random_playout(g, rng, max_steps=rng.randrange(5, 60))
        if g.is_over:
            break
        legal = set(g.legal_actions())
        for action in catalogue:
            c = g.clone()
            if action in legal:
                c.apply(action)
            else:
                with pytest.raises(IllegalActionError):
                    c.apply(action)
        checked += 1
    assert checked >= 5


def test_agt1_one_decider_per_decision_point():
    """AGT-1: the engine always names the single seat that decides next."""
    g = new_game("bohnanza", seed=1, num_players=5)
    rng = random.Random(1)
    while not g.is_over:
        assert 0 <= g.current_player < 5 and g.state.actor == g.current_player
        g.apply(rng.choice(g.legal_actions()))
    assert g.current_player == -1 and g.legal_actions() == []


def test_agt2_offer_is_built_in_sub_decisions_that_can_always_be_finished():
    """AGT-2: while an offer is built every partial offer can be cancelled, and nothing but building
    actions is offered."""
    building = {Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT, Kind.SUBMIT, Kind.CANCEL}
    rng = random.Random(2)
    seen = 0
    for seed in range(3):
        g = new_game("bohnanza", seed=seed, num_players=4)
        while not g.is_over:
            legal = g.legal_actions()
            if g.decision == "compose":
                seen += 1
                kinds = {a.kind for a in legal}
                assert Kind.CANCEL in kinds and kinds <= building
            g.apply(rng.choice(legal))
    assert seen > 50


def test_agt3_the_engine_never_applies_a_forced_move_itself():
    """AGT-3: a decision point with a single legal action is still a decision point of the engine."""
    g = make_position("bohnanza", phase="trade", num_players=3, hands=[["soy"], ["red"], ["green"]],
                      face_up=["blue"])
    g.apply("offer to player 1")
    g.apply("want blue")
    g.apply("submit offer")
    assert g.decision == "respond" and [str(a) for a in g.legal_actions()] == ["decline"]
    g = make_position("bohnanza", phase="draw", num_players=3, hands=[["soy"], ["red"], ["green"]],
                      deck=["red"], fill_deck=False, discard=["soy"])
    assert g.decision == "harvest_window" and [str(a) for a in g.legal_actions()] == ["done"]


def test_agt4_episodes_are_finite():
    """AGT-4: budgets make every game end; reaching them is normal (no truncation in these variants)."""
    for variant, config in (("bohnanza", {"num_players": 7, "edition": "english", "max_trade_rounds": 6}),
                            ("bean_duel", {})):
        g = new_game(variant, seed=0, **config)
        random_playout(g, random.Random(0), max_steps=100_000)
        assert g.is_over and not g.is_truncated


@pytest.mark.parametrize("variant,config", [("bohnanza", {"num_players": 4}), ("bean_duel", {})])
def test_agt5_illegal_action_raises_names_it_and_changes_nothing(variant, config):
    """AGT-5: an illegal action raises IllegalActionError naming the action and the decision point,
    and the game is unchanged."""
    g = new_game(variant, seed=3, **config)
    rng = random.Random(3)
    for _ in range(6):
        random_playout(g, rng, max_steps=40)
        if g.is_over:
            break
        before = g.to_json()
        legal = list(g.legal_actions())
        bad = next(a for a in _catalogue() if a not in legal)
        with pytest.raises(IllegalActionError) as err:
            g.apply(bad)
        text = str(err.value)
        assert str(bad) in text and g.decision in text and f"player {g.current_player}" in text
        assert err.value.action == bad and err.value.decision == g.decision
        assert g.to_json() == before and g.legal_actions() == legal
        for junk in ("no such action", (99, 0, 0), (1, 2, 3, 4), "plant field 9", ()):
            with pytest.raises(IllegalActionError):
                g.apply(junk)
            assert g.to_json() == before


def test_agt5_no_action_after_the_game_ends():
    """AGT-5: once the game is over every action is illegal."""
    g = new_game("bean_duel", seed=1)
    random_playout(g, random.Random(1))
    with pytest.raises(IllegalActionError, match="game_over"):
        g.apply(Action(Kind.DONE))


@pytest.mark.parametrize("variant,config,key", [
    ("bohnanza", {"edition": "swiss"}, "edition"),
    ("bohnanza", {"num_players": 8, "edition": "english"}, "num_players"),
    ("bohnanza", {"num_players": 2}, "num_players"),
    ("bohnanza", {"num_players": 6}, "num_players"),
    ("bohnanza", {"max_trade_rounds": -1}, "max_trade_rounds"),
    ("bohnanza", {"max_trade_rounds": 1.5}, "max_trade_rounds"),
    ("bohnanza", {"max_trade_rounds": True}, "max_trade_rounds"),
    ("bohnanza", {"allow_duplicate_fields": "yes"}, "allow_duplicate_fields"),
    ("bohnanza", {"players": 4}, "players"),
    ("bean_duel", {"num_players": 3}, "num_players"),
    ("bean_duel", {"edition": "english"}, "edition"),
])
def test_bad_config_raises_value_error_naming_key_and_allowed_values(variant, config, key):
    """Config errors raise ValueError naming the bad key and the allowed values."""
    with pytest.raises(ValueError) as err:
        new_game(variant, seed=0, **config)
    text = str(err.value)
    assert repr(key) in text and "allowed" in text


def test_bad_variant_and_seed_raise_value_error():
    """Unknown variants and non-integer seeds raise ValueError listing what is allowed."""
    with pytest.raises(ValueError, match="allowed"):
        new_game("snap")
    with pytest.raises(ValueError, match="seed"):
        new_game("bohnanza", seed="7")


@pytest.mark.parametrize("variant,config", [("bohnanza", {"num_players": 4, "edition": "english"}),
                                            ("bean_duel", {})])
def test_agt1_action_texts_are_unique_at_every_decision_point(variant, config):
    """AGT-1: the str() of the legal actions are distinct, so an action given as text is unambiguous,
    and each text resolves to its action."""
    for seed in range(3):
        g = new_game(variant, seed=seed, **config)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            texts = [str(a) for a in legal]
            assert len(set(texts)) == len(texts), texts
            action = legal[rng.randrange(len(legal))]
            g.apply(str(action))
            assert g.history[-1] == action
