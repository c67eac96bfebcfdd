"""Regular actions a-e, copying, defence, turn end, run-outs and the game end (HT-5..19)."""
from __future__ import annotations

from helpers import assert_conserved
from takeover_util import B, do, legal, pile, takeover_position, texts_conserved


def check(game):
    assert_conserved(game)
    texts_conserved(game)


# -- a) play ---------------------------------------------------------------------------------------
def test_ht7_play_one_type_onto_one_field():
    """HT-7: cards of one type onto one empty field or one of that type; one action = one field."""
    g = takeover_position(3, hands=[["blue", "blue", "chili"], [], []],
                          fields=[[("blue", 2), None, ("soy", 1)], [], []])
    plays = [m for m in legal(g) if m.startswith("play")]
    assert plays == ["play blue onto field 1", "play blue onto field 2", "play chili onto field 2"]
    do(g, "play blue onto field 1")
    assert legal(g) == ["add blue", "confirm"]      # only the chosen type; the first card is placed
    do(g, "add blue")
    assert legal(g) == ["confirm"]                 # no third blue in hand
    do(g, "confirm")
    assert pile(g, 0, 0) == ["blue"] * 4 and g.state.hands[0] == [B["chili"]]
    assert g.decision == "turn"                    # nobody could copy (empty hands, no text cards)
    assert [m for m in legal(g) if m.startswith("play")] == ["play chili onto field 2"]
    check(g)


# -- b) merge -------------------------------------------------------------------------------------
def test_ht8_merge_same_type_never_onto_empty():
    """HT-8: a field moves onto another field of the same type; never onto an empty field."""
    g = takeover_position(3, fields=[[("blue", 2), ("blue", 3), ("soy", 1)], [], []])
    merges = [m for m in legal(g) if m.startswith("merge")]
    assert merges == ["merge field 1 onto field 2", "merge field 2 onto field 1"]
    do(g, "merge field 2 onto field 1")
    assert pile(g, 0, 0) == ["blue"] * 5 and pile(g, 0, 1) == []
    assert not [m for m in legal(g) if m.startswith("merge")]
    check(g)


# -- c) turn up -----------------------------------------------------------------------------------
def test_ht9_turn_up_needs_an_empty_field_one_card_per_action():
    """HT-9: with an empty field, turn up the top card and choose an empty field for it."""
    full = [("green", 1)] * 3
    g = takeover_position(3, fields=[[("blue", 2), None, None], full, full], deck=["red", "soy"])
    do(g, "turn up a card")
    assert g.decision == "place" and g.state.face_up == [B["red"]]
    assert legal(g) == ["place it on field 2", "place it on field 3"]
    do(g, "place it on field 3")
    assert pile(g, 0, 2) == ["red"]
    do(g, "turn up a card", "place it on field 2")
    assert pile(g, 0, 1) == ["soy"]
    assert "turn up a card" not in legal(g)
    check(g)


# -- d) harvest -----------------------------------------------------------------------------------
def test_ht10_harvest_once_per_turn_and_one_card_rule():
    """HT-10/COM-6: one harvest per turn for the active player; a one-card field only if no field has 2+."""
    g = takeover_position(3, fields=[[("blue", 1), ("soy", 4), ("red", 2)], [], []])
    assert [m for m in legal(g) if m.startswith("harvest")] == ["harvest field 2", "harvest field 3"]
    do(g, "harvest field 2")
    assert g.state.coins[0] == [B["soy"]] * 2 and g.state.harvested == 1
    assert not [m for m in legal(g) if m.startswith("harvest")]
    do(g, "end turn")
    assert g.state.harvested == 0
    check(g)


def test_ht15_harvest_only_by_d_copy_txt18_or_final():
    """HT-15: no harvest at a copy prompt of another kind of action."""
    g = takeover_position(3, hands=[["blue"], ["soy"], []], fields=[[None, None, None], [("red", 3)], []])
    do(g, "play blue onto field 1", "confirm")
    assert g.decision == "copy" and g.current_player == 1
    assert not [m for m in legal(g) if "harvest" in m]


