"""bean_env.text: observation text, numbered legal actions, parse_action (INFO-3, TRADE-2, AGT-2)."""
from __future__ import annotations

import random

import pytest

import bean_env
from bean_env.engine.actions import Kind
from bean_env.engine.positions import make_position
from bean_env.text import (ActionParseError, legal_action_texts, observation_text, parse_action, parse_actions,
                           rules_summary)

CASES = [("bohnanza", {"num_players": 4}), ("bohnanza", {"edition": "english", "num_players": 3}),
         ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}), ("hostile_takeover", {"num_players": 3})]


def _positions(variant, config, seed, every=7, limit=400):
    g = bean_env.new_game(variant, seed=seed, **config)
    r = random.Random(seed)
    k = 0
    while not g.is_over and k < limit:
        if k % every == 0:
            yield g
        g.apply(r.choice(g.legal_actions()))
        k += 1


@pytest.mark.parametrize("variant,config", CASES)
def test_text_reveals_nothing_hidden_info_3(variant, config):
    """INFO-3: resampling every card a seat cannot see leaves its text (and legal texts) unchanged."""
    r = random.Random(5)
    checked = 0
    for g in _positions(variant, config, seed=11):
        for p in range(g.num_players):
            text = observation_text(g, p)
            legal = legal_action_texts(g.view(p))
            for _ in range(2):
                other = g.view(p).sample_game(r)
                assert observation_text(other, p) == text
                assert legal_action_texts(other.view(p)) == legal
            checked += 1
    assert checked > 20


def _trade_position():
    """P0 active in the trade phase with red and blue in the trade area, stink wanted from P1."""
    return make_position("bohnanza", num_players=3, active=0, phase="trade",
                         hands=[["green", "red", "green"], ["stink", "soy"], ["blue"]],
                         fields=[[("red", 2)], [("soy", 1)], []], coins=[2, 0, 1],
                         face_up=["red", "blue"], discard=["garden"], seed=1)


def test_observation_text_names_every_public_fact():
    g = _trade_position()
    text = observation_text(g, 0)
    assert "Your hand (3 cards, front first): 1 green, 2 red, 3 green." in text
    assert "you: 1: red x2, 2: empty" in text and "player 1: 1: soy x1" in text
    assert "Coins: you 2, player 1 0, player 2 1." in text
    assert "Trade area: blue x1, red x1." in text
    assert "top garden" in text and "Deck:" in text and "run-outs 0 of 3" in text
    assert "red (8 cards): 2/3/4/5" in text and "garden (6 cards): -/2/3/-" in text
    assert "Decision 'offer': you decide now" in text
    # another seat sees the counts, not the cards
    other = observation_text(g, 1)
    assert "Player 0 holds 3 hand cards." in other and "1 green" not in other


def test_pending_offer_and_legal_names_in_text():
    g = _trade_position()
    for a in parse_actions("offer all give blue want stink", g):
        g.apply(a)
    assert g.decision == "respond" and g.current_player == 1
    text = observation_text(g, 1)
    assert "Offer by player 0 to all other players: gives trade-area blue; wants stink." in text
    assert "Still to answer: you, player 2." in text
    assert legal_action_texts(g) == ["0: accept", "1: decline", "2: harvest field 1 (soy x1)"]


def test_legal_action_texts_number_and_name_cards():
    g = _trade_position()
    g2 = g.clone()
    g2.apply(parse_action("offer to player 1", g2))
    texts = legal_action_texts(g2)
    assert texts[0].startswith("0: ")
    assert any(t.endswith("give hand card 2 (red)") for t in texts)


@pytest.mark.parametrize("reply", ["pass", "PASS", "  Pass. ", "`pass`", "'pass'"])
def test_parse_forgives_case_spacing_and_quotes(reply):
    g = _trade_position()
    assert str(parse_action(reply, g)) == "pass"


def test_parse_index_and_numbered_text():
    g = _trade_position()
    legal = g.legal_actions()
    for i in range(len(legal)):
        assert parse_action(str(i), g) == legal[i]
        assert parse_action(legal_action_texts(g)[i], g) == legal[i]
    with pytest.raises(ActionParseError, match="out of range"):
        parse_action(str(len(legal)), g)
    with pytest.raises(ActionParseError, match="action 0 is"):
        parse_action("0: end trading", g)


