"""Random-game properties of hostile_takeover: conservation of bean and text cards after every action,
determinism, clone, JSON round trip and INFO-3 (no leakage through views)."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from helpers import assert_conserved, assert_well_formed, random_playout, state_digest
from takeover_util import deal_texts, texts_conserved

from bean_env import Game, new_game, replay
from bean_env.cards import DECKS

PLAYERS = (2, 3, 4, 5)


def short_game(n: int, seed: int, cut: int | None) -> Game:
    """A game with small budgets; with ``cut`` all but ``cut`` deck cards leave the game (``removed``),
    so run-outs, the game end and the final harvest come quickly."""
    g = new_game("hostile_takeover", seed=seed, num_players=n, max_turns=4 if cut is None else 40,
                 max_actions_per_turn=4)
    if cut is not None:
        s = g.state
        s.removed = s.deck[:-cut]
        s.deck = s.deck[-cut:]
    return g


def full_check(g: Game) -> None:
    assert_conserved(g)
    texts_conserved(g)
    assert_well_formed(g)
    names = [str(a) for a in g.legal_actions()]
    assert len(set(names)) == len(names), f"two legal actions print alike at {g.decision!r}: {names}"


_BEANS = sorted(c for t, k in DECKS["HT"].items() for c in [t] * k)
_TEXTS = list(range(18))


def fast_check(g: Game) -> None:
    """Both conservations as one sorted list each (the same places as ``locations``/``text_locations``,
    cheap enough for every step of thousands of games)."""
    s = g.state
    beans = s.deck + s.discard + s.set_aside + s.face_up + s.removed
    for group in (s.hands, s.piles, s.coins):
        for cards in group:
            beans += cards
    beans.sort()
    if beans != _BEANS:
        full_check(g)
        raise AssertionError("bean cards not conserved")
    texts = s.tdeck + s.tdiscard + s.cmods + [x for x in s.guard if x != -1]
    for h in s.texts:
        texts += h
    if s.joker >= 0:
        texts.append(5)
    texts.sort()
    if texts != _TEXTS:
        raise AssertionError(f"text cards not conserved: {texts}")
    if not g.is_over:
        assert g.legal_actions(), f"no legal action at {g.decision!r}"


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_card_conservation_2000_random_games(n):
    """CARD-2 / HT-2: every bean card and every text card is in exactly one place after every action,
    over 2,000 seeded random games per player count (half of them with a cut deck that reaches the
    run-outs, the game end and the final harvest)."""
    ended = 0
    for seed in range(2000):
        g = short_game(n, seed, cut=None if seed % 2 else 6 + seed % 7)
        check = full_check if seed % 50 == 0 else fast_check   # the rules' own hooks in every 50th game
        random_playout(g, random.Random(seed), check=check)
        ended += g.is_over and not g.is_truncated
    assert ended >= 900


@pytest.mark.parametrize("n", PLAYERS)
def test_full_length_games_end_and_score(n):
    """HT-14/HT-17: full random games with the default budgets end (not truncated); scores are integer
    hundredths; the winners hold the best score."""
    for seed in range(3):
        g = new_game("hostile_takeover", seed=seed, num_players=n, max_actions_per_turn=20)
        random_playout(g, random.Random(seed))
        assert g.is_over and not g.is_truncated
        sc = g.scores()
        assert all(isinstance(x, int) for x in sc)
        assert g.winners() == [p for p in range(n) if sc[p] == max(sc)]
        full_check(g)


@pytest.mark.parametrize("n", PLAYERS)
def test_com12_determinism_global_rngs_untouched(n):
    """COM-12: the same seed and actions give the same game; scrambling the global RNGs between steps
    changes nothing."""
    def run(scramble: bool):
        g = short_game(n, 77, cut=12)
        rng, noise = random.Random(5), random.Random(6)
        digests = []
        while not g.is_over:
            if scramble:
                random.seed(noise.random())
                np.random.seed(noise.randrange(2**31))
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            s = g.state
            digests.append(state_digest(g) + json.dumps([s.texts, s.tdeck, s.tdiscard, s.piles]))
        return digests, g
    a, ga = run(False)
    b, gb = run(True)
    assert a == b
    assert ga.to_json() == gb.to_json()


@pytest.mark.parametrize("n", PLAYERS)
def test_clone_plays_on_exactly_and_json_round_trip(n):
    """Clone and JSON: a clone (or a restored game) plays on exactly like the original; replay of the
    record gives the same state."""
    g = new_game("hostile_takeover", seed=n, num_players=n, max_actions_per_turn=6)
    rng = random.Random(n)
    for _ in range(150):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    c = g.clone()
    j = Game.from_json(g.to_json())
    assert j.to_json() == g.to_json()
    r = replay(json.loads(json.dumps(g.record())))
    assert r.to_json() == g.to_json()
    rng2 = random.Random(99)
    while not g.is_over:
        legal = g.legal_actions()
        assert c.legal_actions() == legal == j.legal_actions()
        a = legal[rng2.randrange(len(legal))]
        for game in (g, c, j):
            game.apply(a)
    assert c.to_json() == g.to_json() == j.to_json()


def _visible(view) -> str:
    d = view.state.to_dict()
    d.pop("seed", None)
    d.pop("shuffles", None)
    return json.dumps(d, sort_keys=True)


@pytest.mark.parametrize("n", PLAYERS)
def test_info3_resampled_games_look_the_same(n):
    """INFO-3/HT-2: resampling what a player cannot see (other hands, deck order, others' text cards,
    face-down defence cards, text deck) leaves that player's view unchanged; the sample conserves cards."""
    for seed in range(12):
        g = short_game(n, seed, cut=None if seed % 3 else 10)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 120)):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        for p in range(n):
            view = g.view(p)
            sample = view.sample_game(random.Random(seed * 10 + p))
            assert _visible(sample.view(p)) == _visible(view)
            assert_conserved(sample)
            texts_conserved(sample)
            if not g.is_over:
                assert sample.legal_actions() == g.legal_actions() or g.current_player != p


