"""Speed-ups of the training path that must not change what is trained."""
from __future__ import annotations

import dataclasses

import pytest

torch = pytest.importorskip("torch")
from bean_env.training.runs import unchecked_distributions  # noqa: E402


def test_unchecked_distributions_turns_checks_off_and_restores_them():
    dist = torch.distributions.Distribution
    before = dist._validate_args
    with unchecked_distributions():
        assert dist._validate_args is False
        nan = torch.distributions.Categorical(logits=torch.tensor([float("nan"), 0.0]))  # unchecked: no error
        with pytest.raises(RuntimeError, match="nan"):  # but a diverged network still stops the rollout
            nan.sample()
    assert dist._validate_args is before
    with pytest.raises(RuntimeError, match="boom"), unchecked_distributions():
        raise RuntimeError("boom")
    assert dist._validate_args is before


def _trained_parameters(unchecked: bool) -> tuple[list, list]:
    pytest.importorskip("sb3_contrib")
    from bean_env.training.selfplay import Args, build_model, make_vec_env, rule_config

    args = dataclasses.replace(Args(), variant="bean_duel", n_envs=2, n_steps=64, batch_size=32, n_epochs=2,
                               hidden="16", seed=5)
    torch.manual_seed(args.seed)
    model = build_model(args, make_vec_env(args, rule_config(args), []))
    initial = [p.detach().clone() for p in model.policy.parameters()]
    if unchecked:
        with unchecked_distributions():
            model.learn(256)
    else:
        checked = torch.distributions.Distribution._validate_args
        torch.distributions.Distribution.set_default_validate_args(True)
        try:
            model.learn(256)
        finally:
            torch.distributions.Distribution.set_default_validate_args(checked)
    return initial, [p.detach().clone() for p in model.policy.parameters()]


def test_training_is_bit_identical_without_distribution_checks():
    (initial, checked), (_, unchecked) = _trained_parameters(False), _trained_parameters(True)
    assert len(checked) == len(unchecked)
    assert all(torch.equal(a, b) for a, b in zip(checked, unchecked))
    assert not all(torch.equal(a, b) for a, b in zip(initial, checked))  # the updates did change the network
