"""One-line offers (``bean_env.text.offer``): one reader for terminal play and the text/LLM interface,
with sub-decisions or whole-offer actions (``trade_preset="learning"``), TRADE-1/2/7, AGT-2."""
from __future__ import annotations

import io

import pytest

from bean_env.agents.llm import LLMAgent
from bean_env.cards import CODE
from bean_env.engine.actions import ALL, Action, Kind, pack_offer
from bean_env.engine.positions import make_position
from bean_env.play import PlaySession
from bean_env.text import ActionParseError, parse_actions


def _position(**options):
    """P0 active in the trade phase: hand green, red, green; trade area red, blue; P1 holds stink, soy."""
    return make_position("bohnanza", num_players=3, active=0, phase="trade",
                         hands=[["green", "red", "green"], ["stink", "soy"], ["blue"]],
                         fields=[[("red", 2)], [("soy", 1)], []], coins=[2, 0, 1],
                         face_up=["red", "blue"], discard=["garden"], seed=1, **options)


class _Decliner:
    def act(self, view, legal):
        return next((a for a in legal if a.kind == Kind.DECLINE), legal[0])


def _play_lines(game, lines: str) -> tuple[PlaySession, str]:
    out = io.StringIO()
    agents = {1: _Decliner(), 2: _Decliner()}
    session = PlaySession(game, 0, agents, {1: "a", 2: "b"}, out, io.StringIO(lines + "\nq\n"))
    session.run()
    return session, out.getvalue()


@pytest.mark.parametrize("options", [{}, {"trade_preset": "learning"}], ids=["sub-decisions", "learning"])
@pytest.mark.parametrize("line", ["offer all give red want stink", "offer 1 give blue, green for soy",
                                  "Offer to player 1 give 2 greens."])
def test_agt2_terminal_play_and_text_make_the_same_offer(options, line):
    """AGT-2: a line becomes the same legal actions in terminal play and in ``parse_actions``."""
    game = _position(**options)
    plan = parse_actions(line, game)
    start = len(game.history)
    session, out = _play_lines(game.clone(), line)
    assert session.game.history[start:start + len(plan)] == plan, out[-800:]
    assert (len(plan) == 1) == bool(options) and plan[-1].kind in (Kind.SUBMIT, Kind.OFFER_CARDS)


@pytest.mark.parametrize("options,line,reason", [
    ({}, "offer all give soy want stink", "you have no soy to give (your hand: green, red, green)"),
    ({}, "offer 1 give red@1", "hand card 1 is green, not red"),
    ({}, "offer all give red want 9 stink", "you may want at most 2 cards: no addressee has more tradable cards"),
    ({"trade_preset": "learning"}, "offer all give #1", "with whole-offer actions (offer_actions=macro) cards "
                                                        "are named by type only"),
    ({"trade_preset": "learning"}, "offer all give red, blue, green", "at most 2 cards on each side of an "
                                                                      "offer (max_offer_cards, TRADE-2)"),
    ({"trade_preset": "learning"}, "offer 2 want stink, soy", "you may want at most 1 cards"),
    ({"trade_preset": "learning"}, "offer all give 2 blue", "you have 1 blue to give, not 2"),
])
def test_trade2_the_same_reason_in_both_and_nothing_changes(options, line, reason):
    """TRADE-1/2: a line that cannot be an offer gets one reason, in the text interface and on screen."""
    game = _position(**options)
    before = game.to_json()
    with pytest.raises(ActionParseError) as err:
        parse_actions(line, game)
    assert err.value.reason.startswith(reason)
    session, out = _play_lines(game.clone(), line)
    assert f"offer not possible: {err.value.reason}" in out
    assert game.to_json() == before and session.game.to_json() == before


def test_learning_preset_offer_line_is_the_whole_offer_action():
    """AGT-2 under ``trade_preset="learning"``: the line is one OFFER_CARDS action, trade-area cards of a
    type given first (TRADE-1); the addressees answer next."""
    game = _position(trade_preset="learning")
    plan = parse_actions("offer all give red, green want stink", game)
    assert plan == [Action(Kind.OFFER_CARDS, ALL, pack_offer([CODE["red"], CODE["green"]], [CODE["stink"]]))]
    game.apply(plan[0])
    assert game.decision == "respond"
    assert game.state.o_trade == [CODE["red"]] and game.state.o_hand == [0]  # the area's red, hand card 1


