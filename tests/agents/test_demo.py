"""The demo: a ratings tournament per implemented variant."""
from __future__ import annotations

import bean_env
from bean_env import demo


def test_demo_prints_a_ratings_table_per_variant(capsys):
    variants = [v for v in ("bean_duel", "bean_solitaire") if v in bean_env.implemented()]
    assert demo.main(["--deals", "1", "--simulations", "2", "--workers", "1", "--variants", *variants]) == 0
    out = capsys.readouterr().out
    for v in variants:
        assert f"**{v}**" in out
    assert out.count("| heuristic |") == len(variants)
    assert "strongest by rating" in out


def test_demo_seats_three_players_where_the_variant_allows_it():
    assert demo.demo_config("bohnanza", 3) == {"num_players": 3}
    assert demo.demo_config("bean_duel", 3) == {}


def test_demo_tables_add_ppo_under_the_shipped_policys_options(monkeypatch):
    import pytest

    pytest.importorskip("torch")
    from bean_env.agents import ppo
    from bean_env.engine.config import validate

    pool = ["random", "heuristic", "mcts:simulations=2"]
    assert demo.table("bean_duel", pool) == (pool + ["ppo"], {})           # shipped for the default options
    preset = validate("bohnanza", {"num_players": 4, "trade_preset": "learning"})
    monkeypatch.setattr(ppo, "shipped_configs", lambda variant: [preset] if variant == "bohnanza" else [])
    assert demo.table("bohnanza", pool) == (pool + ["ppo"], preset)        # 4 seats: the policy's options
    five = pool + ["heuristic"]
    assert demo.table("bohnanza", five) == (five, {})                      # no 5-seat policy: the default table
    assert demo.table("bean_duel", pool) == (pool, {})
    default = validate("bohnanza", {"num_players": 4})  # a policy for the default rules too: they win
    monkeypatch.setattr(ppo, "shipped_configs", lambda variant: [preset, default] if variant == "bohnanza" else [])
    assert demo.table("bohnanza", pool) == (pool + ["ppo"], {})  # 4 seats are the default: no options
