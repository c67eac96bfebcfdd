"""``benchmarks/trade_preset.py``: the preset's length and trade counts come from the engine's events
(a benchmark run, not a timed test)."""
from __future__ import annotations

import importlib.util
import pathlib
import sys

from bean_env import new_game
from bean_env.agents.heuristic import HeuristicAgent
from bean_env.engine.trade_stats import count_trades

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "trade_preset.py"


def load():
    spec = importlib.util.spec_from_file_location("trade_preset", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["trade_preset"] = module
    spec.loader.exec_module(module)
    return module


def test_trade_preset_counts_trades_that_change_hands():
    """TRADE-5: a game's counted trades equal the counter's trades on its replayed record, and a preset
    game is shorter than one under the default rules."""
    bench = load()
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
    load().main(["--games", "2"])
    out = capsys.readouterr().out
    assert "| default rules |" in out and '| trade_preset="learning" |' in out
    assert '| trade_preset="learning2" |' in out
    assert "executed trades/game" in out and "gifts/game" in out