def test_every_whole_offer_text_reads_back_without_the_texts_of_all_actions(monkeypatch):
    """Each legal action's text (and numbered line) reads back as that action under the learning preset,
    whole offers included; reading an action's text does not build the text of every legal action (there
    are thousands of whole offers at 4+ players), only a mistyped line's error lists the closest ones."""
    import bean_env.text.parse as parse
    from bean_env.text import legal_action_texts

    game = _position(trade_preset="learning")
    legal = game.legal_actions()
    texts = legal_action_texts(game, legal)
    assert sum(a.kind == Kind.OFFER_CARDS for a in legal) > 100
    for i, (a, line) in enumerate(zip(legal, texts)):
        plain = line.split(": ", 1)[1]
        assert parse_actions(plain, game, legal) == [a]
        assert parse_actions(plain.upper() + ".", game, legal) == [a]
        assert parse_actions(line, game, legal) == [a]
    calls = []
    real = parse.action_text
    monkeypatch.setattr(parse, "action_text", lambda a, v: calls.append(a) or real(a, v))
    whole = next(t.split(": ", 1)[1] for t in reversed(texts) if " for " in t)
    assert parse_actions(whole, game, legal)[0].kind == Kind.OFFER_CARDS
    assert parse_actions("offer all give red want stink", game, legal)[0].kind == Kind.OFFER_CARDS
    assert len(calls) < 20
    # a side out of the canonical order is no action's text, and no offer line either
    with pytest.raises(ActionParseError, match="closest legal actions|Closest legal actions"):
        parse_actions("offer red + green for nothing to all", game, legal)
    assert len(calls) >= len(legal)  # the error listed the closest actions


def test_learning_preset_llm_agent_makes_an_offer():
    """The LLM agent's offer line works under the learning preset (it could not before: no OFFER action)."""
    game = _position(trade_preset="learning")
    agent = LLMAgent(lambda prompt: "offer 1 give blue want soy", seed=0)
    action = agent.act(game.view(0), game.legal_actions())
    assert action.kind == Kind.OFFER_CARDS and action in game.legal_actions()
    assert [e["source"] for e in agent.transcript] == ["model"]


def test_trade7_a_repeated_whole_offer_says_why():
    """TRADE-7: the same whole offer cannot be made again before a trade; the reason names the rule."""
    game = _position(offer_actions="macro", max_offer_cards=2)
    for a in parse_actions("offer 1 give blue want soy", game):
        game.apply(a)
    game.apply("decline")
    while game.current_player != 0:
        game.apply("pass")
    with pytest.raises(ActionParseError, match=r"you already made this offer since the last trade \(TRADE-7\)"):
        parse_actions("offer 1 give blue want soy", game)


@pytest.mark.parametrize("line,steps", [
    ("offer 1 give hand card 2 in exchange for stink", ["offer to player 1", "give hand card 2", "want stink"]),
    ("offer p1 give trade-area blue want black eyed", ["offer to player 1", "give trade-area blue",
                                                        "want black_eyed"]),
    ("offer all give area:red, hand red", ["offer to all", "give hand card 2", "give trade-area red"]),
])
def test_offer_line_grammar(line, steps):
    """The grammar's spellings (module docstring of ``bean_env.text.offer``)."""
    assert [str(a) for a in parse_actions(line, _position())] == steps + ["submit offer"]


@pytest.mark.parametrize("line,reason", [
    ("offer all give 3", "unknown card '3': write #3 for hand card 3"),
    ("offer everyone give red", "unknown target 'everyone'"),
    ("offer all give want stink", "'give' and 'want' need at least one card each"),
    ("offer all please give red", "unexpected 'please'"),
])
def test_offer_line_grammar_errors(line, reason):
    with pytest.raises(ActionParseError) as err:
        parse_actions(line, _position())
    assert err.value.reason.startswith(reason)


@pytest.mark.parametrize("options", [{"num_players": 4}, {"num_players": 3, "trade_preset": "learning"}],
                         ids=["sub-decisions", "learning"])
def test_agt2_random_offer_lines_are_legal_or_refused_without_change(options):
    """AGT-2: at the offer slots of random games, random offer lines either become actions that are each
    legal in turn and end in the addressees' answers (TRADE-4), or are refused, changing nothing."""
    import random

    import bean_env

    rng = random.Random(4)
    words = ["red", "blue", "soy", "green", "stink", "chili", "garden", "#1", "#2", "hand red", "area blue",
             "2 soy", "red@1", "cocoa"]
    made = refused = 0
    for seed in range(4):
        game = bean_env.new_game("bohnanza", seed=seed, **options)
        while not game.is_over and len(game.history) < 250 and (made < 5 or refused < 5):
            if game.decision == "offer":
                p = game.current_player
                target = rng.choice(["all"] + [str(q) for q in range(game.num_players)])
                give = ", ".join(rng.sample(words, rng.randrange(3)))
                want = ", ".join(rng.sample(words[:7], rng.randrange(3)))
                line = f"offer {target}" + (f" give {give}" if give else "") + (f" want {want}" if want else "")
                before = game.to_json()
                try:
                    plan = parse_actions(line, game)
                except ActionParseError:
                    refused += 1
                    assert game.to_json() == before
                else:
                    trial = game.clone()
                    for a in plan:
                        assert a in trial.legal_actions(), (line, a)
                        trial.apply(a)
                    assert trial.decision == "respond" and trial.state.o_prop == p
                    made += 1
            game.apply(rng.choice(game.legal_actions()))
    assert made >= 5 and refused >= 5, (made, refused)
