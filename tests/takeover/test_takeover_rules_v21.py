"""TXT-16 (v2.1): Starke Uebernahme reaches the text discard pile only after the defender's
compensation draw, so the defender can never draw it back."""
from __future__ import annotations

import pytest

from helpers import assert_conserved
from takeover_util import do, takeover_position, texts_conserved

STRONG, EXTRAKARTE = 15, 2
# every text card but Starke Uebernahme and the defence card, held by seat 2, so text deck and text
# discard pile are both empty
OTHERS = [c for c in range(18) if c not in (STRONG, EXTRAKARTE)]


def check(game) -> None:
    assert_conserved(game)
    texts_conserved(game)


def test_txt16_after_a_defence_the_defender_cannot_draw_it_back():
    """TXT-16 / HT-16 prompt 3: text deck and discard pile empty: the defender's draw finds nothing
    (Starke Uebernahme is not yet discarded), then Starke Uebernahme goes to the text discard pile."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []],
                          texts=[[STRONG], [EXTRAKARTE], OTHERS])
    assert g.state.tdeck == [] and g.state.tdiscard == []
    do(g, "attack player 1 field 1 with field 1", "confirm", "defend with Extrakarte", "play Starke Uebernahme")
    s = g.state
    assert s.texts[1] == []                       # the defender drew nothing
    assert s.texts[0] == [EXTRAKARTE]             # the defence card went to the attacker
    assert s.tdiscard == [STRONG] and s.tdeck == []
    assert s.piles[0] == [s.piles[0][0]] * 2      # the fields swapped: soy is now the attacker's
    check(g)


def test_txt16_with_an_attack_on_a_protected_field_the_defender_cannot_draw_it_back():
    """TXT-16 played with the attack on a protected field: the same order (draw, then discard)."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []],
                          texts=[[STRONG], [], OTHERS], guards={(1, 0): EXTRAKARTE})
    do(g, "attack player 1 field 1 with field 1")   # TXT-16 is needed and the only choice: carried out
    s = g.state
    assert s.texts[1] == [] and s.texts[0] == [EXTRAKARTE] and s.tdiscard == [STRONG]
    check(g)


@pytest.mark.parametrize("seed", range(8))
def test_txt16_the_reshuffled_text_deck_never_holds_it(seed):
    """TXT-16: text deck empty, text discard pile not: the defender's draw reshuffles the discard pile,
    which does not hold Starke Uebernahme yet; it is discarded after the draw."""
    discard = [0, 4, 9, 13]
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], seed=seed,
                          texts=[[STRONG], [EXTRAKARTE], [c for c in OTHERS if c not in discard]],
                          tdiscard=discard)
    assert g.state.tdeck == []
    do(g, "attack player 1 field 1 with field 1", "confirm", "defend with Extrakarte", "play Starke Uebernahme")
    s = g.state
    assert len(s.texts[1]) == 1 and s.texts[1][0] in discard
    assert s.tdiscard == [STRONG] and sorted(s.tdeck + s.texts[1]) == discard
    check(g)
