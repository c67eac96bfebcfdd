"""Whole-game properties of the mafia variants: card conservation, determinism, clone, JSON round trip,
replay and INFO-3 determinisation, over seeded random games."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from bean_env import new_game, replay
from bean_env.engine.game import Game
from helpers import assert_conserved, assert_well_formed, random_playout
from helpers import state_digest as base_digest

VARIANTS = ("al_cabohne", "bean_solitaire")


def state_digest(game) -> str:
    """The shared state digest plus the mafia's fields and treasury."""
    s = game.state
    return f"{base_digest(game)}/{s.btype}/{s.bcount}/{s.treasury}"


def card_total(s) -> Counter:
    """All cards of a mafia state in one count (a fast exact form of ``rules.locations``)."""
    cards = s.deck + s.discard + s.removed + s.set_aside + s.face_up + s.treasury
    for group in (s.hands, s.coins, s.to_plant):
        for part in group:
            cards = cards + part
    total = Counter(cards)
    for bean, count in zip(s.ftype + s.btype, s.fcount + s.bcount):
        if count:
            total[bean] += count
    return total


def check_invariants(game) -> None:
    """MAF-1 unique boss types, COM-3 no duplicate fields, the hand/known alignment."""
    s = game.state
    grown = [s.btype[b] for b in range(len(s.btype)) if s.bcount[b]]
    assert len(grown) == len(set(grown)), "two bosses grow one type (MAF-1)"
    assert all((s.btype[b] == -1) == (s.bcount[b] == 0) for b in range(len(s.btype)))
    if s.decision == "fill":
        assert any(c == 0 for c in s.bcount)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_card_conservation_after_every_action_in_2000_random_games(variant):
    """COM-5, MAF-2, MAF-11: every card stays in exactly one place (deck, discard, hands, fields,
    face-up, coins, bosses, treasury, set aside) after every action of 2,000 seeded random games."""
    expected = None
    for seed in range(2000):
        game = new_game(variant, seed=seed)
        expected = expected or Counter(game.rules.composition())
        rng = random.Random(seed)
        s = game.state
        assert card_total(s) == expected, f"seed {seed} at set-up"
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            assert card_total(game.state) == expected, f"seed {seed} after {game.history[-1]}"
        assert_conserved(game, f"seed {seed} at the end")  # the rules' own locations agree
        assert game.state.runouts == game.state.limit


@pytest.mark.parametrize("variant", VARIANTS)
def test_locations_and_invariants_at_every_step(variant):
    """The rules' ``locations`` cover the mafia; structural invariants hold at every decision."""
    def check(game):
        assert_conserved(game)
        assert_well_formed(game)
        check_invariants(game)
    for seed in range(40):
        random_playout(new_game(variant, seed=seed), random.Random(seed), check=check)