def test_offer_line_composes_legal_sub_decisions_trade_2():
    """AGT-2/TRADE-2: one offer line becomes OFFER, GIVE..., WANT..., SUBMIT, each legal in turn."""
    g = _trade_position()
    plan = parse_actions("Offer ALL give red,  blue want stink", g)
    assert [str(a) for a in plan] == ["offer to all", "give trade-area blue", "give trade-area red",
                                      "want stink", "submit offer"]
    # hand card by position and by source; a count prefix
    plan = parse_actions("offer player 1 give #2 want 2 stink", g)
    assert [str(a) for a in plan] == ["offer to player 1", "give hand card 2", "want stink", "want stink",
                                      "submit offer"]
    plan = parse_actions("offer p1 give hand red, 2 green want soy", g)
    assert [a.kind for a in plan].count(Kind.GIVE_HAND) == 3
    for a in parse_actions("offer all give hand red want stink", g):
        assert a in g.legal_actions()
        g.apply(a)
    assert g.decision == "respond"


@pytest.mark.parametrize("text,reason", [
    ("offer all give cocoa want stink", r"you have no cocoa to give \(your hand: green, red, green\)"),
    ("offer all give cocao want stink", r"unknown card 'cocao' \(did you mean cocoa"),
    ("offer all give soy want stink", "you have no soy to give"),
    ("offer all give red want 9 stink", r"you may want at most 2 cards: no addressee has more tradable cards"),
    ("offer all", "an offer must give or want at least one card"),
    ("offer player 0 give red", "you cannot offer to yourself"),
    ("offer all give red, red, red", "the trade area has no more red|you have no more red"),
    ("offer all give #7", "there is no hand card 7; your hand has 3 cards"),
    ("plant field 7", "matches no legal action"),
    ("keep chilli", "matches no legal action"),
])
def test_parse_errors_list_closest_legal_actions(text, reason):
    g = _trade_position()
    before = g.to_json()
    with pytest.raises(ActionParseError, match=reason) as err:
        parse_actions(text, g)
    assert "Closest legal actions:" in str(err.value)
    assert g.to_json() == before


def test_parse_suggests_the_nearest_action():
    g = _trade_position()
    with pytest.raises(ActionParseError) as err:
        parse_action("keep redd", g)
    assert err.value.closest[0].endswith("keep red")


def test_offer_line_where_no_offer_is_legal():
    g = bean_env.new_game("bean_duel", seed=1)
    with pytest.raises(ActionParseError, match="cannot make an offer"):
        parse_actions("offer all give red want blue", g)


def test_parse_rejects_non_text_and_other_seats():
    g = _trade_position()
    with pytest.raises(ActionParseError, match="expected text"):
        parse_action(3, g)
    with pytest.raises(ActionParseError, match="no decision"):
        parse_action("pass", g.view(2))


@pytest.mark.parametrize("variant,config", CASES)
def test_every_legal_text_parses_back(variant, config):
    for g in _positions(variant, config, seed=3, every=11, limit=250):
        legal = g.legal_actions()
        for i, t in enumerate(legal_action_texts(g)):
            assert parse_action(t.split(": ", 1)[1], g) == legal[i]


@pytest.mark.parametrize("variant", ["bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover"])
def test_rules_summary_per_variant(variant):
    text = rules_summary(variant)
    assert len(text) > 300 and "COM-" in text
    with pytest.raises(ValueError, match="unknown variant"):
        rules_summary("chess")


def test_observation_of_a_finished_game_names_no_decision():
    g = bean_env.new_game("bean_solitaire", seed=2)
    r = random.Random(0)
    while not g.is_over:
        g.apply(r.choice(g.legal_actions()))
    text = observation_text(g, 0)
    assert text.endswith("The game is over.")
    with pytest.raises(ValueError, match="game is over"):
        observation_text(g)
    with pytest.raises(TypeError):
        observation_text("game", 0)
    with pytest.raises(ValueError, match="belongs to player 0"):
        observation_text(g.view(0), 1)


