"""``benchmarks/gift_cost.py``: the gift refuser declines exactly the offers of cards for nothing and
otherwise plays as the agent it wraps (a benchmark, not a timed test)."""
from __future__ import annotations

import pytest
from helpers import load_benchmark

from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.engine.actions import Kind
from bean_env.engine.events import Trade


def test_gift_refuser_declines_every_offered_gift_and_nothing_else():
    """TRADE-2 (want empty = a gift), TRADE-4: a random seat wrapped by the refuser never takes an offered
    gift; every other decision is the wrapped agent's own; random alone does take gifts on these deals."""
    bench = load_benchmark("gift_cost")
    refused = taken_unwrapped = 0
    for seed in range(3):
        for wrapped in (True, False):
            game = new_game("bohnanza", seed=seed, num_players=4)
            game.rules.events = []
            agents = [make_agent("heuristic", seed=q) for q in range(4)]
            inner = make_agent("random", seed=seed)
            shadow = make_agent("random", seed=seed)  # the same choices, seen unwrapped
            agents[0] = bench.GiftRefuser(inner) if wrapped else inner
            while not game.is_over:
                p = game.current_player
                view, legal = game.view(p), game.legal_actions()
                action = agents[p].act(view, legal)
                if p == 0 and wrapped:
                    own = shadow.act(view, legal)
                    gift = own.kind == Kind.ACCEPT and bench.is_gift_offer(view)
                    assert action == (next(a for a in legal if a.kind == Kind.DECLINE) if gift else own)
                game.apply(action)
            gifts_in = sum(1 for e in game.rules.events if type(e) is Trade and e.partner == 0
                           and e.given and not e.received)
            if wrapped:
                assert gifts_in == 0
                refused += agents[0].refused
            else:
                taken_unwrapped += gifts_in
    assert refused > 0 and taken_unwrapped > 0


def test_gift_cost_refuses_an_entry_without_trading(capsys):
    bench = load_benchmark("gift_cost")
    with pytest.raises(SystemExit):
        bench.main(["--entry", "bean_duel, 2 players", "--deals", "2"])
    assert "not a protocol entry with trading" in capsys.readouterr().err
    for argv, message in [(["--candidate", "foo"], "bad agent spec 'foo' for --candidate: unknown agent"),
                          (["--opponent", "mcts:simulatons=3"], "for --opponent: unknown option 'simulatons'"),
                          (["--candidate", "ppo:checkpoint=/nowhere/p"], "/nowhere/p.pt not found")]:
        with pytest.raises(SystemExit):  # before any game
            bench.main(argv + ["--deals", "2"])
        assert message in capsys.readouterr().err


def test_gift_buyer_receives_nothing_for_nothing_and_buys_with_hand_cards():
    """TRADE-2, TRADE-4: a heuristic seat wrapped by the gift buyer never receives cards in a trade in which
    it gave none, as proposer or as acceptor, yet makes trades of both ways, some of them offers of its own
    made while another player was active (buying that player's cards)."""
    bench = load_benchmark("gift_cost")
    two_way = bought = 0
    for seed in range(3):
        game = new_game("bohnanza", seed=seed, num_players=4)
        game.rules.events = []
        agents = [make_agent("heuristic", seed=q) for q in range(4)]
        agents[0] = bench.GiftBuyer(agents[0])
        seen, trades = 0, []  # (trade, the active player when it was made)
        while not game.is_over:
            p = game.current_player
            game.apply(agents[p].act(game.view(p), game.legal_actions()))
            trades += [(e, game.state.active) for e in game.rules.events[seen:] if type(e) is Trade]
            seen = len(game.rules.events)
        for e, active in trades:
            if e.proposer == 0:
                assert e.given or not e.received
                bought += bool(e.given and e.received and active != 0)
            if e.partner == 0:
                assert e.received or not e.given
            two_way += 0 in (e.proposer, e.partner) and bool(e.given and e.received)
    assert two_way > 0 and bought > 0


def test_gift_buyer_wraps_only_a_heuristic_agent():
    bench = load_benchmark("gift_cost")
    with pytest.raises(ValueError, match="wraps a heuristic agent"):
        bench.GiftBuyer(make_agent("random", seed=0))
