"""Policy files are fully validated on load: one error type (``PolicyFileError``) naming the problem for
every malformed case, and the observation layout hash refuses a policy trained on another layout."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.agents.ppo import PolicyFileError, PolicyNet, layout_hash, encoder_of
from test_policy_files import random_policy, rewrite_meta


def _edit_tensors(tmp_path, change):
    path = tmp_path / "p.pt"
    tensors = torch.load(path, weights_only=True)
    tensors = change(tensors)
    torch.save(tensors, path)


def _set(key, value):
    def change(t):
        t[key] = value
        return t
    return change


META_CASES = {
    "not JSON": (lambda p: p.write_text("{not json"), "not JSON"),
    "a list": (lambda p: p.write_text("[1, 2]"), "must be a JSON object"),
    "no variant": (lambda p: rewrite_meta(p, variant=None), "'variant'"),
    "config a string": (lambda p: rewrite_meta(p, config="x"), "'config'"),
    "no layout hash": (lambda p: rewrite_meta(p, layout_hash=None), "layout hash"),
    "bad activation": (lambda p: rewrite_meta(p, activation="gelu"), "'activation'"),
    "obs_size a string": (lambda p: rewrite_meta(p, obs_size="1509"), "'obs_size'"),
    "obs_size a bool": (lambda p: rewrite_meta(p, num_actions=True), "'num_actions'"),
    "negative size": (lambda p: rewrite_meta(p, obs_size=-3), "out of range"),
    "hidden not a list": (lambda p: rewrite_meta(p, hidden=16), "'hidden'"),
    "hidden with a zero": (lambda p: rewrite_meta(p, hidden=[16, 0]), "'hidden'"),
    "huge hidden": (lambda p: rewrite_meta(p, hidden=[10 ** 9, 8]), "'hidden'"),
    "old format": (lambda p: rewrite_meta(p, format="bean_env.ppo_policy/1"), "before layout hashes"),
}


@pytest.mark.parametrize("case", sorted(META_CASES))
def test_malformed_metadata_is_one_clear_error(tmp_path, case):
    random_policy(tmp_path / "p")
    edit, message = META_CASES[case]
    edit(tmp_path / "p.json")
    with pytest.raises(PolicyFileError, match=message):
        PolicyNet.load(tmp_path / "p")


TENSOR_CASES = {
    "inner shape": (_set("layer1.weight", torch.zeros(8, 15)), r"layer1.weight has shape \(8, 15\)"),
    "bias shape": (_set("layer2.bias", torch.zeros(3)), "layer2.bias has shape"),
    "NaN": (_set("layer1.bias", torch.full((8,), float("nan"))), "NaN or infinite"),
    "inf": (lambda t: dict(t, **{"layer0.weight": torch.full_like(t["layer0.weight"], float("inf"))}),
            "NaN or infinite"),
    "int tensor": (_set("layer0.bias", torch.zeros(16, dtype=torch.int64)), "float tensor"),
    "not a tensor": (_set("layer0.bias", [0.0] * 16), "float tensor"),
    "missing": (lambda t: {k: v for k, v in t.items() if k != "layer2.weight"}, "missing: \\['layer2.weight'\\]"),
    "extra": (_set("layer3.weight", torch.zeros(2, 2)), "unexpected: \\['layer3.weight'\\]"),
    "not a dict": (lambda t: [t["layer0.weight"]], "expected a dict"),
}


@pytest.mark.parametrize("case", sorted(TENSOR_CASES))
def test_malformed_tensors_are_one_clear_error(tmp_path, case):
    random_policy(tmp_path / "p", hidden=(16, 8))
    change, message = TENSOR_CASES[case]
    _edit_tensors(tmp_path, change)
    with pytest.raises(PolicyFileError, match=message):
        PolicyNet.load(tmp_path / "p")


def test_garbage_weights_file_is_a_clear_error(tmp_path):
    random_policy(tmp_path / "p")
    (tmp_path / "p.pt").write_bytes(b"\x00garbage" * 10)
    with pytest.raises(PolicyFileError, match="p.pt: not a plain-tensor weights file"):
        PolicyNet.load(tmp_path / "p")


def test_nan_weights_are_not_saved(tmp_path):
    from bean_env.agents.ppo import save_policy

    w = np.full((4, 3), np.nan)
    with pytest.raises(PolicyFileError, match="NaN"):
        save_policy(tmp_path / "p", [(w, np.zeros(4))], {"variant": "bean_duel", "config": {}, "activation": "tanh",
                                                          "layout_hash": "x"})


def test_policy_file_stores_the_layout_hash(tmp_path):
    random_policy(tmp_path / "p")
    meta = json.loads((tmp_path / "p.json").read_text())
    game = new_game("bean_duel", seed=0)
    assert meta["layout_hash"] == layout_hash(encoder_of("bean_duel", game.config))


def test_layout_mismatch_is_refused_even_when_sizes_agree(tmp_path):
    random_policy(tmp_path / "p")
    rewrite_meta(tmp_path / "p.json", layout_hash="0123456789abcdef")
    agent = make_agent("ppo", checkpoint=tmp_path / "p")  # loads: the file itself is well formed
    game = new_game("bean_duel", seed=1)
    while len(game.legal_actions()) == 1:
        game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="observation layout '0123456789abcdef'.*same sizes"):
        agent.act(game.view(game.current_player), game.legal_actions())


def test_layout_hash_changes_with_the_layout():
    game = new_game("bean_duel", seed=0)
    enc = encoder_of("bean_duel", game.config)
    base = layout_hash(enc)

    class Shifted:
        high = enc.high

        def layout(self):
            rows = enc.layout()
            return [rows[1], rows[0], *rows[2:]]  # two blocks swapped, same total size
    assert layout_hash(Shifted()) != base
    assert layout_hash(encoder_of("bohnanza", new_game("bohnanza", seed=0, num_players=4).config)) != base


def test_run_directory_resolves_to_its_policy(tmp_path):
    random_policy(tmp_path / "run" / "policy")
    agent = make_agent("ppo", checkpoint=tmp_path / "run")
    assert agent.net.obs_size == encoder_of("bean_duel", new_game("bean_duel", seed=0).config).size
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="not a finished training run"):
        make_agent("ppo", checkpoint=tmp_path / "empty")


def test_ship_checks_the_policy_and_picks_by_config(tmp_path, monkeypatch):
    """Shipping refuses a policy that does not fit its config; a shipped policy is found by exact config
    (float16 files load as float32)."""
    from bean_env.agents import ppo
    from bean_env.training.ship import ship

    random_policy(tmp_path / "p", "bean_duel")
    weights = tmp_path / "weights"
    path = ship(tmp_path / "p", "duel_small", float16=True, weights_dir=weights)
    assert json.loads(path.with_suffix(".json").read_text())["dtype"] == "float16"
    monkeypatch.setattr(ppo, "WEIGHTS_DIR", weights)
    game = new_game("bean_duel", seed=0)
    assert ppo.shipped_checkpoint("bean_duel", game.config) == path
    assert ppo.shipped_checkpoint("bean_duel", dict(game.config, allow_duplicate_fields=False)) is None
    rewrite_meta(tmp_path / "p.json", layout_hash="0" * 16)
    with pytest.raises(ValueError, match="observation layout"):
        ship(tmp_path / "p", "stale", weights_dir=weights)
    assert not (weights / "stale.pt").exists()
