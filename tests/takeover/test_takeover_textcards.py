"""The 18 text cards (TXT-1..18), each on exact positions with its edge cases."""
from __future__ import annotations

from helpers import assert_conserved
from takeover_util import B, do, legal, pile, takeover_position, texts_conserved

ALL = (1 << 16) - 1


def check(game):
    assert_conserved(game)
    texts_conserved(game)


# TXT-1 -----------------------------------------------------------------------------------------------
def test_txt1_swap_two_fields_of_any_player_with_joker_and_protection():
    """TXT-1: swap the positions of two fields of one player (any player, one may be empty); the
    Jokerbohne and protection move with the cards."""
    g = takeover_position(3, fields=[[("soy", 2)], [("blue", 3), None, ("red", 1)], []], texts=[[0], [], []],
                          joker=(1, 0), guards={(1, 0): 2})
    plays = [m for m in legal(g) if m.startswith("Bohnenfelder")]
    assert "Bohnenfelder tauschen: player 1 fields 1 and 2" in plays
    assert "Bohnenfelder tauschen: player 2 fields 1 and 2" not in plays   # both empty: no effect
    do(g, "Bohnenfelder tauschen: player 1 fields 1 and 2")
    assert pile(g, 1, 1) == ["blue"] * 3 and pile(g, 1, 0) == []
    assert g.state.joker == 4 and g.state.guard[4] == 2 and g.state.guard[3] == -1
    assert g.decision == "turn"                      # a text card is not copied
    check(g)


# TXT-2 -----------------------------------------------------------------------------------------------
def test_txt2_chemiekeule_borrows_another_fields_beanometer():
    """TXT-2: a regular harvest uses the beanometer of a type on another own field; not Garden or Red."""
    g = takeover_position(3, fields=[[("stink", 5), ("black_eyed", 1), ("red", 2)], [], []], texts=[[1], [], []])
    do(g, "harvest field 1")
    assert legal(g) == ["Chemiekeule with field 2", "confirm"]       # red: not allowed
    do(g, "Chemiekeule with field 2", "confirm")
    assert len(g.state.coins[0]) == 3                # black-eyed meter: 5 cards = 3 coins (stink: 2)
    check(g)


def test_txt2_chemiekeule_with_schnittbohne_uses_in_play_scale():
    """TXT-2: the Schnittbohne meter may be borrowed, with its in-play scale (text cards)."""
    g = takeover_position(3, fields=[[("blue", 3), ("cutting", 1)], [], []], texts=[[1], [], []])
    do(g, "harvest field 1", "Chemiekeule with field 2", "confirm")
    assert g.state.coins[0] == [] and len(g.state.texts[0]) == 2
    check(g)


def test_txt2_chemiekeule_in_copied_harvest_but_not_txt18():
    """TXT-2: allowed with a copied d); not with Zusaetzliche Ernte (not a regular action)."""
    g = takeover_position(3, fields=[[("soy", 2)], [("stink", 5), ("black_eyed", 1)], []], texts=[[], [1], []])
    do(g, "harvest field 1")
    assert g.decision == "copy" and g.current_player == 1
    do(g, "harvest field 1")
    assert "Chemiekeule with field 2" in legal(g)
    g = takeover_position(3, fields=[[("stink", 5), ("black_eyed", 1)], [], []], texts=[[1, 17], [], []])
    do(g, "Zusaetzliche Ernte on field 1")
    assert legal(g) == ["confirm"]


# TXT-3 -----------------------------------------------------------------------------------------------
def test_txt3_extrakarte_takes_top_discard_known_to_all():
    """TXT-3: the top bean of the discard pile into hand (a sixth card is fine); never from an empty pile."""
    g = takeover_position(3, hands=[["soy"] * 5, [], []], texts=[[2], [], []], discard=["red", "blue"])
    do(g, "Extrakarte")
    s = g.state
    assert len(s.hands[0]) == 6 and s.discard == [B["red"]]
    k = s.hands[0].index(B["blue"])
    assert s.known[0][k] == ALL                        # everybody saw it
    g = takeover_position(3, texts=[[2], [], []])
    assert "Extrakarte" not in legal(g)


