"""Tournaments: schedule (duplicate deals, seat rotation, round robin), reproducibility, statistics,
reports and saved records."""
from __future__ import annotations

import json
from collections import Counter

import pytest

import bean_env
from bean_env.agents.tournament import (make_entries, parse_spec, rate, run_tournament, schedule, wilson)


def test_schedule_rotates_seats_over_duplicate_deals():
    """Each deal is played under every rotation with the same seed; each entry sits at every seat."""
    entries = make_entries(["heuristic", "random", "random"])
    assert [e.label for e in entries] == ["heuristic", "random", "random#2"]
    tasks = schedule("bohnanza", entries, deals=2, seed=5, config={"num_players": 3})
    assert len(tasks) == 2 * 3
    for d in range(2):
        same_deal = [t for t in tasks if t["deal"] == d]
        assert len({t["seed"] for t in same_deal}) == 1
        for label in ("heuristic", "random", "random#2"):
            assert sorted(t["seats"].index(label) for t in same_deal) == [0, 1, 2]
    assert tasks[0]["seed"] != tasks[3]["seed"]


def test_schedule_round_robin_and_errors():
    """More entries than seats: every combination is a table; fewer: a clear error."""
    tasks = schedule("bean_duel", make_entries(["random", "heuristic", "mcts"]), deals=1, seed=0, config={})
    assert Counter(tuple(sorted(t["seats"])) for t in tasks) == {
        ("heuristic", "random"): 2, ("mcts", "random"): 2, ("heuristic", "mcts"): 2}
    with pytest.raises(ValueError, match="needs 4 agents"):
        schedule("bohnanza", make_entries(["heuristic", "random"]), deals=1, seed=0, config={})
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        make_entries(["nope"])
    with pytest.raises(ValueError, match="bad value"):
        schedule("bohnanza", make_entries(["random"] * 4), deals=1, seed=0, config={"edition": "x"})


def test_parse_spec():
    assert parse_spec("mcts:simulations=5:rollout=random:seconds=0.5") == (
        "mcts", {"simulations": 5, "rollout": "random", "seconds": 0.5})
    with pytest.raises(ValueError, match="bad agent spec"):
        parse_spec("mcts:simulations")


def test_same_seeds_give_the_same_results_in_parallel_and_serially():
    """The same tournament seed gives the same games, statistics and ratings, whatever the worker count."""
    a = run_tournament("bean_duel", ["heuristic", "random", "mcts:simulations=3"], deals=1, seed=3, workers=1)
    b = run_tournament("bean_duel", ["heuristic", "random", "mcts:simulations=3"], deals=1, seed=3, workers=2)
    assert a.games == b.games
    assert a.stats() == b.stats()
    assert a.ratings() == b.ratings()
    c = run_tournament("bean_duel", ["heuristic", "random", "mcts:simulations=3"], deals=1, seed=4, workers=1)
    assert [g["seed"] for g in c.games] != [g["seed"] for g in a.games]


def test_statistics_win_shares_and_intervals():
    """COM-11: a shared win counts 1/k; the 95% Wilson interval contains the win rate."""
    lo, hi = wilson(5, 10)
    assert 0.23 < lo < 0.24 and 0.76 < hi < 0.77
    assert wilson(0, 0) == (0.0, 1.0)
    games = [{"seats": ["a", "b"], "scores": [3, 3], "winners": [0, 1], "mafia": None, "truncated": False},
             {"seats": ["b", "a"], "scores": [5, 1], "winners": [0], "mafia": None, "truncated": False}]
    ratings = rate(games, ["a", "b"])
    assert ratings["b"]["mu"] > ratings["a"]["mu"]
    with_mafia = rate([{"seats": ["a"], "scores": [4], "winners": [], "mafia": 2, "truncated": False}], ["a"])
    assert with_mafia["mafia"]["mu"] > with_mafia["a"]["mu"]


def test_reports_and_records(tmp_path):
    """JSON, CSV, markdown and PNG reports; saved records replay to the reported scores."""
    result = run_tournament("bean_duel", ["heuristic", "random"], deals=2, seed=1, workers=1,
                            save_records=True)
    rows = {r["agent"]: r for r in result.stats()}
    assert rows["heuristic"]["games"] == rows["random"]["games"] == 4
    for r in rows.values():
        assert r["win_ci_low"] <= r["win_rate"] <= r["win_ci_high"]
    assert rows["heuristic"]["mu"] > rows["random"]["mu"]
    out = result.write(tmp_path / "report")
    data = json.loads((out / "results.json").read_text())
    assert data["variant"] == "bean_duel" and len(data["games"]) == 4
    assert (out / "results.csv").read_text().splitlines()[0].startswith("agent,games,wins")
    assert "| heuristic |" in (out / "results.md").read_text()
    assert (out / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    records = sorted((out / "records").glob("game_*.json"))
    assert len(records) == 4
    for path, game in zip(records, result.games):
        replayed = bean_env.replay(json.loads(path.read_text()))
        assert replayed.scores() == game["scores"] and replayed.winners() == game["winners"]


def test_solitaire_is_rated_against_the_mafia():
    """MAF-13: in bean_solitaire each agent plays alone; the mafia is its rated rival."""
    if "bean_solitaire" not in bean_env.implemented():
        pytest.skip("bean_solitaire not implemented")
    result = run_tournament("bean_solitaire", ["heuristic", "random"], deals=1, seed=0, workers=1)
    assert len(result.games) == 2
    assert "mafia" in result.ratings()
    assert "(mafia)" in result.markdown()


@pytest.mark.parametrize("variant, options, words, level, upper", [
    ("bohnanza", {"num_players": 4}, "Chance level: 25.0%;", 0.25, False),
    ("bean_duel", {}, "Chance level: 50.0%;", 0.5, False),
    ("al_cabohne", {}, "Chance level: at most 50.0% (every seat can lose to the mafia, MAF-13)", 0.5, True),
    ("bean_solitaire", {}, "Chance level: none (one seat against the mafia)", None, False),
])
def test_reports_state_the_chance_level(variant, options, words, level, upper):
    """A win rate means little without the rate of a seat as strong as the others beside it (1/n; at
    most that where every seat can lose to the mafia, MAF-13)."""
    from bean_env.agents.tournament import TournamentResult, make_entries

    result = TournamentResult(variant, options, seed=0, deals=0, entries=make_entries(["random"]), games=[])
    assert words in result.markdown().splitlines()[2]
    data = result.to_dict()
    assert data["chance_level"] == level and data["chance_is_upper_bound"] is upper