# -- e) takeover -----------------------------------------------------------------------------------
def test_ht11_strength_more_cards_then_lower_handicap():
    """HT-11: more cards wins; equal count: the lower handicap value wins; equal both: no takeover;
    only the same position."""
    g = takeover_position(3, fields=[[("blue", 3), ("soy", 3), ("soy", 2)],
                                     [("soy", 3), ("blue", 3), ("soy", 2)], []])
    attacks = sorted(m for m in legal(g) if m.startswith("attack"))
    assert attacks == ["attack player 1 field 2 with field 2"]
    do(g, "attack player 1 field 2 with field 2")    # no text cards: no defence prompt
    assert pile(g, 0, 1) == ["blue"] * 3 and pile(g, 1, 1) == ["soy"] * 3
    check(g)


def test_ht11_empty_fields_cannot_be_swapped():
    """HT-11: both fields non-empty."""
    g = takeover_position(3, fields=[[("blue", 3), None, None], [None, ("soy", 1), None], []])
    assert not [m for m in legal(g) if m.startswith("attack")]


def test_ht16_ht12_defence_fails_takeover_and_protects_until_turn_end():
    """HT-16 prompts 2-4 and HT-12: a defence card makes the attempt fail and protects the field against
    takeovers only, until another player becomes active; the card then goes to the text discard."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], [("red", 1)]],
                          texts=[[], [2], []])
    do(g, "attack player 1 field 1 with field 1")
    assert g.decision == "defend" and g.current_player == 1
    assert legal(g) == ["defend with Extrakarte", "no defence"]
    do(g, "defend with Extrakarte")
    assert g.state.guard[3] == 2 and pile(g, 1, 0) == ["soy"] * 2   # failed: nothing moved
    assert g.decision == "copy"                     # a failed takeover still counts (copying follows)
    check(g)
    do(g, "pass")
    assert g.decision == "turn"
    assert not [m for m in legal(g) if m.startswith("attack player 1")]
    do(g, "end turn")
    assert g.state.guard[3] == -1 and g.state.tdiscard == [2]
    check(g)


def test_ht16_no_defence_swaps():
    """HT-16 prompt 2: 'no defence' lets the takeover happen."""
    g = takeover_position(3, fields=[[("blue", 3)], [("soy", 2)], []], texts=[[], [2], []])
    do(g, "attack player 1 field 1 with field 1", "no defence")
    assert pile(g, 0, 0) == ["soy"] * 2 and pile(g, 1, 0) == ["blue"] * 3


def test_ht12_protection_ends_when_merged_away_not_when_merged_onto():
    """HT-12: merging another field onto the protected one keeps protection; moving the protected
    field's cards away ends it."""
    g = takeover_position(3, fields=[[("blue", 5)], [("soy", 2), ("soy", 1), ("soy", 1)], []],
                          guards={(1, 0): 2}, texts=[[], [], []])
    g.state.active = 1
    g.rules.to_turn(g.state)
    do(g, "merge field 2 onto field 1")
    assert g.state.guard[3] == 2 and pile(g, 1, 0) == ["soy"] * 3
    do(g, "merge field 1 onto field 3")
    assert g.state.guard[3] == -1 and g.state.guard[5] == -1 and 2 in g.state.tdiscard
    check(g)


def test_ht12_protection_ends_when_owner_attacks_with_it():
    """HT-12: a protected field used by its owner to attack loses its protection."""
    g = takeover_position(3, active=1, fields=[[("soy", 2)], [("blue", 3)], []], guards={(1, 0): 2})
    do(g, "attack player 0 field 1 with field 1")
    assert g.state.guard == [-1] * 9 and pile(g, 1, 0) == ["soy"] * 2 and 2 in g.state.tdiscard
    check(g)


# -- copying ---------------------------------------------------------------------------------------
def _copy_round(n, turn, kind="d"):
    """Every seat can harvest; the active seat 0 harvests; returns the seats that got to copy."""
    fields = [[("stink", 3)] for _ in range(n)]
    g = takeover_position(n, fields=fields, turn=turn, texts=[[] for _ in range(n)])
    do(g, "harvest field 1")
    copied = []
    while g.decision == "copy":
        p = g.current_player
        if "harvest field 1" in legal(g):
            do(g, "harvest field 1")
            copied.append(p)
        else:
            do(g, "pass")
    return copied