def test_info1_others_text_cards_hidden_counts_public():
    """HT-2/INFO-1: others' text cards are hidden, their number is public; own text cards are seen."""
    g = new_game("hostile_takeover", seed=4, num_players=3)
    v = g.view(0)
    s = v.state
    assert s.texts[0] == g.state.texts[0]
    assert s.texts[1] == [-1, -1] and s.texts[2] == [-1, -1]
    assert all(c == -1 for c in s.tdeck)


COMPOSITE = ("play", "place", "harvest", "attack", "show", "seed_coin", "seed_keep")
FINISH = ("confirm", "keep the shown cards")


def test_agt2_every_partial_composite_can_be_finished():
    """AGT-2: inside every composite decision met in random games, always taking 'confirm' (or the first
    legal action) leads back to a top-level decision within a few steps."""
    met = set()
    for n in PLAYERS:
        for seed in range(15):
            g = short_game(n, seed, cut=20)
            rng = random.Random(seed)
            while not g.is_over:
                if g.decision in COMPOSITE and g.current_player == g.state.owner:
                    met.add(g.decision)
                    c = g.clone()
                    for _ in range(20):
                        if c.decision not in COMPOSITE:
                            break
                        legal = [str(a) for a in c.legal_actions()]
                        c.apply(next((m for m in legal if m in FINISH), legal[0]))
                    assert c.decision not in COMPOSITE
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
    assert {"play", "place", "attack"} <= met


def test_info2_shown_and_swapped_cards_visible_to_the_right_players():
    """INFO-2: TXT-5 swapped hands are known to both players (not to a third); TXT-3 and TXT-14 cards are
    known to everybody; views carry exactly that."""
    from takeover_util import do, takeover_position
    g = takeover_position(3, hands=[["red"], ["soy", "soy"], ["blue"]], texts=[[4, 2], [], []],
                          discard=["chili"])
    do(g, "Handkarten tauschen with player 1", "Extrakarte")
    v1, v2 = g.view(1), g.view(2)
    assert v1.known_hands[0] == ["chili", "soy", "soy"]
    assert v2.known_hands[0] == ["chili", None, None]        # known cards first, order leaks nothing
    assert v2.known_hands[1] == [None]
    assert g.view(0).known_hands[1] == ["red"]


@pytest.mark.parametrize("n", PLAYERS)
def test_text_heavy_random_games_conserve_and_resample(n):
    """TXT-1..18 under random play with the whole text deck dealt out: both conservations after every
    action; every view's resampled game is consistent (cards conserved, a legal action exists)."""
    for seed in range(150):
        g = short_game(n, seed, cut=None if seed % 2 else 5 + seed % 20)
        rng = random.Random(seed)
        deal_texts(g, rng)
        steps = 0
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            steps += 1
            fast_check(g)
            if steps % 41 == 0:
                for p in range(n):
                    fast_check(g.view(p).sample_game(random.Random(steps + p)))


def test_ht11_fast_attack_list_matches_the_rule_check():
    """HT-11/HT-16: the takeover starts offered equal a brute-force check of every field pair with the
    rule test ``required_mods`` (strength, positions, protection, TXT-7/16/17, HT-13 bans)."""
    from bean_env import Action, Kind
    checked = 0
    for n in PLAYERS:
        for seed in range(20):
            g = short_game(n, seed, cut=None)
            s = g.state
            rng = random.Random(seed)
            while s.tdeck:
                s.texts[rng.randrange(n)].append(s.tdeck.pop())
            for hand in s.texts:
                hand.sort()
            while not g.is_over:
                if g.decision in ("turn", "copy"):
                    p, rules = g.current_player, g.rules
                    brute = set()
                    for q in rules.targets(s, p):
                        for j in rules.fields_of(s, q):
                            for i in rules.fields_of(s, p):
                                if s.piles[i] and s.piles[j] and \
                                        rules.required_mods(s, i, j, s.texts[p]) is not None:
                                    brute.add(Action(Kind.HT_ATTACK, q, (i - p * 3) * 3 + j - q * 3))
                    assert set(rules.attack_starts(s, p)) == brute
                    checked += 1
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
    assert checked > 500
