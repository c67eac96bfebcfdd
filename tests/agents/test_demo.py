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