# TXT-4 -----------------------------------------------------------------------------------------------
def test_txt4_play_hand_cards_at_game_end_with_copies():
    """TXT-4: at the opening of one's final harvest, play hand cards onto fields, each placement copied
    (quota as HT-13) by players who have not harvested yet."""
    g = takeover_position(3, active=1, hands=[["soy"] * 2, ["blue"] * 3, ["red"] * 2],
                          fields=[[("soy", 2)], [("blue", 1)], [("red", 1)]],
                          texts=[[], [3], [9]], deck=[], under=0, runouts=3, fill_deck=False)
    g.state.end_pending = True
    do(g, "end turn")
    assert "Handkarten ausspielen bei Spielende" in legal(g)
    do(g, "Handkarten ausspielen bei Spielende")
    assert g.decision == "final_play"
    do(g, "play blue onto field 1", "add blue", "add blue", "confirm")
    # seat 2 has not harvested yet: it may copy (play its reds); seat 0 only after it (quota 1)
    assert (g.decision, g.current_player) == ("copy", 2)
    do(g, "play red onto field 1", "add red", "confirm")
    assert (g.decision, g.current_player) == ("final_play", 1)
    do(g, "done")
    assert legal(g) == ["final harvest field 1"]
    do(g, "final harvest field 1")                   # no text cards left: automatic, then next seat
    assert (g.decision, g.current_player) == ("final", 2)
    do(g, "final harvest field 1", "confirm", "done")
    assert g.is_over
    # blue x4 = 1, red x3 = 2 (+10 for the unused pizza), soy x2 = 1 (seat 0 harvests automatically)
    assert g.scores() == [100, 100, 210]
    check(g)


def test_txt4_only_at_the_opening_decision():
    """TXT-4: only the first decision point of one's final harvest offers it."""
    g = takeover_position(3, hands=[["blue"], [], []], fields=[[("blue", 1), ("soy", 2)], [], []],
                          texts=[[3, 9], [], []], deck=[], under=0, runouts=3, fill_deck=False)
    g.state.end_pending = True
    do(g, "end turn", "final harvest field 2", "confirm")
    assert "Handkarten ausspielen bei Spielende" not in legal(g)


# TXT-5 -----------------------------------------------------------------------------------------------
def test_txt5_swap_hands_both_know_both():
    """TXT-5: with 1-5 hand cards swap whole hands with another player (any size); both then know both."""
    g = takeover_position(3, hands=[["red"], ["soy"] * 6, ["blue"]], texts=[[4], [], []])
    assert "Handkarten tauschen with player 1" in legal(g)
    do(g, "Handkarten tauschen with player 1")
    s = g.state
    assert s.hands[0] == [B["soy"]] * 6 and s.hands[1] == [B["red"]]
    assert all(k & 0b011 == 0b011 for k in s.known[0] + s.known[1])
    assert all(k & 0b100 == 0 for k in s.known[0] + s.known[1])
    g = takeover_position(3, hands=[["red"] * 6, ["soy"], []], texts=[[4], [], []])
    assert not [m for m in legal(g) if m.startswith("Handkarten tauschen")]
    g = takeover_position(3, hands=[[], ["soy"], []], texts=[[4], [], []])
    assert not [m for m in legal(g) if m.startswith("Handkarten tauschen")]


