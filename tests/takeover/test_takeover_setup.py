"""Set-up, deck and scales of hostile_takeover (HT-1..4, CARD-2..4)."""
from __future__ import annotations

from collections import Counter

import pytest
from helpers import assert_conserved
from takeover_util import B, legal, texts_conserved

from bean_env import new_game
from bean_env.cards import DECKS, handicap
from bean_env.engine.takeover.textcards import (MUTATION_ORDER, bohnbastica, bohnotoni, calzbohne, cutting_final,
                                       cutting_in_play, diabohno, meter_value, next_type)


def test_card2_ht_deck_is_german_base_plus_14_cutting():
    """CARD-2: HT = DE plus 14 Schnittbohne = 118 cards."""
    deck = DECKS["HT"]
    assert sum(deck.values()) == 118
    assert deck[B["cutting"]] == 14
    assert sum(DECKS["DE"].values()) + 14 == 118


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ht1_ht2_setup(n):
    """HT-1 fields (2 players: 2, else 3) each with one turned-up card, 5 hand cards, 2 Garden beans
    under the deck; HT-2 two text cards each (2 players: 3)."""
    g = new_game("hostile_takeover", seed=11, num_players=n)
    s = g.state
    assert s.set_aside == [B["garden"], B["garden"]]
    for p in range(n):
        assert s.nfields[p] == (2 if n == 2 else 3)
        assert [len(s.piles[p * 3 + f]) for f in range(s.nfields[p])] == [1] * s.nfields[p]
        assert len(s.hands[p]) == 5
        assert len(s.texts[p]) == (3 if n == 2 else 2)
    assert s.limit == (1 if n == 2 else 3)  # HT-6
    assert len(s.deck) == 118 - 2 - n * (s.nfields[0] + 5)
    assert_conserved(g)
    texts_conserved(g)


def test_ht1_garden_beans_cannot_be_drawn():
    """HT-1: the two Garden beans under the deck are not part of the draw deck."""
    g = new_game("hostile_takeover", seed=3, num_players=3)
    assert Counter(g.state.deck)[B["garden"]] + sum(
        Counter(h)[B["garden"]] for h in g.state.hands) + sum(
        1 for pile in g.state.piles for c in pile if c == B["garden"]) == 4


def test_ht4_starting_player_by_seed_and_free_turn():
    """HT-4: the starting player comes from the seed; a turn may end at once (end turn is legal)."""
    starts = {new_game("hostile_takeover", seed=k, num_players=4).state.active for k in range(40)}
    assert starts == {0, 1, 2, 3}
    g = new_game("hostile_takeover", seed=5, num_players=4)
    assert g.current_player == g.state.active and "end turn" in legal(g)


def test_ht3_hand_sorted_no_order_and_no_trading_or_buying():
    """HT-3: no hand order (kept sorted, actions name types), no trading and no field buying."""
    g = new_game("hostile_takeover", seed=8, num_players=3)
    for h in g.state.hands:
        assert h == sorted(h)
    kinds = {a.kind.name if hasattr(a.kind, "name") else a.kind for a in g.legal_actions()}
    assert not any(k in ("OFFER", "BUY_FIELD", "PLANT") for k in kinds)


def test_card3_cutting_scales():
    """CARD-3: in play 1 nothing, 2 one text card, 3-4 two, 5-6 two + 1 coin, 7+ two + 2 coins;
    final harvest: <=3 nothing, 4-5 one, 6 two, 7 three, >=8 four."""
    assert [cutting_in_play(n) for n in range(1, 10)] == [
        (0, 0), (0, 1), (0, 2), (0, 2), (1, 2), (1, 2), (2, 2), (2, 2), (2, 2)]
    assert [cutting_final(n) for n in range(1, 11)] == [0, 0, 0, 1, 1, 2, 3, 4, 4, 4]
    assert meter_value(B["cutting"], 5, final=False) == (1, 2)
    assert meter_value(B["cutting"], 5, final=True) == (1, 0)
    assert meter_value(B["blue"], 10, final=False) == (4, 0)


def test_card4_handicap_values_and_mutation_order():
    """CARD-4: Schnitt 4, Garden 6, Red 8, Black-eyed 10, Soy 12, Green 14, Stink 16, Chili 18, Blue 20;
    TXT-8 follows this order."""
    assert [handicap(t) for t in MUTATION_ORDER] == [4, 6, 8, 10, 12, 14, 16, 18, 20]
    assert next_type(B["cutting"]) == B["garden"] and next_type(B["chili"]) == B["blue"]
    assert next_type(B["blue"]) == -1


def test_txt10_to_13_pizza_tiers():
    """TXT-10..13 tier tables (Bohnotoni: highest tier that holds; Calzbohne 2-player thresholds)."""
    assert [bohnbastica(k) for k in (11, 12, 13, 14, 16, 17, 30)] == [0, 1, 1, 2, 2, 3, 3]
    assert [bohnotoni(B["blue"], k, False) for k in (10, 11, 12, 13, 14)] == [0, 5, 6, 7, 7]
    assert bohnotoni(B["cutting"], 12, False) == 0          # the in-play scale never pays 4 coins
    assert [bohnotoni(B["cutting"], k, True) for k in (8, 9, 10, 11)] == [0, 5, 6, 7]
    assert bohnotoni(B["garden"], 20, False) == 0
    assert calzbohne([3, 3, 3], False) == 1 and calzbohne([5, 9, 5], False) == 3
    assert calzbohne([2, 9, 9], False) == 0 and calzbohne([0, 9, 9], False) == 0
    assert calzbohne([3, 3], True) == 0 and calzbohne([4, 5], True) == 1 and calzbohne([6, 6], True) == 3
    assert [diabohno(k) for k in (6, 7, 8, 9, 10, 11)] == [0, 1, 1, 2, 2, 3]


def test_ht2_render_shows_own_text_cards_only():
    """HT-2: a player's text cards are known to them only; the rendering for a viewer names only theirs."""
    from bean_env.engine.actions import TEXT_NAMES
    from bean_env.render import render_game
    g = new_game("hostile_takeover", seed=2, num_players=3)
    mine = [TEXT_NAMES[c] for c in g.state.texts[0]]
    theirs = [TEXT_NAMES[c] for c in g.state.texts[1] + g.state.texts[2]]
    text = render_game(g, viewer=0)
    assert all(name in text for name in mine)
    assert not any(name in text for name in theirs)
    assert all(name in render_game(g) for name in theirs)