def test_ht13_copy_quota_by_player_count_and_first_turn():
    """HT-13: 2 players: the passive player copies; 3-4: only the first copier; 5: the first two; in the
    game's first turn every passive player."""
    assert _copy_round(2, 1) == [1]
    assert _copy_round(3, 1) == [1]
    assert _copy_round(4, 1) == [1]
    assert _copy_round(5, 1) == [1, 2]
    assert _copy_round(3, 0) == [1, 2]
    assert _copy_round(4, 0) == [1, 2, 3]
    assert _copy_round(5, 0) == [1, 2, 3, 4]
    assert _copy_round(2, 0) == [1]


def test_ht13_quota_used_leaves_pass_and_text_cards():
    """HT-13: once the quota is used, a later passive player may only pass or play text cards."""
    g = takeover_position(3, fields=[[("soy", 4)], [("soy", 4)], [("soy", 4)]], texts=[[], [], [2]],
                          discard=["red"])
    do(g, "harvest field 1", "harvest field 1")
    assert g.current_player == 2
    assert legal(g) == ["pass", "Extrakarte"]


def test_ht13_copier_first_may_pass_then_next_copies():
    """HT-13: the quota goes to the first who copies, not the left neighbour."""
    g = takeover_position(3, fields=[[("soy", 4)], [("soy", 4)], [("soy", 4)]])
    do(g, "harvest field 1", "pass", "harvest field 1")
    assert g.decision == "turn" and len(g.state.coins[2]) == 2 and not g.state.coins[1]


def test_ht13_two_players_cannot_copy_takeover():
    """HT-13 (2 players): every action but e) may be copied."""
    g = takeover_position(2, fields=[[("blue", 3), ("soy", 2)], [("soy", 2), ("red", 1)]],
                          texts=[[], [2]], discard=["red"])
    do(g, "attack player 1 field 1 with field 1", "no defence")
    assert g.decision == "copy" and legal(g) == ["pass", "Extrakarte"]


def test_ht13_takeover_copy_target_restrictions_5_players():
    """HT-13: a passive player never attacks the active player; with 5 players the second copier of e)
    cannot attack the first copier (nor anyone who carried out a takeover in this round)."""
    g = takeover_position(5, fields=[[("blue", 5)], [("blue", 4)], [("blue", 3)], [("soy", 1)], [("soy", 1)]],
                          texts=[[], [], [2], [], []], discard=["red"])
    do(g, "attack player 3 field 1 with field 1")        # 0 gets soy x1, 3 gets blue x5
    assert g.current_player == 1
    assert sorted(m for m in legal(g) if m.startswith("attack")) == [
        "attack player 2 field 1 with field 1", "attack player 4 field 1 with field 1"]   # never seat 0
    do(g, "attack player 4 field 1 with field 1")        # 1 gets soy x1, 4 gets blue x4
    assert g.current_player == 2
    # blue x3 would beat seat 1's soy x1 (and seat 0's), but both carried out a takeover in this round
    assert legal(g) == ["pass", "Extrakarte"]


def test_ht13_first_turn_takeover_against_earlier_attacker_forbidden():
    """HT-13 (the 4-player example): A attacks B; B may not attack A, attacks D; C could only attack D
    (here D is too strong); finally D attacks C."""
    g = takeover_position(4, turn=0, fields=[[("blue", 4)], [("blue", 2)], [("blue", 3)], [("soy", 1)]])
    do(g, "attack player 1 field 1 with field 1")        # A (0) attacks B (1): B now has the 4 blues
    assert g.current_player == 1
    assert sorted(m for m in legal(g) if m.startswith("attack")) == [
        "attack player 2 field 1 with field 1", "attack player 3 field 1 with field 1"]
    do(g, "attack player 3 field 1 with field 1")        # B attacks D: D gets the 4 blues, B the soy
    assert g.current_player == 3                         # C has no legal takeover and no text card
    assert sorted(m for m in legal(g) if m.startswith("attack")) == ["attack player 2 field 1 with field 1"]
    do(g, "attack player 2 field 1 with field 1")
    assert g.decision == "turn" and pile(g, 3, 0) == ["blue"] * 3 and pile(g, 2, 0) == ["blue"] * 4