@pytest.mark.parametrize("variant", VARIANTS)
def test_com12_determinism_same_seed_same_game_with_scrambled_global_rngs(variant):
    """COM-12: same seed and actions give the same game; the global RNGs are never used."""
    for seed in range(5):
        digests = []
        for run in range(2):
            game = new_game(variant, seed=seed)
            rng = random.Random(100 + seed)
            trace = []
            while not game.is_over:
                random.seed(run * 1000 + len(trace))      # scramble global generators between steps
                np.random.seed(run * 7 + len(trace) % 100)
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
                trace.append(state_digest(game))
            digests.append(trace)
        assert digests[0] == digests[1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_different_seeds_give_different_deals(variant):
    """COM-12: the seed drives the shuffle."""
    hands = {tuple(new_game(variant, seed=s).state.hands[0]) for s in range(10)}
    assert len(hands) > 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_plays_on_exactly_like_the_original(variant):
    """A clone is independent and continues identically."""
    game = new_game(variant, seed=7)
    rng = random.Random(7)
    for _ in range(60):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    copy = game.clone()
    assert state_digest(copy) == state_digest(game)
    r1, r2 = random.Random(1), random.Random(1)
    while not game.is_over:
        legal = game.legal_actions()
        assert copy.legal_actions() == legal
        game.apply(legal[r1.randrange(len(legal))])
        copy.apply(legal[r2.randrange(len(legal))])
        assert state_digest(copy) == state_digest(game)
        assert copy.state.btype == game.state.btype and copy.state.treasury == game.state.treasury
    assert copy.scores() == game.scores() and copy.mafia_score() == game.mafia_score()


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_does_not_share_mafia_lists(variant):
    """Changing a clone's mafia leaves the original untouched."""
    game = new_game(variant, seed=3)
    copy = game.clone()
    copy.state.bcount[0] += 5
    copy.state.treasury.append(2)
    assert game.state.bcount != copy.state.bcount and game.state.treasury == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_json_round_trip_and_replay(variant):
    """A game round-trips through JSON mid-game and replays from its record."""
    for seed in range(4):
        game = new_game(variant, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            steps += 1
            if steps % 37 == 0:
                back = Game.from_json(game.to_json())
                assert state_digest(back) == state_digest(game)
                assert back.state.btype == game.state.btype and back.state.bcount == game.state.bcount
                assert back.state.treasury == game.state.treasury
                assert back.legal_actions() == game.legal_actions()
        again = replay(game.record())
        assert state_digest(again) == state_digest(game)
        assert again.mafia_score() == game.mafia_score() and again.winners() == game.winners()


@pytest.mark.parametrize("variant", VARIANTS)
def test_info3_sample_game_keeps_the_view(variant):
    """INFO-3: a determinisation of a player's view looks exactly the same to that player, keeps the
    mafia, the shown hands, and plays on legally."""
    for seed in range(12):
        game = new_game(variant, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 300)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        for p in range(game.num_players):
            view = game.view(p)
            for k in range(3):
                sample = view.sample_game(random.Random(k))
                assert sample.view(p).state.__dict__ == view.state.__dict__
                assert sample.mafia_score() == game.mafia_score()
                assert Counter(card_total(sample.state)) == Counter(game.rules.composition())
                random_playout(sample, random.Random(k), max_steps=50)


def test_info2_shown_hand_is_in_the_view_of_the_opponent_only_while_held():
    """INFO-2, MAF-9: cards of a shown hand stay known to the opponent while they stay in the hand."""
    found = 0
    for seed in range(60):
        game = new_game("al_cabohne", seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            s = game.state
            for p in range(2):
                known = game.view(1 - p).known_hands[p]
                for i, bit in enumerate(s.known[p]):
                    if bit & (1 << (1 - p)):
                        found += 1
                        assert known[i] is not None
                    else:
                        assert known[i] is None
    assert found > 0, "no shown hand in 60 random games"


def _random_position(variant: str, rng: random.Random):
    """A random legal-looking position: random bosses (unique types), fields, hands, face-up cards,
    discard, coins and run-outs, entered at a random phase."""
    from bean_env.engine.positions import PHASES, make_position
    types = ["blue", "kidney", "chili", "broad", "stink", "green", "runner"]
    n = 2 if variant == "al_cabohne" else 1
    nb = 2 if n == 2 else 3
    boss_types = rng.sample(types, nb)
    bosses = [(t, rng.randint(1, 6)) if rng.random() < 0.8 else None for t in boss_types]
    nfields = [3 if n == 1 or rng.random() < 0.3 else 2 for _ in range(n)]
    fields = [[(t, rng.randint(1, 4)) if rng.random() < 0.6 else None
               for t in rng.sample(types, nfields[p])] for p in range(n)]
    hands = [[rng.choice(types) for _ in range(rng.randint(0, 6))] for _ in range(n)]
    face_up = [rng.choice(types) for _ in range(rng.randint(0, 3))] if n == 2 else []
    discard = [rng.choice(types) for _ in range(rng.randint(0, 6))]
    phase = rng.choice(PHASES[variant][0])

    def pick(k: int) -> list[str]:
        return [rng.choice(types) for _ in range(k)]
    return make_position(variant, phase=phase, active=rng.randrange(n), hands=hands, fields=fields,
                         nfields=nfields, coins=[pick(rng.randint(0, 6)) for _ in range(n)], face_up=face_up,
                         discard=discard, runouts=rng.randint(0, 2) if n == 2 else 0,
                         seed=rng.randrange(10**6), areas={"bosses": bosses, "treasury": pick(rng.randint(0, 5))})


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_positions_play_on_legally_and_conserve_cards(variant):
    """Positions of every phase with random mafia, fields and hands: conservation and invariants hold
    on every step to the end of the game."""
    def check(game):
        assert_conserved(game)
        assert_well_formed(game)
        check_invariants(game)
    rng = random.Random(4242)
    for k in range(150):
        while True:
            try:
                game = _random_position(variant, rng)
                break
            except ValueError as e:  # too many cards of one type drawn: draw another position
                assert "more cards than the deck has" in str(e)
        random_playout(game, random.Random(k), check=check)
        assert game.is_over