# TXT-6 -----------------------------------------------------------------------------------------------
def test_txt6_jokerbohne_counts_as_a_card_never_a_coin():
    """TXT-6: only on Schnitt/Chili/Blue fields; counts as one card of the field's type for the meter and
    the one-card rule; never becomes a coin; goes to the text discard when the field is harvested."""
    g = takeover_position(3, fields=[[("blue", 3), ("soy", 2), ("chili", 1)], [], []], texts=[[5], [], []])
    joker = sorted(m for m in legal(g) if m.startswith("Jokerbohne"))
    assert joker == ["Jokerbohne on field 1", "Jokerbohne on field 3"]
    do(g, "Jokerbohne on field 3")
    assert "harvest field 3" in legal(g)             # one real bean + joker = 2 cards (COM-6)
    do(g, "harvest field 1")
    assert g.state.coins[0] == []                     # blue x3 = 0 coins
    g = takeover_position(3, fields=[[("blue", 3)], [], []], texts=[[5], [], []])
    do(g, "Jokerbohne on field 1", "harvest field 1")
    s = g.state
    assert s.coins[0] == [B["blue"]] and s.discard == [B["blue"]] * 2   # 4 cards -> 1 coin, a real one
    assert s.joker == -1 and s.tdiscard == [5]
    check(g)


def test_txt6_jokerbohne_counts_for_strength_and_moves_with_swaps():
    """TXT-6: counts for takeover strength; moves with the field in e) and TXT-1 (on a swapped field)."""
    g = takeover_position(3, fields=[[("chili", 2)], [("soy", 2)], []], texts=[[5, 0], [], []])
    assert not [m for m in legal(g) if m.startswith("attack")]
    do(g, "Jokerbohne on field 1")
    do(g, "attack player 1 field 1 with field 1")
    assert g.decision == "attack"
    do(g, "confirm")                                 # seat 1 has no text card: no defence
    s = g.state
    assert pile(g, 1, 0) == ["chili"] * 2 and s.joker == 3
    do(g, "Bohnenfelder tauschen: player 1 fields 1 and 3")
    assert s.joker == 5 and pile(g, 1, 2) == ["chili"] * 2
    check(g)


def test_txt6_jokerbohne_leaves_when_the_last_bean_is_stolen():
    """TXT-6/TXT-9: the pirate never takes the Jokerbohne; without beans it goes to the text discard."""
    g = takeover_position(3, fields=[[("blue", 2)], [("blue", 1)], []], texts=[[8], [], []], joker=(1, 0))
    do(g, "Piratenangriff on field 1")
    s = g.state
    assert pile(g, 0, 0) == ["blue"] * 3 and pile(g, 1, 0) == [] and s.joker == -1 and 5 in s.tdiscard
    check(g)


# TXT-7 -----------------------------------------------------------------------------------------------
def test_txt7_maechtiges_bohnenfeld_one_more_card_no_defence():
    """TXT-7: the attacking field counts one card more; the attack cannot be defended; not against a
    protected field."""
    g = takeover_position(3, fields=[[("blue", 2), ("blue", 2)], [("soy", 2), ("soy", 1)], []],
                          texts=[[6], [2], []], guards={(1, 1): 3})
    attacks = [m for m in legal(g) if m.startswith("attack")]
    assert attacks == ["attack player 1 field 1 with field 1"]   # field 2 is protected
    do(g, "attack player 1 field 1 with field 1")   # blue 2 vs soy 2: the card is needed, played at once
    assert pile(g, 0, 0) == ["soy"] * 2 and g.decision != "defend" and g.state.texts[1] == [2]
    assert 6 in g.state.tdiscard
    check(g)