# -- turn end, draw up, run-outs -------------------------------------------------------------------
def test_ht5_draw_up_old_active_first_then_clockwise_from_new_active():
    """HT-5: the role passes left; the old active draws up to 5, then the others clockwise from the new
    active player; nobody with 5+ draws or discards."""
    g = takeover_position(3, hands=[["red"] * 3, ["soy"] * 6, ["green"] * 4],
                          deck=["blue", "blue", "chili", "stink"])
    do(g, "end turn")
    s = g.state
    assert s.active == 1 and g.current_player == 1
    assert s.hands[0] == sorted([B["red"]] * 3 + [B["blue"]] * 2)
    assert len(s.hands[1]) == 6
    assert s.hands[2] == sorted([B["green"]] * 4 + [B["chili"]])


def test_ht6_first_runout_shuffles_in_one_garden():
    """HT-6 / COM-9: at the 1st run-out the discards and one Garden bean become the new deck at once."""
    full = [("green", 1)] * 3
    g = takeover_position(3, fields=[[None, None, None], full, full], deck=["red"], discard=["soy", "soy"],
                          fill_deck=False)
    do(g, "turn up a card")
    s = g.state
    assert s.runouts == 1 and sorted(s.deck) == sorted([B["soy"], B["soy"], B["garden"]])
    assert s.set_aside == [B["garden"]]
    do(g, "place it on field 1")
    assert g.decision == "turn"                     # the passive players' fields are full: no copy
    assert_conserved(g)


def test_ht6_second_and_third_runout():
    """HT-6/HT-14: after the 2nd run-out the deck holds the last Garden bean; the 3rd run-out ends the
    game (the active player finishes the turn, then the final harvest)."""
    full = [("green", 1)] * 3
    g = takeover_position(3, fields=[[None, None, None], full, full], deck=["red"], discard=["soy"], under=1,
                          runouts=1, fill_deck=False)
    do(g, "turn up a card")
    s = g.state
    assert s.runouts == 2 and sorted(s.deck) == [B["soy"], B["garden"]] and s.set_aside == []
    do(g, "place it on field 1", "turn up a card", "place it on field 2", "turn up a card")
    assert s.runouts == 3 and s.end_pending and s.deck == []
    do(g, "place it on field 3")
    assert "turn up a card" not in legal(g)
    do(g, "end turn")
    assert g.is_over and not g.is_truncated
    assert_conserved(g)


def test_ht6_two_players_end_at_first_runout_gardens_stay():
    """HT-6 (2 players): the 1st run-out ends the game; the Garden beans never come into play."""
    g = takeover_position(2, fields=[[None, None], []], deck=["red"], fill_deck=False)
    do(g, "turn up a card")
    assert g.state.end_pending and g.state.set_aside == [B["garden"]] * 2


def test_ht6_text_deck_rebuilt_from_discard_or_nothing():
    """HT-6: an empty text deck is rebuilt from the text discard; with both empty no card is drawn."""
    g = takeover_position(3, fields=[[("cutting", 3)], [], []], texts=[list(range(16)), [], []],
                          tdeck=[], tdiscard=[16, 17])
    assert g.state.tdeck == []
    do(g, "harvest field 1", "confirm")                   # 3 Schnittbohne: 2 text cards
    assert g.state.texts[0] == list(range(18)) and g.state.tdiscard == []
    texts_conserved(g)
    g = takeover_position(3, fields=[[("cutting", 3)], [], []], texts=[list(range(18)), [], []])
    do(g, "harvest field 1", "confirm")                   # nothing left to draw: no card, no error
    assert len(g.state.texts[0]) == 18
    texts_conserved(g)


