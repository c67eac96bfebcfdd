"""int8 policy files: weights stored as 8-bit integers with one float32 scale per row, read back as float32
within half a scale of the saved weights; malformed int8 files get the loader's one clear error."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bean_env.agents.ppo import PolicyFileError, PolicyNet, quantize_rows, save_policy
from test_policy_files import random_policy, rewrite_meta


def _int8_copy(tmp_path):
    """A random float32 policy ``p`` and its int8 copy ``q``: (float32 net, int8 net)."""
    random_policy(tmp_path / "p", hidden=(16, 8))
    net = PolicyNet.load(tmp_path / "p")
    save_policy(tmp_path / "q", net.layers, {k: net.meta[k] for k in ("variant", "config", "activation")},
                dtype="int8")
    return net, PolicyNet.load(tmp_path / "q")


def test_quantize_rows_bounds_every_entry():
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.5, (40, 30)).astype(np.float32)
    w[3] = 0.0                       # an all-zero row keeps a positive scale
    w[5, 7] = 9.0                    # one large entry sets its row's scale
    q, scale = quantize_rows(w)
    assert q.dtype == np.int8 and scale.dtype == np.float32 and scale.shape == (40,)
    assert (scale > 0).all() and scale[3] == 1.0 and not q[3].any()
    assert np.abs(q).max() <= 127 and q[5, 7] == 127
    assert (np.abs(q * scale[:, None] - w) <= scale[:, None] / 2 + 1e-7).all()


def test_int8_file_round_trips_within_half_a_scale(tmp_path):
    net, back = _int8_copy(tmp_path)
    tensors = torch.load(tmp_path / "q.pt", weights_only=True)
    assert set(tensors) == {f"layer{i}.{k}" for i in range(3) for k in ("weight", "bias", "weight_scale")}
    assert all(tensors[f"layer{i}.weight"].dtype == torch.int8 for i in range(3))
    assert json.loads((tmp_path / "q.json").read_text())["dtype"] == "int8"
    for (w, b), (w8, b8), i in zip(net.layers, back.layers, range(3)):
        scale = tensors[f"layer{i}.weight_scale"].numpy()
        assert w8.dtype == np.float32 and w8.shape == w.shape
        assert (np.abs(w8 - w) <= scale[:, None] / 2 + 1e-6).all()
        assert np.array_equal(b8, b)  # biases stay float32
    # the weights take a quarter of their float32 bytes (plus a scale per row)
    assert (tmp_path / "q.pt").stat().st_size < 0.5 * (tmp_path / "p.pt").stat().st_size


def test_int8_net_picks_the_float_nets_clear_choices(tmp_path):
    """Where the float32 net's best action leads the runner-up by more than the quantization can move two
    logits, the int8 net picks the same action."""
    net, back = _int8_copy(tmp_path)
    rng = np.random.default_rng(2)
    obs = rng.random((200, net.obs_size)).astype(np.float32)
    z, z8 = net.logits(obs), back.logits(obs)
    top2 = np.sort(z, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 2 * np.abs(z8 - z).max()
    assert clear.sum() > 100
    assert (z.argmax(axis=1)[clear] == z8.argmax(axis=1)[clear]).all()


INT8_CASES = {
    "float weight": (lambda t: dict(t, **{"layer1.weight": t["layer1.weight"].float()}), "must be an int8 tensor"),
    "no scale": (lambda t: {k: v for k, v in t.items() if k != "layer0.weight_scale"},
                 "missing: \\['layer0.weight_scale'\\]"),
    "zero scale": (lambda t: dict(t, **{"layer2.weight_scale": torch.zeros_like(t["layer2.weight_scale"])}),
                   "positive scales"),
    "NaN scale": (lambda t: dict(t, **{"layer2.weight_scale": torch.full_like(t["layer2.weight_scale"], float("nan"))}),
                  "NaN or infinite"),
    "scale shape": (lambda t: dict(t, **{"layer1.weight_scale": torch.ones(3)}), "layer1.weight_scale has shape"),
}


@pytest.mark.parametrize("case", sorted(INT8_CASES))
def test_malformed_int8_file_is_one_clear_error(tmp_path, case):
    _int8_copy(tmp_path)
    change, message = INT8_CASES[case]
    torch.save(change(torch.load(tmp_path / "q.pt", weights_only=True)), tmp_path / "q.pt")
    with pytest.raises(PolicyFileError, match=message):
        PolicyNet.load(tmp_path / "q")


def test_int8_weights_in_a_float_file_are_refused(tmp_path):
    """A file whose metadata says float32 holds float tensors only (an int8 weight is not dequantized
    without its scales)."""
    _int8_copy(tmp_path)
    rewrite_meta(tmp_path / "q.json", dtype="float32")
    with pytest.raises(PolicyFileError, match="unexpected: \\['layer0.weight_scale'"):
        PolicyNet.load(tmp_path / "q")


def test_unknown_dtype_is_refused(tmp_path):
    random_policy(tmp_path / "p")
    rewrite_meta(tmp_path / "p.json", dtype="int4")
    with pytest.raises(PolicyFileError, match="'dtype' must be one of float32, float16, int8"):
        PolicyNet.load(tmp_path / "p")
    with pytest.raises(ValueError, match="bad dtype 'int4'"):
        save_policy(tmp_path / "x", [], {}, dtype="int4")


def test_ship_int8(tmp_path):
    from bean_env.training.ship import main, ship

    random_policy(tmp_path / "p")
    path = ship(tmp_path / "p", "duel_int8", int8=True, weights_dir=tmp_path / "w")
    assert json.loads(path.with_suffix(".json").read_text())["dtype"] == "int8"
    PolicyNet.load(path)
    with pytest.raises(ValueError, match="one of float16 and int8"):
        ship(tmp_path / "p", "both", float16=True, int8=True, weights_dir=tmp_path / "w")
    with pytest.raises(SystemExit):
        main([str(tmp_path / "p"), "both", "--float16", "--int8"])


def test_a_refused_ship_leaves_the_shipped_pair_as_it_was(tmp_path, monkeypatch, capsys):
    """Shipping over an existing name writes nothing until the new pair passes every check: a too-large
    policy is refused and the shipped files stay byte for byte; the command names a missing source."""
    from bean_env.training import ship as shipping

    random_policy(tmp_path / "p")
    weights = tmp_path / "w"
    path = shipping.ship(tmp_path / "p", "duel", weights_dir=weights)
    before = path.read_bytes(), path.with_suffix(".json").read_bytes()
    monkeypatch.setattr(shipping, "MAX_BYTES", 10)
    with pytest.raises(ValueError, match="5 MB or more"):
        shipping.ship(tmp_path / "p", "duel", weights_dir=weights)
    assert (path.read_bytes(), path.with_suffix(".json").read_bytes()) == before
    assert sorted(x.name for x in weights.iterdir()) == ["duel.json", "duel.pt"]
    with pytest.raises(SystemExit):
        shipping.main([str(tmp_path / "nowhere"), "x"])
    assert "nowhere.pt not found" in capsys.readouterr().err