def test_txt7_optional_for_an_undefendable_attack():
    """TXT-7/HT-16: a held TXT-7 may be added to an attack that is legal without it (no defence then)."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], texts=[[6], [2], []])
    do(g, "attack player 1 field 1 with field 1")
    assert legal(g) == ["Maechtiges Bohnenfeld", "confirm"]
    do(g, "Maechtiges Bohnenfeld", "confirm")
    assert pile(g, 0, 0) == ["soy"] * 2 and g.state.texts[1] == [2]


# TXT-8 -----------------------------------------------------------------------------------------------
def test_txt8_mutabohne_chain_then_harvest():
    """TXT-8: with a), cards of the next higher handicap type go onto the field; the field's type becomes
    the last type placed for everything (meter, fitting); repeatable with another Mutabohne."""
    g = takeover_position(3, hands=[["garden"] * 3, ["cutting"]], fields=[[("cutting", 3)], [], []],
                          texts=[[7], [], []])
    assert [m for m in legal(g) if m.startswith("play")] == [
        "play garden onto field 1 with Mutabohne", "play garden onto field 2", "play garden onto field 3"]
    do(g, "play garden onto field 1 with Mutabohne", "add garden", "confirm")
    s = g.state
    assert pile(g, 0, 0) == ["cutting"] * 3 + ["garden"] * 2 and s.ftype[0] == B["garden"]
    assert g.decision in ("copy", "turn")
    while g.decision == "copy":
        do(g, "pass")
    assert "play garden onto field 1" in legal(g)    # the last garden still fits; cutting does not
    do(g, "harvest field 1")
    # 5 cards by the Garden meter = 3 coins, the top three cards of the pile (COM-5)
    assert s.coins[0] == [B["garden"], B["garden"], B["cutting"]]
    assert s.discard == [B["cutting"]] * 2
    check(g)


def test_txt8_mutabohne_merge_only_higher_onto_lower():
    """TXT-8: with b), a field of the next higher type may move onto the lower one, not the reverse."""
    g = takeover_position(3, fields=[[("red", 2), ("black_eyed", 3), ("soy", 1)], [], []], texts=[[7], [], []])
    merges = [m for m in legal(g) if m.startswith("merge")]
    assert merges == ["merge field 2 onto field 1 with Mutabohne", "merge field 3 onto field 2 with Mutabohne"]
    do(g, "merge field 2 onto field 1 with Mutabohne")
    assert pile(g, 0, 0) == ["red"] * 2 + ["black_eyed"] * 3 and g.state.ftype[0] == B["black_eyed"]
    check(g)


# TXT-9 -----------------------------------------------------------------------------------------------
def test_txt9_piratenangriff_against_several_players():
    """TXT-9: from every other player whose field in the same position grows the same type, take the
    top real bean (protected fields too)."""
    g = takeover_position(4, fields=[[("chili", 1), ("soy", 1)], [("chili", 3)], [("soy", 1), ("chili", 2)],
                                     [("chili", 2)]], texts=[[8], [], [], []], guards={(3, 0): 2})
    plays = [m for m in legal(g) if m.startswith("Pirat")]
    assert plays == ["Piratenangriff on field 1"]
    do(g, "Piratenangriff on field 1")
    assert pile(g, 0, 0) == ["chili"] * 3 and pile(g, 1, 0) == ["chili"] * 2
    assert pile(g, 3, 0) == ["chili"] and pile(g, 2, 1) == ["chili"] * 2
    check(g)


# TXT-10..13 ------------------------------------------------------------------------------------------
def test_txt10_bohnbastica_adds_by_total_cards():
    """TXT-10: 14 cards on all fields before the harvest: +2."""
    g = takeover_position(3, fields=[[("soy", 4), ("blue", 6), ("green", 4)], [], []], texts=[[9], [], []])
    do(g, "harvest field 1", "Pizza Bohnbastica", "confirm")
    assert len(g.state.coins[0]) == 4                   # soy x4 = 2 coins + 2


def test_txt11_bohnotoni_sets_value_and_bonus_beyond_cards_counts():
    """TXT-11: 12 blue pays 6 (highest tier); TXT-10..13: bonus coins beyond the harvested cards still
    count (score without a card)."""
    g = takeover_position(3, fields=[[("blue", 12)], [], []], texts=[[10], [], []])
    do(g, "harvest field 1", "Pizza Bohnotoni", "confirm")
    assert len(g.state.coins[0]) == 6
    g = takeover_position(3, fields=[[("soy", 2), ("blue", 7), ("green", 5)], [], []], texts=[[9, 11], [], []])
    # 14 cards: Bohnbastica +2; every field >= 2 only: Calzbohne not met
    do(g, "harvest field 1")
    assert legal(g) == ["Pizza Bohnbastica", "confirm"]
    do(g, "Pizza Bohnbastica", "confirm")
    s = g.state
    assert len(s.coins[0]) == 2 and s.bonus[0] == 1 and g.scores()[0] == 300 + 10
    check(g)


def test_txt12_calzbohne_every_field_two_player_thresholds():
    """TXT-12: every field >= 3/4/5 cards: +1/+2/+3 (2 players: 4/5/6)."""
    g = takeover_position(3, fields=[[("soy", 4), ("blue", 5), ("green", 4)], [], []], texts=[[11], [], []])
    do(g, "harvest field 1", "Pizza Calzbohne", "confirm")
    assert len(g.state.coins[0]) == 2 + 2
    g = takeover_position(2, fields=[[("soy", 4), ("blue", 3)], []], texts=[[11], []])
    do(g, "harvest field 1")
    assert legal(g) == ["confirm"]


def test_txt13_diabohno_counts_four_types():
    """TXT-13: Schnitt + Garden + Red + Black-eyed cards together 7-8: +1 (mixed piles by real cards)."""
    g = takeover_position(3, fields=[[("red", 3), ["cutting", "cutting", "garden"], ("black_eyed", 1)], [], []],
                          texts=[[12], [], []])
    do(g, "harvest field 1", "Pizza Diabohno", "confirm")
    assert len(g.state.coins[0]) == 2 + 1


def test_txt10_13_pizzas_stack_in_the_final_harvest():
    """TXT-10..13/HT-19: in the final harvest pizzas apply to the field harvested next and stack;
    Bohnotoni sets the value, the others add."""
    g = takeover_position(3, fields=[[("blue", 12), ("red", 4), ("black_eyed", 3)], [], []],
                          texts=[[2, 9, 10, 11, 12], [], []], deck=[], under=0, runouts=3, fill_deck=False)
    g.state.end_pending = True
    do(g, "end turn", "final harvest field 1")
    assert legal(g) == ["Pizza Bohnbastica", "Pizza Bohnotoni", "Pizza Calzbohne", "Pizza Diabohno", "confirm"]
    do(g, "Pizza Bohnotoni", "Pizza Bohnbastica", "Pizza Calzbohne", "Pizza Diabohno", "confirm")
    # 19 cards: +3; each field >= 3: +1; red 4 + black-eyed 3 = 7: +1; Bohnotoni 12 blue = 6
    assert len(g.state.coins[0]) == 11 and g.state.bonus[0] == 0
    check(g)


# TXT-14 ----------------------------------------------------------------------------------------------
def test_txt14_samenhandel_six_types_choose_five_coin_and_redraw():
    """TXT-14: with 5+ types in hand show five different ones (known to all), one becomes a coin, then
    discard the other four and draw five (or keep them)."""
    hand = ["blue", "chili", "stink", "green", "soy", "red"]
    g = takeover_position(3, hands=[hand, [], []], texts=[[13], [], []], deck=["garden"] * 3 + ["red"] * 2)
    do(g, "Samenhandel")
    assert g.decision == "show" and len(legal(g)) == 6
    do(g, "show red", "show soy", "show green", "show blue")
    assert legal(g) == ["show chili", "show stink"]
    do(g, "show chili")
    assert legal(g) == ["red becomes a coin", "soy becomes a coin", "green becomes a coin",
                        "blue becomes a coin", "chili becomes a coin"]
    do(g, "blue becomes a coin")
    s = g.state
    assert s.coins[0] == [B["blue"]]
    shown = [c for c, k in zip(s.hands[0], s.known[0]) if k == ALL]
    assert sorted(shown) == sorted([B["red"], B["soy"], B["green"], B["chili"]])
    do(g, "discard four, draw five")
    assert sorted(s.hands[0]) == sorted([B["stink"], B["garden"], B["garden"], B["garden"], B["red"], B["red"]])
    assert g.decision == "turn"
    check(g)


def test_txt14_samenhandel_needs_five_types_keep_option():
    g = takeover_position(3, hands=[["blue", "chili", "stink", "green"], [], []], texts=[[13], [], []])
    assert "Samenhandel" not in legal(g)
    g = takeover_position(3, hands=[["blue", "chili", "stink", "green", "soy"], [], []], texts=[[13], [], []])
    do(g, "Samenhandel", "show blue", "show chili", "show stink", "show green", "show soy", "soy becomes a coin",
       "keep the shown cards")
    assert len(g.state.hands[0]) == 4 and all(k == ALL for k in g.state.known[0])


# TXT-15 ----------------------------------------------------------------------------------------------
def test_txt15_seven_new_cards_passive_only_gardens_stay_under():
    """TXT-15: only a passive player (at a copy prompt): the hand is shuffled into the deck, 7 drawn; the
    Garden beans under the deck stay."""
    g = takeover_position(3, hands=[["blue"], ["soy", "soy"], []], fields=[[None] * 3, [None] * 3, []],
                          texts=[[14], [14 - 1], []])
    assert "Sieben neue Handkarten" not in legal(g)       # the active player may not
    g = takeover_position(3, hands=[["blue"], ["soy", "soy"], []], fields=[[None] * 3, [("red", 1)] * 3, []],
                          texts=[[], [14], []])
    do(g, "play blue onto field 1", "confirm")
    assert (g.decision, g.current_player) == ("copy", 1)
    before = len(g.state.deck)
    do(g, "Sieben neue Handkarten")
    s = g.state
    assert len(s.hands[1]) == 7 and len(s.deck) == before + 2 - 7 and s.set_aside == [B["garden"]] * 2
    assert g.decision == "copy" and g.current_player == 1    # may still copy or pass
    check(g)


# TXT-16 ----------------------------------------------------------------------------------------------
def test_txt16_starke_uebernahme_after_a_defence():
    """TXT-16/HT-16 prompt 3: after a defence the attacker may play it: the takeover succeeds, the defence
    card goes to the attacker, the defender draws a text card."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], texts=[[15], [2], []], tdeck=[9])
    do(g, "attack player 1 field 1 with field 1")
    assert g.decision == "attack" and legal(g) == ["confirm"]   # TXT-16 only for a protected target
    do(g, "confirm", "defend with Extrakarte")
    assert (g.decision, g.current_player) == ("override", 0)
    assert legal(g) == ["play Starke Uebernahme", "accept the defence"]
    do(g, "play Starke Uebernahme")
    s = g.state
    assert pile(g, 0, 0) == ["soy"] * 2 and pile(g, 1, 0) == ["blue"] * 3
    assert s.texts[0] == [2] and s.texts[1] == [9] and s.guard == [-1] * 9
    check(g)


