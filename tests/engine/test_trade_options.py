"""The trading controls of `bohnanza` (rule options): ``max_offer_cards`` (TRADE-2), ``offer_actions``
(whole offers as one action, AGT-2), ``proposals`` (TRADE-3) and the ``trade_preset`` that names a set of
them. The default game is unchanged (tests/golden); here each option is checked on exact positions, by
brute force against TRADE-2, and by playing whole games with every agent under each option."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from bean_env import new_game
from bean_env.agents.heuristic import HeuristicAgent
from bean_env.cards import CODE
from bean_env.agents.mcts import MCTSAgent
from bean_env.engine.actions import ALL, Action, Kind, pack_offer, unpack_offer
from bean_env.engine.catalogue import catalogue_for, catalogue_of
from bean_env.engine.config import TRADE_PRESETS, validate
from bean_env.engine.game import Game
from bean_env.engine.positions import make_position
from helpers import assert_conserved, assert_well_formed, legal_set as legal, play, random_playout, reachable_offers

MACRO = {"max_offer_cards": 2, "offer_actions": "macro"}

# every option on its own and the preset, each a config of a 4-player game
OPTION_CONFIGS = {
    "cap1": {"max_offer_cards": 1},
    "cap2": {"max_offer_cards": 2},
    "macro1": {"max_offer_cards": 1, "offer_actions": "macro"},
    "macro2": MACRO,
    "active_only": {"proposals": "active_only"},
    "preset": {"trade_preset": "learning"},
    "preset2": {"trade_preset": "learning2"},
}


def trade_pos(hands, face_up=("stink", "green"), active=0, **config):
    return make_position("bohnanza", phase="trade", num_players=len(hands), hands=hands,
                         face_up=list(face_up), active=active, **config)


def offers(game) -> list[Action]:
    return [a for a in game.legal_actions() if a.kind == Kind.OFFER_CARDS]


# -- validation -------------------------------------------------------------------------------------
def test_trade_options_defaults_leave_the_game_as_before():
    """TRADE-2 / TRADE-3 / TRADE-6: the defaults are no cap, composed offers, every player proposes."""
    full = validate("bohnanza", {})
    assert (full["max_offer_cards"], full["offer_actions"], full["proposals"], full["trade_preset"],
            full["max_trade_rounds"]) == (None, "composed", "all", None, 4)


@pytest.mark.parametrize("key, value, allowed", [
    ("max_offer_cards", 0, "None (no cap) or a whole number >= 1"),
    ("max_offer_cards", True, "None (no cap) or a whole number >= 1"),
    ("offer_actions", "big", "'composed' or 'macro'"),
    ("proposals", "others", "'all' or 'active_only'"),
    ("trade_preset", "fast", "None or 'learning' or 'learning2'"),
    ("trade_preset", ["learning"], "None or 'learning' or 'learning2'"),
])
def test_trade_options_bad_values_are_named(key, value, allowed):
    with pytest.raises(ValueError) as err:
        new_game("bohnanza", seed=0, **{key: value})
    assert repr(key) in str(err.value) and allowed in str(err.value)


def test_trade_options_macro_needs_a_small_cap():
    """AGT-2: whole offers are enumerated, so they need ``max_offer_cards`` of 1 or 2."""
    for cap in (None, 3):
        with pytest.raises(ValueError, match="'macro' only with max_offer_cards 1 to 2"):
            validate("bohnanza", {"offer_actions": "macro", "max_offer_cards": cap})


def test_trade_options_the_preset_expands_and_explicit_options_win():
    full = validate("bohnanza", {"trade_preset": "learning"})
    assert all(full[k] == v for k, v in TRADE_PRESETS["learning"].items())
    assert validate("bohnanza", {"trade_preset": "learning", "max_trade_rounds": 3})["max_trade_rounds"] == 3
    with pytest.raises(ValueError, match="unknown option 'trade_preset' for variant 'bean_duel'"):
        validate("bean_duel", {"trade_preset": "learning"})


# -- max_offer_cards --------------------------------------------------------------------------------
def test_trade2_max_offer_cards_caps_both_sides_of_a_composed_offer():
    """TRADE-2 with ``max_offer_cards=2``: after two given cards nothing more may be given; at most two
    cards are wanted (below the addressee's tradable cards)."""
    g = trade_pos([["soy", "blue", "red"], ["chili", "red", "green"], ["garden"]], max_offer_cards=2)
    play(g, "offer to player 1", "give hand card 1", "give trade-area stink")
    assert not any(a.startswith("give") for a in legal(g))
    play(g, "want red", "want red")
    assert not any(a.startswith("want") for a in legal(g)) and "submit offer" in legal(g)


def test_trade2_agt2_capped_offers_are_each_reachable_by_exactly_one_sequence():
    """TRADE-2 / AGT-2 with ``max_offer_cards=2``: the sub-decisions reach every distinct offer that
    gives at most 2 tradable cards and wants at most 2 deck types, each by exactly one sequence."""
    from itertools import combinations
    g = trade_pos([["blue", "blue", "red", "blue"], ["soy", "green", "red"], ["garden"]],
                  face_up=["stink", "stink"], max_offer_cards=2)
    g.apply("offer to player 1")
    reached = reachable_offers(g, stay_in_compose=False)
    assert len(reached) == len(set(reached))
    hand, area, types = g.state.hands[0], g.state.face_up, g.rules.deck_types
    tradable = [("h", i) for i in range(len(hand))] + [("t", j) for j in range(len(area))]
    expected = set()
    for k in range(3):
        for sub in combinations(tradable, k):
            rest = tuple(c for i, c in enumerate(hand) if ("h", i) not in sub)
            trade = tuple(sorted(area[j] for kind, j in sub if kind == "t"))
            for m in range(3):
                for want in combinations_with_replacement(types, m):
                    if k or m:
                        expected.add((rest, trade, want))
    assert set(reached) == expected


# -- whole offers (offer_actions="macro") ------------------------------------------------------------
def _expected_macros(game) -> set[tuple]:
    """Brute force (TRADE-1, TRADE-2): every distinct (addressee, given types, wanted types) offer of
    the actor within the cap, from the actor's tradable type counts and the addressees' card counts."""
    s, rules = game.state, game.rules
    p, cap = s.actor, rules.offer_cap
    have = Counter(s.hands[p]) + (Counter(s.face_up) if p == s.active else Counter())
    tradable = [len(s.hands[q]) + (len(s.face_up) if q == s.active else 0) for q in range(s.n)]
    if p == s.active:
        targets = {q: tradable[q] for q in range(s.n) if q != p}
        targets[ALL] = max(targets.values())
        targets = {q: room for q, room in targets.items() if tradable[p] or room}
    else:
        targets = {s.active: tradable[s.active]} if s.hands[p] or tradable[s.active] else {}
    out = set()
    for to, room in targets.items():
        for k in range(cap + 1):
            for give in combinations_with_replacement(sorted(have), k):
                if any(give.count(t) > have[t] for t in give):
                    continue
                for m in range(min(cap, room) + 1):
                    for want in combinations_with_replacement(rules.deck_types, m):
                        if (give or want) and _made_key(s, p, to, give, want) not in s.made[p]:
                            out.add((to, give, want))
    return out


def _made_key(s, p, to, give, want) -> list:
    """TRADE-7's record of a whole offer: trade-area cards of a type first, then the frontmost hand
    cards (an independent reading of that rules decision)."""
    face = list(s.face_up) if p == s.active else []
    trade, used = [], set()
    for t in give:
        if t in face:
            face.remove(t)
            trade.append(t)
        else:
            used.add(min(i for i, c in enumerate(s.hands[p]) if c == t and i not in used))
    return [to, sorted(used), sorted(trade), list(want)]


def _macro_outcomes(game) -> list[tuple]:
    """Per legal whole offer: (addressee, remaining proposer hand, given trade-area types, wanted
    types) of the offer it makes, read from the state after applying it."""
    out = []
    for action in offers(game):
        child = game.clone()
        child.apply(action)
        s = child.state
        assert child.decision == "respond"
        rest = tuple(c for i, c in enumerate(s.hands[s.o_prop]) if i not in s.o_hand)
        out.append((s.o_to, rest, tuple(sorted(s.o_trade)), tuple(s.o_want)))
    return out


@pytest.mark.parametrize("actor", [0, 1])
def test_agt2_trade2_whole_offers_are_exactly_the_small_offers(actor):
    """AGT-2 / TRADE-2 with ``offer_actions="macro"``: the legal whole offers are exactly the distinct
    offers by types within the cap (brute force), each once, and no two make the same offer."""
    g = trade_pos([["blue", "blue", "red", "blue"], ["soy", "green", "soy"], ["garden"]],
                  face_up=["stink", "blue"], **MACRO)
    if actor == 1:
        g.apply("pass")
    acts = offers(g)
    assert len(acts) == len(set(acts))
    assert {(a.a,) + unpack_offer(a.b) for a in acts} == _expected_macros(g)
    outcomes = _macro_outcomes(g)
    assert len(outcomes) == len(set(outcomes))
    # the composed protocol and OFFER are not offered beside the whole offers
    assert not any(a.kind == Kind.OFFER for a in g.legal_actions())


def test_agt2_whole_offers_over_random_positions():
    """AGT-2: at every offer slot of random preset games the whole offers match the brute force."""
    checked = 0
    for seed in range(3):
        g = new_game("bohnanza", seed=seed, num_players=3, **MACRO)
        r = random.Random(seed)
        while not g.is_over and checked < 20 * (seed + 1):
            if g.decision == "offer":
                got = [(a.a,) + unpack_offer(a.b) for a in offers(g)]
                assert len(got) == len(set(got)) and set(got) == _expected_macros(g)
                checked += 1
            g.apply(r.choice(g.legal_actions()))
    assert checked == 60


def test_trade1_whole_offer_gives_trade_area_cards_first_then_the_frontmost_hand_cards():
    """TRADE-1 / TRADE-2 with whole offers: a given type comes from A's trade area first, then from the
    front of the hand; the shown hand cards become known to all (INFO-2)."""
    g = trade_pos([["red", "blue", "red", "soy"], ["chili", "blue"], ["garden"]],
                  face_up=["stink", "blue"], **MACRO)
    play(g, "offer blue + red for chili to player 1")
    s = g.state
    assert s.o_trade == [CODE["blue"]] and s.o_hand == [0]
    assert s.known[0] == [0b111, 1, 1, 1]
    play(g, "accept")
    assert g.view(0).hand == ["blue", "red", "soy"] and g.view(0).face_up == ["stink"]
    assert sorted(g.view(0).to_plant[1]) == ["blue", "red"] and g.view(0).to_plant[0] == ["chili"]


def test_trade7_a_whole_offer_cannot_be_repeated_until_a_trade():
    """TRADE-7 with whole offers: a declined offer is not legal again in the turn; after a trade it is."""
    g = trade_pos([["red", "soy"], ["chili"], ["garden"]], face_up=["stink", "blue"], **MACRO)
    play(g, "offer red for chili to player 1", "decline", "pass", "pass")
    assert g.decision == "offer" and g.current_player == 0
    assert "offer red for chili to player 1" not in legal(g)
    assert "offer red for chili to all" in legal(g)
    play(g, "offer soy for nothing to player 2", "accept", "pass", "pass")
    assert "offer red for chili to player 1" in legal(g)


def test_trade7_whole_offer_after_keep_names_other_cards():
    """TRADE-7: after A keeps the trade-area card a whole offer gave, the same types name a hand card:
    a different offer, legal again."""
    g = trade_pos([["blue", "soy"], ["chili"], ["garden"]], face_up=["stink", "blue"], **MACRO)
    play(g, "offer blue for chili to player 1", "decline", "pass", "pass")
    assert "offer blue for chili to player 1" not in legal(g)
    play(g, "keep blue")
    assert "offer blue for chili to player 1" in legal(g)


def test_trade5_whole_offers_keep_the_givers_choice():
    """TRADE-5 with whole offers: the addressee still chooses which of its cards to give."""
    g = trade_pos([["soy"], ["red", "chili", "red", "blue"], ["garden"]], **MACRO)
    play(g, "offer soy for red to player 1", "accept")
    assert g.decision == "choose_give" and g.current_player == 1
    play(g, "give hand card 3")
    assert g.view(1).hand == ["red", "chili", "blue"]


def test_agt1_whole_offer_catalogue_covers_every_legal_action_once():
    """AGT-1: the catalogue has one integer per whole offer and seat offset, and encodes every legal
    action of random preset games (4 players, German and English 7 players)."""
    for config in ({"num_players": 4}, {"num_players": 7, "edition": "english"}):
        cat = catalogue_for("bohnanza", dict(config, trade_preset="learning"))
        g = new_game("bohnanza", seed=3, trade_preset="learning", **config)
        assert catalogue_of(g) is cat
        r = random.Random(3)
        for _ in range(300):
            if g.is_over:
                break
            acts = g.legal_actions()
            idx = cat.encode_all(acts, g.current_player)
            assert len(set(idx)) == len(idx)
            assert [cat.decode(i, g.current_player) for i in idx] == acts
            g.apply(r.choice(acts))
    assert catalogue_for("bohnanza", {}).size < catalogue_for("bohnanza", {"trade_preset": "learning"}).size
    # the composed protocol keeps its integers: the whole offers are appended
    base = catalogue_for("bohnanza", {}).layout()
    assert catalogue_for("bohnanza", {"trade_preset": "learning"}).layout()[:len(base)] == base


def test_whole_offer_text_round_trips():
    b = pack_offer([12, 2], [10, 10])
    assert unpack_offer(b) == ((2, 12), (10, 10))
    assert str(Action(Kind.OFFER_CARDS, ALL, b)) == "offer blue + red for soy + soy to all"
    assert str(Action(Kind.OFFER_CARDS, 2, pack_offer([], [3]))) == "offer nothing for kidney to player 2"


# -- proposals="active_only" ---------------------------------------------------------------------------
def test_trade3_active_only_the_others_never_get_an_offer_slot():
    """TRADE-3 with ``proposals="active_only"``: a round is A's slot only; not offering ends trading."""
    g = trade_pos([["soy"], ["red"], ["green"]], proposals="active_only")
    play(g, "offer to player 1", "want red", "submit offer", "decline")
    assert (g.decision, g.current_player, g.state.t_round) == ("offer", 0, 2)
    assert "pass" not in legal(g)  # a pass would end the round without an offer: it is "end trading"
    play(g, "end trading")
    assert g.decision == "plant_traded"


def test_trade6_active_only_round_budget():
    """TRADE-6: with active-only proposals ``max_trade_rounds`` is the number of A's offers."""
    g = trade_pos([["soy", "blue"], ["red"], ["green"]], proposals="active_only", max_trade_rounds=2,
                  **MACRO)
    play(g, "offer soy for red to player 1", "decline")
    play(g, "offer blue for red to player 1", "decline")
    assert g.decision == "plant_traded"


# -- whole games under every option -------------------------------------------------------------------
def _check(game) -> None:
    assert_conserved(game)
    assert_well_formed(game)


@pytest.mark.parametrize("name", sorted(OPTION_CONFIGS))
def test_com5_random_games_conserve_cards_under_every_trade_option(name):
    """COM-5 / AGT-4: random play under each trading option keeps every card and ends; JSON round trips
    play on identically (determinism)."""
    config = OPTION_CONFIGS[name]
    for seed in range(2):
        g = new_game("bohnanza", seed=seed, num_players=4, **config)
        random_playout(g, random.Random(seed), check=_check)
        assert g.is_over
    g = new_game("bohnanza", seed=7, num_players=4, **config)
    random_playout(g, random.Random(7), max_steps=150)
    copy = Game.from_json(g.to_json())
    r1, r2 = random.Random(1), random.Random(1)
    random_playout(g, r1)
    random_playout(copy, r2)
    assert g.history == copy.history and g.scores() == copy.scores()


def _play_agents(game, agents, max_steps=None) -> int:
    steps = 0
    while not game.is_over and (max_steps is None or steps < max_steps):
        seat = game.current_player
        acts = game.legal_actions()
        action = agents[seat].act(game.view(seat), acts)
        assert action in acts, (seat, action)
        game.apply(action)
        _check(game)
        steps += 1
    return steps


@pytest.mark.parametrize("name", sorted(OPTION_CONFIGS))
def test_heuristic_plays_and_trades_under_every_trade_option(name):
    """The heuristic plays whole games under each option (legal actions only, cards conserved) and
    trades."""
    config = OPTION_CONFIGS[name]
    g = new_game("bohnanza", seed=11, num_players=4, **config)
    _play_agents(g, [HeuristicAgent(seed=i) for i in range(4)])
    assert g.is_over
    kinds = Counter(a.kind for a in g.history)
    assert kinds[Kind.ACCEPT] > 0
    if g.rules.macro:
        assert kinds[Kind.OFFER_CARDS] > 0 and kinds[Kind.OFFER] == 0


@pytest.mark.parametrize("name", ["cap1", "macro2", "active_only", "preset"])
def test_mcts_plays_under_every_trade_option(name):
    """MCTS (searching, and delegating offers to the heuristic) plays legally under each option."""
    config = OPTION_CONFIGS[name]
    g = new_game("bohnanza", seed=5, num_players=4, **config)
    agents = [MCTSAgent(seed=i, simulations=4, determinisations=2) for i in range(2)]
    agents += [MCTSAgent(seed=9, simulations=4, delegate=False, determinisations=2), HeuristicAgent(seed=3)]
    assert _play_agents(g, agents, max_steps=250) == 250 or g.is_over
