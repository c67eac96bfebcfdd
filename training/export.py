"""Export a trained MaskablePPO policy's actor to a policy file pair (``agents/ppo.py`` format).

The actor of an sb3-contrib ``MaskableActorCriticPolicy`` on a flat ``Box`` observation is:
flatten (identity for a vector) -> ``mlp_extractor.policy_net`` (Linear, activation, ...) ->
``action_net`` (Linear to one logit per action). Only those linear layers are exported.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from bean_env.agents.ppo import PolicyNet, save_policy

_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}


def sb3_actor(model) -> tuple[list, str]:
    """The actor's linear modules (input first: ``mlp_extractor.policy_net``'s, then ``action_net``) and its
    activation name; raises ``ValueError`` for a policy that cannot be exported."""
    import torch.nn as nn

    policy = model.policy
    if not getattr(policy, "share_features_extractor", True) or \
            type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError("only MaskablePPO policies with the default FlattenExtractor can be exported")
    layers, activation = [], None
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append(module)
        else:
            name = _ACTIVATIONS.get(type(module).__name__)
            if name is None:
                raise ValueError(f"unsupported activation {type(module).__name__}; allowed: Tanh, ReLU")
            if activation not in (None, name):
                raise ValueError("mixed activations cannot be exported")
            activation = name
    layers.append(policy.action_net)
    return layers, activation or "tanh"


def sb3_actor_layers(model) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The actor's linear layers ``[(weight, bias), ...]`` (input first) and its activation name."""
    layers, activation = sb3_actor(model)
    out = [(m.weight.detach().cpu().numpy().copy(), m.bias.detach().cpu().numpy().copy()) for m in layers]
    return out, activation


def load_sb3_actor(model, net: PolicyNet, source: str) -> None:
    """Copy a policy file's layers into the model's actor (the critic keeps its weights); raises
    ``ValueError`` naming ``source`` when the shapes or the activation differ."""
    import torch

    modules, activation = sb3_actor(model)
    if net.activation != activation:
        raise ValueError(f"{source}: activation {net.activation!r} differs from this run's {activation!r}")
    shapes = [tuple(w.shape) for w, _ in net.layers]
    want = [tuple(m.weight.shape) for m in modules]
    if shapes != want:
        raise ValueError(f"{source}: layer shapes {shapes} differ from this run's network {want} "
                         "(other --hidden or variant config)")
    with torch.no_grad():
        for m, (w, b) in zip(modules, net.layers):
            m.weight.copy_(torch.as_tensor(w))
            m.bias.copy_(torch.as_tensor(b))


def sb3_policy_net(model, meta: dict) -> PolicyNet:
    """An in-memory ``PolicyNet`` copy of the model's current actor."""
    layers, activation = sb3_actor_layers(model)
    full = dict(meta, activation=activation, obs_size=int(layers[0][0].shape[1]),
                num_actions=int(layers[-1][0].shape[0]), hidden=[int(w.shape[0]) for w, _ in layers[:-1]])
    return PolicyNet(layers, activation, full)


def export_sb3(model, path: str | Path, variant: str, config: dict, training: dict | None = None,
               provenance: dict | None = None, algorithm: str = "MaskablePPO (sb3-contrib)") -> Path:
    """Write the model's actor as ``path`` (.pt + .json); returns the weights path. ``provenance``
    (git commit, versions, layout hash; ``training.runs.provenance``) goes into the metadata, and
    ``algorithm`` says how the weights were trained."""
    layers, activation = sb3_actor_layers(model)
    meta = {"variant": variant, "config": dict(config), "activation": activation,
            "algorithm": algorithm, "training": dict(training or {})}
    if provenance is not None:
        meta.update(provenance=provenance, layout_hash=provenance["layout_hash"])
    return save_policy(path, layers, meta)