def test_txt16_against_a_protected_field():
    """TXT-16/HT-16: a protected target may be attacked only together with TXT-16 (no TXT-7/17)."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], texts=[[6, 15, 16], [], []],
                          guards={(1, 0): 2}, tdeck=[9])
    do(g, "attack player 1 field 1 with field 1")
    assert g.state.cmods == [15] and legal(g) == ["confirm"]   # TXT-16 played at once; no TXT-7/17
    do(g, "confirm")
    s = g.state
    assert pile(g, 0, 0) == ["soy"] * 2 and 2 in s.texts[0] and s.texts[1] == [9]
    check(g)
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], texts=[[6, 16], [], []], guards={(1, 0): 2})
    assert not [m for m in legal(g) if m.startswith("attack")]


# TXT-17 ----------------------------------------------------------------------------------------------
def test_txt17_variables_bohnenfeld_any_positions_no_defence():
    """TXT-17: any own field for any weaker field of the target, whatever the positions; no defence."""
    g = takeover_position(3, fields=[[("blue", 4), None, None], [None, None, ("soy", 2)], []],
                          texts=[[16], [2], []])
    assert [m for m in legal(g) if m.startswith("attack")] == ["attack player 1 field 3 with field 1"]
    do(g, "attack player 1 field 3 with field 1")           # TXT-17 is needed: played at once
    assert pile(g, 0, 0) == ["soy"] * 2 and pile(g, 1, 2) == ["blue"] * 4
    assert g.state.texts[1] == [2]                  # no defence was possible
    check(g)


def test_txt17_with_a_copied_takeover():
    """TXT-17: usable with a copied e)."""
    g = takeover_position(3, fields=[[("blue", 4)], [None, ("chili", 5)], [("soy", 2), ("red", 1)]],
                          texts=[[], [16], []])
    do(g, "attack player 2 field 1 with field 1")
    assert g.current_player == 1
    assert "attack player 2 field 2 with field 2" in legal(g)
    do(g, "attack player 2 field 1 with field 2")
    assert pile(g, 1, 1) == ["blue"] * 4 and pile(g, 2, 0) == ["chili"] * 5
    check(g)


# TXT-18 ----------------------------------------------------------------------------------------------
def test_txt18_extra_harvest_one_card_field_not_d_not_copied():
    """TXT-18: harvest any own field, even a one-card field; not an action d), not copied."""
    g = takeover_position(3, fields=[[("blue", 1), ("soy", 4)], [("soy", 3)], []], texts=[[17], [], []],
                          harvested=True)
    assert "Zusaetzliche Ernte on field 1" in legal(g)
    do(g, "Zusaetzliche Ernte on field 1")
    assert g.decision == "turn" and pile(g, 0, 0) == []            # no copy prompt, d) still used
    assert g.state.harvested == 1
    check(g)


def test_txt8_mutabohne_again_on_a_mixed_pile():
    """TXT-8: the mutation may be repeated later with another Mutabohne (here: the card came back);
    earlier types no longer fit; the harvest uses the last type's beanometer for every card."""
    g = takeover_position(3, hands=[["red"] * 3, [], []],
                          fields=[[["cutting", "cutting", "garden"], None, None], [], []], texts=[[7], [], []])
    assert legal(g)[:2] == ["end turn", "play red onto field 1 with Mutabohne"]
    do(g, "play red onto field 1 with Mutabohne", "add red", "add red", "confirm")
    assert pile(g, 0, 0) == ["cutting", "cutting", "garden", "red", "red", "red"]
    do(g, "harvest field 1")
    # 6 cards by the Red meter (2/3/4/5) = 4 coins: the top four cards
    assert g.state.coins[0] == [B["red"]] * 3 + [B["garden"]]
    check(g)


