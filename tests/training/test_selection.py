"""``python -m bean_env.training.selection``: a run's best policy on validation deals."""
from __future__ import annotations

import csv
import json

import pytest

from bean_env.agents import make_agent
from bean_env.agents.ppo import PolicyNet
from bean_env.training import selection
from bean_env.training.batched_ppo import Args, train
from bean_env.training.evaluate import HELD_OUT_FIRST


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    args = Args(variant="bean_duel", total_timesteps=600, num_envs=4, rollout_steps=128, minibatch_size=64,
                update_epochs=1, hidden="16", eval_games=1, eval_opponents="random", snapshot_every=128,
                out_dir=str(tmp_path_factory.mktemp("runs")), run_name="run", progress=False, backend="arrays")
    return train(args)


def test_candidates_are_the_final_policy_and_the_newest_snapshots(run):
    found = selection.candidates(run, last=2)
    snaps = sorted(int(p.stem.split("_")[1]) for p in (run / "snapshots").glob("snap_*.pt"))
    final = PolicyNet.load(run).meta["training"]["timesteps"]
    below = [t for t in snaps if t < final]  # a snapshot at the final step is the final policy itself
    assert len(below) >= 3 and [c[1] for c in found] == below[-2:] + [final]
    assert found[-1][0] == "final"
    steps = [c[1] for c in found]
    assert steps == sorted(steps) and steps[-1] == PolicyNet.load(run).meta["training"]["timesteps"]
    assert all(c[0].startswith("snap_") for c in found[:-1])
    assert [c[0] for c in selection.candidates(run, last=0)] == ["final"]
    spaced = [c[1] for c in selection.candidates(run, last=3, spacing=200)]
    assert spaced[-1] == final and all(b - a >= 200 for a, b in zip(spaced, spaced[1:]))
    assert set(spaced[:-1]) <= set(snaps) and len(spaced) >= 2


def test_select_scores_every_candidate_on_the_same_deals_and_writes_the_best(run, capsys):
    assert selection.main([str(run), "--opponents", "random", "--games", "6", "--last", "2"]) == 0
    rows = list(csv.DictReader((run / "selection.csv").open()))
    assert len(rows) == len(selection.candidates(run, 2)) >= 2 and all(r["random_games"] == "6" for r in rows)
    best = max(range(len(rows)), key=lambda i: (float(rows[i]["mean_win_rate"]), i))
    meta = json.loads((run / "selected.json").read_text())
    assert meta["selection"]["policy"] == rows[best]["policy"]
    assert meta["selection"]["first_seed"] == selection.VALIDATION_SEED and meta["selection"]["games"] == 6
    assert "selected" in capsys.readouterr().out
    # the chosen policy's layers are the candidate's, and it plays as a checkpoint
    source = dict((c[0], c[2]) for c in selection.candidates(run, 2))[rows[best]["policy"]]
    chosen, picked = PolicyNet.load(source), PolicyNet.load(run / "selected")
    assert len(chosen.layers) == len(picked.layers)
    assert all((w1 == w2).all() and (b1 == b2).all() for (w1, b1), (w2, b2) in zip(chosen.layers, picked.layers))
    assert picked.meta["training"] == chosen.meta["training"]
    make_agent("ppo", checkpoint=run / "selected")
    # the same call again gives the same rows (seeded deals and agents)
    selection.main([str(run), "--opponents", "random", "--games", "6", "--last", "2"])
    assert list(csv.DictReader((run / "selection.csv").open())) == rows


def test_bad_input_names_the_problem(run, tmp_path):
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    with pytest.raises(ValueError, match="no policy.pt"):
        selection.candidates(tmp_path, 4)
    with pytest.raises(ValueError, match="held out"):
        selection.select(run, ["random"], games=10, seed=HELD_OUT_FIRST - 5)
    with pytest.raises(ValueError, match="--spacing"):
        selection.select(run, ["random"], games=2, spacing=-1)
    with pytest.raises(SystemExit):
        selection.main([str(run), "--games", "0"])
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before  # nothing written
