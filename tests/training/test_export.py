"""Exported MaskablePPO actors reproduce the SB3 policy's action distribution exactly."""
from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from bean_env.agents.ppo import PolicyNet  # noqa: E402
from bean_env.training.export import export_sb3  # noqa: E402
from bean_env.training.opponents import OpponentPool, parse_mix  # noqa: E402
from bean_env.training.selfplay_env import SelfPlayEnv  # noqa: E402


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
def test_exported_actor_matches_sb3(tmp_path, activation):
    env = SelfPlayEnv("bean_duel", {}, OpponentPool(parse_mix("random:1")), seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": {"pi": [32, 16], "vf": [8]}, "activation_fn": activation})
    model.learn(64)  # one update, so the weights are not the initial ones
    export_sb3(model, tmp_path / "p", "bean_duel", env.config)
    net = PolicyNet.load(tmp_path / "p")
    assert net.meta["hidden"] == [32, 16]
    obs, _ = env.reset(seed=3)
    batch = np.stack([obs, env.observation_space.sample()])
    mask = np.stack([env.action_masks(), np.ones(env.action_space.n, bool)])
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(batch), action_masks=mask)
    sb3_probs = dist.distribution.probs.numpy()
    z = net.masked_logits(batch, mask)
    mine = np.exp(z - z.max(axis=1, keepdims=True))
    mine /= mine.sum(axis=1, keepdims=True)
    assert np.allclose(sb3_probs, mine, atol=1e-5)
    sb3_action, _ = model.predict(obs, action_masks=mask[0], deterministic=True)
    assert int(sb3_action) == net.choose(obs, mask[0])


def test_seeds_figure_draws_one_line_per_run(tmp_path):
    pytest.importorskip("matplotlib")
    from bean_env.training.report import seeds_figure
    from bean_env.training.runs import EvalLog

    runs = {}
    for seed in (1, 2):
        log = EvalLog(tmp_path / f"s{seed}.csv", ["heuristic"])
        for t, wins in ((0, 5), (100, 7 + seed)):
            row = {"timesteps": t, "policy": f"step_{t}", "seed": seed}
            for mode in ("argmax", "sampled"):
                row.update({f"heuristic_{mode}_games": 20, f"heuristic_{mode}_wins": wins,
                            f"heuristic_{mode}_win_rate": wins / 20, f"heuristic_{mode}_ci_low": 0.1,
                            f"heuristic_{mode}_ci_high": 0.6, f"heuristic_{mode}_mean_score": 1.0})
            log.append(row)
        runs[f"seed {seed}"] = log.path
    fig = seeds_figure(runs, "heuristic", "t")
    lines = fig.axes[0].get_lines()
    assert len(lines) == 2 and list(lines[1].get_ydata()) == [0.25, 0.45]


def test_eval_log_rows_read_back_as_numbers(tmp_path):
    """A policy's ``final_eval`` can come from ``eval.csv`` (the final step evaluated already): it must
    carry the numbers the evaluation wrote, not the CSV's strings."""
    from bean_env.training.runs import EvalLog

    log = EvalLog(tmp_path / "eval.csv", ["heuristic"])
    row = {"timesteps": 2048, "policy": "step_2048", "seed": 10001}
    for mode in ("argmax", "sampled"):
        row.update({f"heuristic_{mode}_games": 100, f"heuristic_{mode}_wins": 71,
                    f"heuristic_{mode}_win_rate": 0.71, f"heuristic_{mode}_ci_low": 0.6146,
                    f"heuristic_{mode}_ci_high": 0.7899, f"heuristic_{mode}_mean_score": 1404.1,
                    f"heuristic_{mode}_trades": 12.5, f"heuristic_{mode}_accepts": 3.25,
                    f"heuristic_{mode}_cards_given": 14.0, f"heuristic_{mode}_cards_received": 13.5,
                    f"heuristic_{mode}_gifts_received": 0.5})
    log.append(row)
    (back,) = log.rows()
    assert back == row
    assert all(type(back[k]) is type(v) for k, v in row.items())
    assert log.has(2048) and not log.has(2049)


def test_opponent_mix_takes_agent_specs_with_options():
    """An opponent mix may name ``heuristic:trading=fair`` (weight after the last colon); bad specs name
    the option at fault."""
    from bean_env.training.opponents import parse_mix

    assert parse_mix("self:1,heuristic:trading=fair:1,heuristic:2") == {
        "self": 0.25, "heuristic:trading=fair": 0.25, "heuristic": 0.5}
    assert parse_mix("heuristic:trading=fair") == {"heuristic:trading=fair": 1.0}
    with pytest.raises(ValueError, match="trading"):
        parse_mix("heuristic:trading=kind:1")


def test_evaluations_include_the_fair_heuristic_where_players_trade():
    """TRADE-4: a bohnanza run is measured against the heuristic that gives nothing away too, by default."""
    from bean_env.training.selfplay import Args, eval_opponents

    assert eval_opponents(Args(variant="bohnanza"), {"num_players": 4}) == [
        "random", "heuristic", "heuristic:trading=fair"]
    assert eval_opponents(Args(variant="bean_duel"), {"num_players": 2}) == ["random", "heuristic"]
    assert eval_opponents(Args(variant="bohnanza", eval_opponents="mcts"), {"num_players": 4}) == ["mcts"]
    assert eval_opponents(Args(variant="bean_solitaire"), {"num_players": 1}) == ["mafia"]