def test_card3_cutting_harvest_in_play_and_final():
    """CARD-3: 5 Schnittbohne (4 + Jokerbohne) in play pay 1 coin and 2 text cards; in the final harvest
    8 pay 4 coins and no text card."""
    g = takeover_position(3, fields=[[("cutting", 4)], [], []], texts=[[], [], []], joker=(0, 0), tdeck=[3, 4])
    do(g, "harvest field 1")
    s = g.state
    assert s.coins[0] == [B["cutting"]] and sorted(s.texts[0]) == [3, 4] and 5 in s.tdiscard
    check(g)
    g = takeover_position(3, fields=[[("cutting", 8)], [], []], deck=[], under=0, runouts=3, fill_deck=False)
    g.state.end_pending = True
    do(g, "end turn")
    assert g.is_over and g.state.coins[0] == [B["cutting"]] * 4 and g.state.texts[0] == []


def test_txt9_pirate_takes_last_bean_of_a_protected_field_protection_ends():
    """TXT-9/HT-12: protection does not guard against the pirate; a field that loses its last bean loses
    its protection (the defence card goes to the text discard)."""
    g = takeover_position(3, fields=[[("soy", 2)], [("soy", 1)], [("soy", 3)]], texts=[[8], [], []],
                          guards={(1, 0): 2})
    do(g, "Piratenangriff on field 1")
    s = g.state
    assert pile(g, 0, 0) == ["soy"] * 4 and pile(g, 1, 0) == [] and pile(g, 2, 0) == ["soy"] * 2
    assert s.guard[3] == -1 and sorted(s.tdiscard) == [2, 8]
    check(g)


def test_txt9_two_players_same_position_only():
    """TXT-9 (2 players): only the opponent's field in the same position counts."""
    g = takeover_position(2, fields=[[("chili", 1), ("blue", 1)], [("blue", 2), ("chili", 2)]], texts=[[8], []])
    assert not [m for m in legal(g) if m.startswith("Pirat")]
