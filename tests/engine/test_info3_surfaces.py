"""INFO-3 on every readable surface: the view, its history, ``render_game(viewer=p)`` and the history
of a sampled game never name a card the viewer cannot see; samples honour public inferences (TRADE-4
acceptances, chosen gives) and are legal positions where the seat to act has a legal action.

Tested the way the observation is tested: resample what the viewer cannot see (or build two games that
differ only there) and compare what the viewer can read."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bean_env import new_game
from bean_env.cards import CODE
from bean_env.engine.actions import TEXT_NAMES, Action, Kind
from bean_env.engine.positions import make_position
from bean_env.engine.views import HIDDEN_PART, mask_history
from bean_env.render import render_game
from helpers import assert_conserved, defence_twins, defended_takeover

VARIANTS = [("bohnanza", {"num_players": 3}), ("bohnanza", {"num_players": 5, "max_trade_rounds": 2}),
            ("bohnanza", {"edition": "english", "num_players": 7, "max_trade_rounds": 1}),
            ("bohnanza", {"num_players": 4, "offer_actions": "macro", "max_offer_cards": 2}), ("bean_duel", {}),
            ("al_cabohne", {}), ("bean_solitaire", {}), ("hostile_takeover", {"num_players": 2}),
            ("hostile_takeover", {"num_players": 4})]
VIDS = ["german3", "german5", "english7", "macro4", "duel", "al_cabohne", "solitaire", "takeover2", "takeover4"]


def _surfaces(game, p: int) -> dict:
    """Everything seat ``p`` can read about ``game`` besides the observation."""
    view = game.view(p)
    return {"render": render_game(game, viewer=p, last_actions=40), "history": [tuple(a) for a in view.history],
            "state": view.state.to_dict(), "offer": view.offer, "known": view.known_hands}


def test_info3_defence_card_is_masked_in_view_render_and_sample_history():
    """INFO-3/HT-12: the face-down defence card is named nowhere another seat can read; the defender
    still reads their own card; the placeholder reads as a face-down card."""
    game = defended_takeover()
    defend = game.history[-1]
    defender = next(a.a for a in reversed(game.history) if a.kind == Kind.HT_ATTACK)
    name = TEXT_NAMES[defend.a]
    for p in range(game.num_players):
        view = game.view(p)
        sample = view.sample_game(random.Random(p))
        if p == defender:
            assert view.history[-1] == defend
            continue
        assert view.history[-1] == Action(Kind.HT_DEFEND, HIDDEN_PART)
        assert sample.history[-1] == Action(Kind.HT_DEFEND, HIDDEN_PART)
        assert str(view.history[-1]) == "defend with a face-down text card"
        last = render_game(game, viewer=p).splitlines()[-2]
        assert last.startswith("last: ") and name not in last and "face-down" in last


def test_info3_games_differing_only_in_the_defence_card_read_the_same():
    """INFO-3: two games that differ only in the face-down defence card (and so in the defender's
    HT_DEFEND action) look the same to every other seat: view, history, rendering."""
    game, other, defender = defence_twins(seed_from=7)
    for p in range(game.num_players):
        if p != defender:
            assert _surfaces(game, p) == _surfaces(other, p)
    assert _surfaces(game, defender)["history"] != _surfaces(other, defender)["history"]


def test_info3_offer_under_composition_shows_no_hand_card():
    """INFO-3/TRADE-2: before an offer is submitted, others read how many hand cards it gives, not
    which: the rendering shows '?', and games differing in that card read the same."""
    game = make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["soy", "garden", "red"], ["chili"], ["green"]],
                         face_up=["stink"])
    game.apply("offer to player 1")
    game.apply("give hand card 2")
    other = game.clone()
    other.state.hands[0][1] = CODE["black_eyed"]
    for p in (1, 2):
        text = render_game(game, viewer=p)
        assert "offer P0 -> P1: give ['?']" in text and "garden" not in text
        assert _surfaces(game, p) == _surfaces(other, p)
    assert "give ['garden']" in render_game(game, viewer=0)
    game.apply("cancel")
    other.apply("cancel")
    for p in (1, 2):
        assert Action(Kind.GIVE_HAND, HIDDEN_PART) in game.view(p).history
        assert _surfaces(game, p) == _surfaces(other, p)


def test_info3_unordered_takeover_hands_do_not_reveal_type_ranges():
    """INFO-3/HT-3: a sorted hand with known and unknown cards is rendered known cards first, so the
    place of a '?' says nothing about its type."""
    from bean_env.engine.takeover.positions import takeover_position
    games = []
    for hidden in ("red", "blue"):  # sorted, the known soy is the 2nd or the 3rd card of the hand
        g = takeover_position(num_players=3, active=0, hands=[["red"], ["soy", hidden, "green"], []],
                              texts=[[], [], []], seed=1)
        s = g.state
        k = s.hands[1].index(CODE["soy"])
        s.known[1][k] = (1 << 3) - 1  # the soy was shown to everybody
        games.append(g)
    assert [g.state.hands[1].index(CODE["soy"]) for g in games] == [1, 2]
    for p in (0, 2):
        a, b = (render_game(g, viewer=p) for g in games)
        assert a == b and "hand soy ? ?" in a
        assert _surfaces(games[0], p) == _surfaces(games[1], p)


def _pick_position():
    """P0 offers red for soy to all; P1 and P2 both accept: P0 picks (TRADE-4)."""
    game = make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["red", "red"], ["chili", "soy", "blue"], ["soy", "green", "stink"]],
                         face_up=["garden", "garden"], seed=4)
    for a in ("offer to all", "give hand card 1", "want soy", "submit offer", "accept", "accept"):
        game.apply(a)
    assert game.decision == "pick"
    return game


def test_info3_samples_honour_acceptances_even_when_the_trade_was_not_made():
    """INFO-3: an acceptance shows that the acceptor holds the wanted cards; samples keep that while
    nothing could have changed it, also for the acceptor who was not picked."""
    game = _pick_position()
    rng = random.Random(3)
    for p in range(3):
        for _ in range(20):
            hands = game.view(p).sample_game(rng).state.hands
            assert CODE["soy"] in hands[1] and CODE["soy"] in hands[2]
    game.apply("trade with player 1")
    assert game.decision == "offer"  # P1's slot: P2 was not picked, still holds its soy
    for p in (0, 1):
        view = game.view(p)
        assert dict(view.holdings()) == {2: (Counter({CODE["soy"]: 1}), {})}
        for _ in range(20):
            assert CODE["soy"] in view.sample_game(rng).state.hands[2]
    # P1 gave its soy: nothing is known about its hand any more
    assert 1 not in game.view(0).holdings()


def test_info3_acceptances_last_into_later_turns_until_the_acceptor_plants():
    """INFO-3/BASE-5: the unpicked acceptor still holds the wanted card in the next turn; once it has
    planted from its hand as the active player, nothing is known any more."""
    game = _pick_position()
    game.apply("trade with player 1")
    while game.decision != "plant" or game.state.active != 1:  # end trading, plant, draw: P1's turn
        legal = game.legal_actions()
        game.apply("end trading" if "end trading" in map(str, legal) else next(
            (a for a in legal if a.kind != Kind.PASS or len(legal) == 1), legal[0]))
    rng = random.Random(2)
    assert game.view(0).holdings() == {2: (Counter({CODE["soy"]: 1}), {})}
    for _ in range(20):
        assert CODE["soy"] in game.view(0).sample_game(rng).state.hands[2]
    while game.state.active != 2 or game.decision == "plant":
        legal = game.legal_actions()
        game.apply(legal[0])
    assert 2 not in game.view(0).holdings()


def test_info3_choose_give_samples_keep_chosen_positions_and_a_legal_action():
    """INFO-3: sampled from any seat during choose_give, the giver holds the wanted cards (the
    positions already chosen hold their types) and has a legal action."""
    game = make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["red"], ["soy", "chili", "soy", "green", "chili"], ["stink"]],
                         face_up=["garden", "blue"], seed=2)
    for a in ("offer to player 1", "give hand card 1", "want chili", "want soy", "submit offer", "accept"):
        game.apply(a)
    assert game.decision == "choose_give" and game.current_player == 1
    game.apply(game.legal_actions()[-1])  # the second chili (hand card 5)
    assert game.decision == "choose_give"
    rng = random.Random(1)
    for p in (0, 2):
        view = game.view(p)
        for _ in range(30):
            sample = view.sample_game(rng)
            hand = sample.state.hands[1]
            assert hand[4] == CODE["chili"] and hand.count(CODE["soy"]) >= 1
            assert sample.legal_actions() and all(a.kind == Kind.GIVE_HAND for a in sample.legal_actions())
            assert_conserved(sample, "in a sample at choose_give")


@pytest.mark.parametrize("variant,config", VARIANTS, ids=VIDS)
def test_info3_every_surface_survives_resampling_in_random_play(variant, config):
    """INFO-3 property over random play: for every seat, a sample of its view reads the same on every
    surface (view, history, rendering), conserves cards, is a legal position whose seat to act has a
    legal action (the same ones when it is the viewer), and keeps every public holding."""
    rng = random.Random(11)
    points = 0
    for seed in range(2):
        game = new_game(variant, seed=seed, **config)
        while not game.is_over and not game.is_truncated and len(game.history) < 700:
            legal = game.legal_actions()
            if rng.random() < (0.5 if game.decision in ("pick", "choose_give") else 0.04):
                points += 1
                for p in range(game.num_players):
                    view = game.view(p)
                    for q, (need, pins) in view.holdings().items():  # inferences are true facts
                        assert not need - Counter(game.state.hands[q])
                        assert all(game.state.hands[q][i] == t for i, t in pins.items())
                    sample = view.sample_game(rng)
                    assert _surfaces(sample, p) == _surfaces(game, p), f"seat {p} at {game.decision!r}"
                    assert sample.history == view.history
                    assert all(a.a != -1 or a.kind in (Kind.HT_DEFEND, Kind.GIVE_HAND) for a in view.history)
                    assert_conserved(sample, f"in a sample for seat {p}")
                    assert sample.legal_actions(), f"no legal action in a sample at {game.decision!r}"
                    if p == game.current_player:
                        assert sample.legal_actions() == legal
                    for q, (need, pins) in view.holdings().items():
                        assert not need - Counter(sample.state.hands[q])
                        assert all(sample.state.hands[q][i] == t for i, t in pins.items())
            game.apply(legal[rng.randrange(len(legal))])
    assert points > 5


@pytest.mark.parametrize("variant,config,players", [
    ("bohnanza", {"num_players": 4, "trade_preset": "learning"}, "heuristic"),
    ("bohnanza", {"num_players": 3}, "heuristic"), ("bohnanza", {"num_players": 5, "max_trade_rounds": 2}, "random")],
    ids=["learning4", "german3", "random5"])
def test_info3_public_holdings_read_once_per_game_match_a_fresh_read(variant, config, players):
    """INFO-3: a game's views share what they read of finished trade phases (``Game.trade_phase_memo``);
    at every decision, for every seat, the holdings equal a read of the whole history without it, also for
    a view taken before later actions and for a clone that plays on differently."""
    from bean_env.agents import make_agent
    from bean_env.engine.views import public_holdings

    def fresh(view):
        return public_holdings(game.rules, view.state, game.history[:view._history_len])

    for seed in range(2):
        game = new_game(variant, seed=seed, **config)
        agents = [make_agent(players, seed=seed * 10 + q) for q in range(game.num_players)]
        early, known, rng = None, 0, random.Random(seed)
        while not game.is_over and not game.is_truncated:
            for p in range(game.num_players):
                view = game.view(p)
                assert view.holdings() == fresh(view), f"seat {p} after {len(game.history)} actions"
                known += bool(view.holdings())
            if early is None and len(game.history) > 150:
                early = game.view(1)
                clone = game.clone()
                for _ in range(60):  # the clone's history parts from the game's
                    if not clone.is_over:
                        legal = clone.legal_actions()
                        clone.apply(legal[rng.randrange(len(legal))])
                for p in range(clone.num_players):
                    assert clone.view(p).holdings() == public_holdings(clone.rules, clone.view(p).state, clone.history)
            seat = game.current_player
            game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
        assert early is not None and early.holdings() == fresh(early)
        assert known > 0 and game.trade_phase_memo()


def test_info3_mask_history_leaves_actions_without_hidden_parts_alone():
    """INFO-3: masking changes only hidden parts: in bean_duel nothing is hidden in the actions, so a
    seat reads the whole history as it is."""
    game = new_game("bean_duel", seed=5)
    rng = random.Random(5)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert mask_history(game.history, 0) == game.history