def test_ht14_runout_while_drawing_up_gives_new_active_further_actions():
    """HT-14: a game-end run-out while drawing up after the role passed: the new active player takes
    further actions (copying as usual), then the final harvest starts with them."""
    g = takeover_position(3, hands=[[], ["soy"], ["red"] * 5], fields=[[("blue", 2)], [("soy", 2)], []],
                          deck=["green"], under=0, runouts=2, fill_deck=False)
    do(g, "end turn")
    s = g.state
    assert s.end_pending and s.active == 1 and g.decision == "turn" and g.current_player == 1
    assert s.hands[0] == [B["green"]]                      # the old active drew the last card
    assert len(s.hands[1]) == 1                            # nothing left for the others
    do(g, "play soy onto field 1", "confirm")
    assert g.decision == "copy" and g.current_player == 2   # copying as usual
    do(g, "play red onto field 1", *["add red"] * 4, "confirm")
    assert g.decision == "turn" and g.current_player == 1   # seat 0 has no text cards: quota used
    do(g, "end turn")
    assert g.is_over and not g.is_truncated
    # blue x2 = 0 coins, soy x3 = 1 coin, red x5 = 4 coins; no text cards left
    assert g.scores() == [0, 100, 400] and g.winners() == [2]


def test_ht14_score_in_hundredths_coins_and_unused_text_cards():
    """HT-14: 100 x coins + 10 x unused text cards; defence cards lying on fields are not counted."""
    g = takeover_position(3, coins=[3, 0, 1], texts=[[0, 1], [], [2]], guards={(1, 0): 3},
                          fields=[[], [("soy", 1)], []])
    assert g.scores() == [320, 0, 110]


def test_ht17_max_actions_per_turn_leaves_only_end_turn():
    """HT-17: after max_actions_per_turn top-level actions only 'end turn' is legal (after copying)."""
    g = takeover_position(3, hands=[["blue"] * 3, [], []], fields=[[None, None, None], [], []],
                          max_actions_per_turn=2)
    do(g, "play blue onto field 1", "confirm", "play blue onto field 1", "confirm")
    assert legal(g) == ["end turn"]


def test_ht17_max_turns_truncates_without_result():
    """HT-17/AGT-4: reaching max_turns stops the game as a truncation without winners."""
    g = takeover_position(3, max_turns=3, turn=1)
    do(g, "end turn")
    assert not g.is_over
    do(g, "end turn")
    assert g.is_over and g.is_truncated and g.winners() == [] and g.state.ext["truncated"] is True


def test_ht19_final_harvest_order_and_no_decisions_without_text_cards():
    """HT-19: the role holder harvests first, then clockwise; a player with text cards chooses the
    order field by field; players without text cards are harvested automatically."""
    g = takeover_position(3, active=1, fields=[[("soy", 2)], [("red", 2), ("blue", 4)], [("green", 3)]],
                          texts=[[], [9], [2]], deck=[], under=0, runouts=3, fill_deck=False)
    g.state.end_pending = True
    do(g, "end turn")
    assert g.decision == "final" and g.current_player == 1
    assert legal(g) == ["final harvest field 1", "final harvest field 2"]
    do(g, "final harvest field 2")
    assert g.decision == "harvest"                   # may add a pizza (none reaches a tier here)
    assert legal(g) == ["confirm"]
    do(g, "confirm", "final harvest field 1", "confirm")
    assert legal(g) == ["done"]                      # fields empty; a text card is still held
    do(g, "done")
    assert g.current_player == 2 and g.decision == "final"
    do(g, "final harvest field 1", "confirm", "done")
    assert g.is_over
    # seat 0 (no text cards) was harvested automatically: soy x2 = 1 coin
    assert g.scores() == [100, 100 + 100 + 10, 100 + 10]
    check(g)


def test_ht18_copying_round_ends_back_at_the_active_player():
    """HT-18: a regular action with its copy prompts is one copying round; then the active player acts."""
    g = takeover_position(3, hands=[["blue"], ["soy"], ["red"]], fields=[[None] * 3, [None] * 3, [None] * 3],
                          turn=0)
    do(g, "play blue onto field 1", "confirm")
    assert (g.decision, g.current_player) == ("copy", 1)
    do(g, "play soy onto field 2", "confirm")
    assert (g.decision, g.current_player) == ("copy", 2)
    do(g, "pass")
    assert (g.decision, g.current_player) == ("turn", 0)