def test_offer_being_built_shows_others_only_how_many_hand_cards():
    """While an offer is built, others see how many hand cards it gives, not which (as the masked
    history shows them); the proposer sees its own positions and cards."""
    g = _trade_position()
    for a in parse_actions("offer all give #2 want stink", g)[:2]:
        g.apply(a)
    assert g.decision == "compose"
    other = observation_text(g, 1)
    assert "Offer (being built) by player 0 to all other players: gives 1 hand card; wants nothing yet." in other
    assert "hand card 2" not in other
    assert "gives hand card 2 (red)" in observation_text(g, 0)


def _thousands_of_whole_offers():
    """A 5-player English table with whole-offer actions (up to two cards a side) at a decision with at
    least 2,000 legal actions, and the random generator that played up to it."""
    g = bean_env.new_game("bohnanza", seed=0, edition="english", num_players=5, offer_actions="macro",
                          max_offer_cards=2)
    r = random.Random(0)
    while len(g.legal_actions()) < 2000:
        g.apply(r.choice(g.legal_actions()))
    return g, r


def test_parse_reads_only_the_texts_it_needs_among_thousands_of_whole_offers(monkeypatch):
    """AGT-2: with macro offers (5-player English, up to two cards a side) a decision lists thousands of
    whole offers; an index reads one action's text, and a text is matched against the legal texts up to
    the first equal one (a script parsing every legal text back must not be quadratic)."""
    from bean_env.text import parse as parse_mod

    g, r = _thousands_of_whole_offers()
    legal = g.legal_actions()
    texts = [t.split(": ", 1)[1] for t in legal_action_texts(g)]
    made = []
    real = parse_mod.action_text
    monkeypatch.setattr(parse_mod, "action_text", lambda a, view: made.append(a) or real(a, view))
    assert parse_action(str(len(legal) - 1), g) == legal[-1]
    assert made == []
    assert parse_action(f"{len(legal) - 1}: {texts[-1]}", g) == legal[-1]
    assert made == [legal[-1]]
    made.clear()
    assert parse_action(texts[7], g) == legal[7]
    assert len(made) <= 8
    monkeypatch.undo()
    for i in r.sample(range(len(legal)), 300):
        assert parse_action(texts[i], g) == legal[i]
        assert str(legal[i]) == bean_env.engine.actions._TEXT[legal[i].kind](legal[i].a, legal[i].b)


def test_menus_summarise_thousands_of_whole_offers_in_one_line():
    """AGT-2: a prompt listing every whole offer of a 5-player English table (thousands of lines) would not
    fit a language model's context; a menu lists every other action and a few whole offers under their
    numbers in the full list, and one line on making the others, whose example is a legal offer line."""
    import re

    from bean_env.agents.llm import LLMAgent
    from bean_env.text import action_menu
    from bean_env.text.observation import WHOLE_OFFER_EXAMPLES

    g, r = _thousands_of_whole_offers()
    legal = g.legal_actions()
    offers = [a for a in legal if a.kind == Kind.OFFER_CARDS]
    menu = action_menu(g)
    *lines, note = menu
    assert len(lines) == len(legal) - len(offers) + WHOLE_OFFER_EXAMPLES
    full = legal_action_texts(g)
    for line in lines:  # each listed line is the full list's line of the same number
        assert line == full[int(line.split(":")[0])]
        assert parse_action(line, g) == legal[int(line.split(":")[0])]
    hidden = len(offers) - WHOLE_OFFER_EXAMPLES
    assert note.startswith(f"... and {hidden:,} more whole offers, not listed") and "at most 2 cards a side" in note
    for example in re.findall(r"'([^']+)'", note):
        plan = parse_actions(example, g)
        assert len(plan) == 1 and plan[0] in offers
    assert action_menu(g, examples=None) == full
    prompt = LLMAgent(lambda p: "0", seed=0).prompt(g.view(g.current_player), legal)
    assert note in prompt and len(prompt.splitlines()) < 100
    # terminal play: the same actions under their 1-based numbers, and the same note
    import io

    from bean_env.play import PlaySession
    screen = PlaySession(g, g.current_player, {}, {}, io.StringIO(), io.StringIO()).menu(legal).splitlines()
    assert [int(x.split(".")[0]) - 1 for x in screen[1:-1]] == [int(x.split(":")[0]) for x in lines]
    assert screen[-1].strip() == note
    # a short list is listed whole
    small = bean_env.new_game("bohnanza", seed=0, num_players=4)
    assert action_menu(small) == legal_action_texts(small)
