"""``benchmarks/trade_preset.py``: the preset's length and trade counts come from the engine's events
(a benchmark run, not a timed test)."""
from __future__ import annotations

from helpers import load_benchmark

from bean_env import new_game
from bean_env.agents.heuristic import HeuristicAgent
from bean_env.engine.trade_stats import count_trades


def test_trade_preset_counts_trades_that_change_hands():
    """TRADE-5: a game's counted trades equal the counter's trades on its replayed record, and a preset
    game is shorter than one under the default rules."""
    bench = load_benchmark("trade_preset")
    preset = bench.play(0, {"trade_preset": "learning"})
    default = bench.play(0, {})
    assert preset["decisions"] < default["decisions"]
    assert preset["trades"] <= preset["offers_accepted"] <= preset["offers"]
    # the same game (agent seeds 10 x game + seat), counted again from its record
    game = new_game("bohnanza", seed=0, num_players=4, trade_preset="learning")
    agents = [HeuristicAgent(seed=i) for i in range(4)]
    while not game.is_over:
        p = game.current_player
        game.apply(agents[p].act(game.view(p), game.legal_actions()))
    counted = count_trades(game.record()).totals()
    assert counted == {k: preset[k] for k in counted}
    assert len(game.history) == preset["decisions"]


def test_trade_preset_table(capsys):
    load_benchmark("trade_preset").main(["--games", "2"])
    out = capsys.readouterr().out
    assert "| default rules |" in out and '| trade_preset="learning" |' in out
    assert '| trade_preset="learning2" |' in out
    assert "executed trades/game" in out and "gifts/game" in out
