"""The ``ppo`` agent: a trained policy network acting from a player's view.

A *policy file* is a pair ``NAME.pt`` + ``NAME.json``:
- ``NAME.pt``: ``torch.save`` of a plain ``{name: tensor}`` dict (the actor's linear layers, ``layer{i}.weight``
  and ``layer{i}.bias``), read back with ``torch.load(weights_only=True)``, so loading a file cannot run code;
  stored as float32, float16 or *int8* (each weight row as 8-bit integers times one float32 scale per row,
  ``layer{i}.weight_scale``; biases float32), as the metadata's ``dtype`` says; read back as float32;
- ``NAME.json``: metadata: the variant and its full rule config, the observation and action sizes, the
  observation layout hash (``layout_hash``), the hidden layer widths and activation, and how (and with
  which code and library versions) the policy was trained.

Format ``bean_env.ppo_policy/2`` is the flat head (the last layer has one row per action). Format ``/3``
adds a ``head`` field: the structured offer head (``agents/offer_head.py``; ``head.kind`` is
``"offer_parts"``), where the last layer has a row for every action but the offers and the tensors
``offer.query.weight``/``.bias`` and ``offer.parts.weight``/``.bias`` score the offers from their parts
(stored float32, or float16 in a float16 file). Both formats are read.

Loading validates everything (keys and types of the metadata, every tensor's shape against the layer
sizes, finite values) and raises ``PolicyFileError`` (a ``ValueError``) naming the problem; a policy whose
layout hash differs from the env's observation is refused even when the sizes agree. ``checkpoint`` may
also be a training run directory (its ``policy`` pair). Without a checkpoint the agent uses the shipped
policy trained for the view's exact variant config (``agents/weights/*.json``).

The network is the actor half of a MaskablePPO (sb3-contrib) / RLlib PPO / batched PPO policy: linear
layers with an activation between them, giving one logit per action of the variant's action catalogue (or,
with the structured offer head, per action but the whole offers, which the head scores). Illegal actions
are masked out (logit -1e8, as MaskablePPO does), then the agent takes the most likely action
(``deterministic=True``, the default) or samples one with its own seeded generator.

The agent builds the same observation vector the PettingZoo env builds (``bean_env.envs.observation``)
from the masked state of the view, and the mask from the legal actions via the action catalogue.
Needs torch (the ``train`` extra) to read policy files, but not stable-baselines3; the forward pass is numpy.
"""
from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Sequence

import numpy as np

from bean_env.engine.actions import Action
from bean_env.engine.catalogue import catalogue_for
from bean_env.engine.config import validate
from bean_env.engine.game import new_game
from bean_env.engine.views import PlayerView, SeatHistory

from .base import Agent

if TYPE_CHECKING:
    from .offer_head import OfferHead

FORMAT = "bean_env.ppo_policy/2"       # flat head
FORMAT_HEAD = "bean_env.ppo_policy/3"  # structured offer head (metadata field ``head``)
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
ACTIVATIONS = ("tanh", "relu")
MASKED_LOGIT = -1e8
DTYPES = ("float32", "float16", "int8")  # how a weights file may store its weights
MAX_LAYERS = 16
MAX_WIDTH = 1 << 16


class PolicyFileError(ValueError):
    """A policy file pair (or run directory) that cannot be used: malformed or inconsistent metadata,
    missing, extra or wrongly shaped tensors, non-finite weights, an unreadable or code-carrying weights
    file. The message names the file and the problem."""


def _torch():
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("the 'ppo' agent needs torch: pip install 'bean-env[train]'") from exc
    return torch


def _array(x) -> np.ndarray:
    """A float32 numpy copy of a tensor or array."""
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return np.array(x, dtype=np.float32)


def layout_hash(encoder) -> str:
    """The observation layout hash of an encoder: its own ``layout_hash()`` where it has one, else a
    sha256 over its blocks' names, positions and upper bounds (any change of layout changes it)."""
    own = getattr(encoder, "layout_hash", None)
    if callable(own):
        return str(own())
    h = hashlib.sha256()
    for name, start, stop, _doc in encoder.layout():
        h.update(f"{name}:{start}:{stop};".encode())
    h.update(np.asarray(encoder.high, dtype="<f4").tobytes())
    return h.hexdigest()[:16]


def encoder_of(variant: str, config: dict):
    """The observation encoder of a variant config (validated by the engine): the one the envs use."""
    from bean_env.envs.obs import encoder_for  # numpy only; no pettingzoo import

    full = validate(variant, dict(config))
    return encoder_for(new_game(variant, seed=0, **full))


def policy_paths(path: str | Path) -> tuple[Path, Path]:
    """The (weights, metadata) files of a policy given either file, their common stem, or a training run
    directory (its exported ``policy`` pair)."""
    p = Path(path)
    if p.is_dir():
        if not (p / "policy.json").exists():
            raise FileNotFoundError(f"{p} is a directory without a policy.json: not a finished training run "
                                    "(pass a policy file NAME.pt / NAME.json or a run directory)")
        p = p / "policy"
    if p.suffix in (".pt", ".json"):
        p = p.with_suffix("")
    return p.with_suffix(".pt"), p.with_suffix(".json")


def _read_meta(meta_path: Path) -> dict:
    """A policy's metadata, checked for the keys and types the loader relies on."""
    try:
        meta = json.loads(meta_path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolicyFileError(f"{meta_path}: metadata is not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(f"{meta_path}: metadata must be a JSON object, not {type(meta).__name__}")
    if meta.get("format") not in (FORMAT, FORMAT_HEAD):
        old = " (written before layout hashes: retrain or re-export it)" if meta.get("format") == \
            "bean_env.ppo_policy/1" else ""
        raise PolicyFileError(f"{meta_path}: not a bean_env policy of this version (format "
                              f"{meta.get('format')!r}, expected {FORMAT!r} or {FORMAT_HEAD!r}){old}")

    def need(key, kind, what):
        value = meta.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise PolicyFileError(f"{meta_path}: metadata field {key!r} must be {what}, got {value!r}")
        return value

    need("variant", str, "a variant name")
    need("config", dict, "a JSON object of rule options")
    need("layout_hash", str, "the observation layout hash (a string)")
    if meta.get("dtype", "float32") not in DTYPES:
        raise PolicyFileError(f"{meta_path}: metadata field 'dtype' must be one of {', '.join(DTYPES)}, "
                              f"got {meta.get('dtype')!r}")
    if meta.get("activation") not in ACTIVATIONS:
        raise PolicyFileError(f"{meta_path}: metadata field 'activation' must be one of "
                              f"{', '.join(ACTIVATIONS)}, got {meta.get('activation')!r}")
    for key in ("obs_size", "num_actions"):
        v = need(key, int, "a positive integer")
        if not 0 < v <= MAX_WIDTH * 4:
            raise PolicyFileError(f"{meta_path}: metadata field {key!r} out of range: {v}")
    hidden = need("hidden", list, "a list of layer widths")
    if len(hidden) > MAX_LAYERS or not all(isinstance(h, int) and not isinstance(h, bool) and 0 < h <= MAX_WIDTH
                                           for h in hidden):
        raise PolicyFileError(f"{meta_path}: metadata field 'hidden' must list at most {MAX_LAYERS} widths "
                              f"in 1..{MAX_WIDTH}, got {hidden!r}")
    _check_head_meta(meta_path, meta)
    return meta


def _check_head_meta(meta_path: Path, meta: dict) -> None:
    """The ``head`` field: absent in a flat-head file (format /2), a structured head in format /3."""
    from .offer_head import KIND

    head = meta.get("head")
    if meta["format"] == FORMAT:
        if head is not None:
            raise PolicyFileError(f"{meta_path}: metadata field 'head' needs format {FORMAT_HEAD!r}")
        return
    if not isinstance(head, dict) or head.get("kind") != KIND:
        raise PolicyFileError(f"{meta_path}: metadata field 'head' must be an object with kind {KIND!r}, "
                              f"got {head!r}")
    for key in ("start", "stop", "parts", "dim"):
        v = head.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_WIDTH * 4:
            raise PolicyFileError(f"{meta_path}: metadata field 'head.{key}' must be a non-negative integer, "
                                  f"got {v!r}")
    if not (head["start"] < head["stop"] <= meta["num_actions"] and head["parts"] > 0 and head["dim"] > 0):
        raise PolicyFileError(f"{meta_path}: metadata field 'head' does not fit {meta['num_actions']} actions: "
                              f"{head!r}")


def _read_layers(weights_path: Path, meta: dict) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict]:
    """The linear layers of a weights file and its head tensors by name (none for a flat head), each shape
    checked against the metadata's sizes."""
    torch = _torch()
    try:
        tensors = torch.load(weights_path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is one error type
        raise PolicyFileError(f"{weights_path}: not a plain-tensor weights file (loaded with "
                              f"weights_only=True, so no code runs): {str(exc).splitlines()[0][:300]}") from None
    if not isinstance(tensors, dict):
        raise PolicyFileError(f"{weights_path}: expected a dict of tensors, got {type(tensors).__name__}")
    head = meta.get("head")
    offers = head["stop"] - head["start"] if head else 0
    sizes = [meta["obs_size"], *meta["hidden"], meta["num_actions"] - offers]
    count = len(sizes) - 1
    quantized = meta.get("dtype") == "int8"
    parts = ("weight", "bias", "weight_scale") if quantized else ("weight", "bias")
    expected = {f"layer{i}.{k}" for i in range(count) for k in parts}
    head_shapes = _head_shapes(meta)
    expected |= set(head_shapes)
    missing, extra = sorted(expected - set(tensors)), sorted(set(map(str, tensors)) - expected)
    if missing or extra:
        raise PolicyFileError(f"{weights_path}: tensors do not match {count} layers of sizes {sizes} "
                              f"(missing: {missing or 'none'}; unexpected: {extra[:5] or 'none'})")
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        pair = {}
        for part, shape in (("weight", (n_out, n_in)), ("bias", (n_out,)), ("weight_scale", (n_out,))):
            key = f"layer{i}.{part}"
            if key not in expected:
                continue
            t = tensors[key]
            integer = quantized and part == "weight"
            if not isinstance(t, torch.Tensor) or (t.dtype != torch.int8 if integer else not t.is_floating_point()):
                raise PolicyFileError(f"{weights_path}: {key} must be {'an int8' if integer else 'a float'} "
                                      f"tensor, got {getattr(t, 'dtype', type(t).__name__)}")
            if tuple(t.shape) != shape:
                raise PolicyFileError(f"{weights_path}: {key} has shape {tuple(t.shape)}, but the metadata's "
                                      f"layer sizes {sizes} need {shape}")
            a = _array(t)
            if not np.isfinite(a).all():
                raise PolicyFileError(f"{weights_path}: {key} holds NaN or infinite values")
            if part == "weight_scale" and not (a > 0).all():
                raise PolicyFileError(f"{weights_path}: {key} must hold positive scales")
            pair[part] = a
        weight = pair["weight"] * pair["weight_scale"][:, None] if quantized else pair["weight"]
        layers.append((weight, pair["bias"]))
    head_tensors = {}
    for key, shape in head_shapes.items():
        t = tensors[key]
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or tuple(t.shape) != shape:
            raise PolicyFileError(f"{weights_path}: {key} must be a float tensor of shape {shape}, got "
                                  f"{getattr(t, 'dtype', type(t).__name__)} {tuple(getattr(t, 'shape', ()))}")
        a = _array(t)
        if not np.isfinite(a).all():
            raise PolicyFileError(f"{weights_path}: {key} holds NaN or infinite values")
        head_tensors[key] = a
    return layers, head_tensors


def _head_shapes(meta: dict) -> dict[str, tuple[int, ...]]:
    """The head tensors a policy file holds (none for a flat head) and their shapes."""
    from .offer_head import head_shapes

    head = meta.get("head")
    if not head:
        return {}
    return head_shapes(head, meta["hidden"][-1] if meta["hidden"] else meta["obs_size"])


def _shipped_metas() -> list[tuple[Path, dict]]:
    out = []
    for meta_path in sorted(WEIGHTS_DIR.glob("*.json")):
        if not meta_path.with_suffix(".pt").exists():
            continue
        try:
            out.append((meta_path.with_suffix(".pt"), _read_meta(meta_path)))
        except PolicyFileError:
            continue
    return out


def shipped_checkpoint(variant: str, config: dict | None = None) -> Path | None:
    """The policy shipped with the package for ``variant`` (None if there is none). With ``config`` (a
    full rule config), the one trained for exactly that config; without, the one named ``variant``."""
    if config is None:
        weights, meta = policy_paths(WEIGHTS_DIR / variant)
        return weights if weights.exists() and meta.exists() else None
    for weights, meta in _shipped_metas():
        if meta["variant"] == variant and dict(meta["config"]) == dict(config):
            return weights
    return None


def shipped_configs(variant: str) -> list[dict]:
    """The full rule configs of the policies shipped for ``variant``."""
    return [dict(meta["config"]) for _, meta in _shipped_metas() if meta["variant"] == variant]


def shipped_hint(variant: str, config: dict) -> str:
    """For the error of a config without a shipped policy: the shipped config of ``variant`` that differs
    from ``config`` in the fewest options, and those options (or the variants that have policies)."""
    configs = shipped_configs(variant)
    if not configs:
        return f" (policies are shipped for: {', '.join(shipped_variants()) or 'none'})"
    diffs = [[k for k in sorted(set(c) | set(config)) if c.get(k) != config.get(k)] for c in configs]
    seats = config.get("num_players") or 0

    def distance(i: int) -> tuple:  # fewest differing options, then the nearest player count
        return len(diffs[i]), abs((configs[i].get("num_players") or 0) - seats), i

    best = min(range(len(configs)), key=distance)
    shipped = configs[best]
    parts = ", ".join(f"{k}={shipped.get(k)!r} (here {config.get(k)!r})" for k in diffs[best])
    counts = sorted({c.get("num_players") for c in configs if c.get("num_players") is not None})
    players = f" for {', '.join(map(str, counts))} players" if counts else ""
    return (f". {len(configs)} {variant!r} policies are shipped{players}; the closest differs in {parts}"
            + ("; the learning preset sets those: trade_preset='learning'"
               if shipped.get("trade_preset") == "learning" and config.get("trade_preset") != "learning" else ""))


def shipped_variants() -> list[str]:
    """Variants that have a shipped policy."""
    return sorted({meta["variant"] for _, meta in _shipped_metas()})


def quantize_rows(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A weight matrix ``[out, in]`` as int8 values and one positive float32 scale per row (the row's
    largest magnitude / 127; 1.0 for an all-zero row), so that ``q * scale[:, None]`` is within half a
    scale of ``w`` in every entry."""
    w = np.asarray(w, dtype=np.float32)
    peak = np.abs(w).max(axis=1) if w.size else np.zeros(w.shape[0], np.float32)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def save_policy(path: str | Path, layers: Sequence[tuple[np.ndarray, np.ndarray]], meta: dict,
                dtype: str = "float32", head: OfferHead | None = None) -> Path:
    """Write a policy file pair from ``layers`` (``(weight[out, in], bias[out])`` per linear layer, input
    first) and ``meta`` (must hold ``variant``, ``config``, ``activation``; ``layout_hash`` is computed from
    the variant config's observation encoder unless given). ``dtype="float16"`` halves the file,
    ``"int8"`` quarters its weights (``quantize_rows``); all are read back as float32. ``head``: a
    structured offer head (``offer_head.OfferHead``; the last layer then covers the other actions), written
    as format /3. Returns the weights path."""
    torch = _torch()
    if dtype not in DTYPES:
        raise ValueError(f"bad dtype {dtype!r}; allowed: {', '.join(map(repr, DTYPES))}")
    weights_path, meta_path = policy_paths(path)
    weights_path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for i, (w, b) in enumerate(layers):
        w, b = np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"layer {i} holds NaN or infinite values; not saving {weights_path}")
        if dtype == "int8":
            q, scale = quantize_rows(w)
            tensors[f"layer{i}.weight"] = torch.as_tensor(q).clone()
            tensors[f"layer{i}.weight_scale"] = torch.as_tensor(scale).clone()
            tensors[f"layer{i}.bias"] = torch.as_tensor(b).clone()
        else:
            tensors[f"layer{i}.weight"] = torch.as_tensor(w.astype(dtype)).clone()
            tensors[f"layer{i}.bias"] = torch.as_tensor(b.astype(dtype)).clone()
            if not all(torch.isfinite(tensors[f"layer{i}.{part}"]).all() for part in ("weight", "bias")):
                raise PolicyFileError(f"layer {i} overflows {dtype}; not saving {weights_path}")
    full = dict(meta)
    full.pop("head", None)
    offers = 0
    if head is not None:
        offers = head.where.count
        full["head"] = head.meta()
        for key, a in head.tensors().items():
            a = np.asarray(a, dtype=np.float16 if dtype == "float16" else np.float32)
            if not np.isfinite(a).all():
                raise PolicyFileError(f"{key} holds NaN or infinite values (or overflows {dtype}); not saving "
                                      f"{weights_path}")
            tensors[key] = torch.as_tensor(a).clone()
    if "layout_hash" not in full:
        full["layout_hash"] = layout_hash(encoder_of(full["variant"], full["config"]))
    full.update(format=FORMAT_HEAD if head is not None else FORMAT, obs_size=int(layers[0][0].shape[1]),
                num_actions=int(layers[-1][0].shape[0]) + offers, hidden=[int(w.shape[0]) for w, _ in layers[:-1]],
                dtype=dtype)
    if full.get("activation") not in ACTIVATIONS:
        raise ValueError(f"bad activation {full.get('activation')!r}; allowed: {', '.join(ACTIVATIONS)}")
    torch.save(tensors, weights_path)
    meta_path.write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
    return weights_path


def _load_head(meta_path: Path, meta: dict, tensors: dict) -> OfferHead | None:
    """The structured head of a loaded policy (None for a flat one), checked against its variant config's
    catalogue (the offers' place and part vectors come from the catalogue)."""
    if not meta.get("head"):
        return None
    from .offer_head import OfferHead, offer_parts

    head = meta["head"]
    try:
        where = offer_parts(catalogue_for(meta["variant"], meta["config"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise PolicyFileError(f"{meta_path}: variant config {meta['variant']!r} {meta['config']} is not valid "
                              f"({exc})") from None
    if where is None or (where.start, where.stop, where.size) != (head["start"], head["stop"], head["parts"]):
        found = None if where is None else {"start": where.start, "stop": where.stop, "parts": where.size}
        raise PolicyFileError(f"{meta_path}: metadata field 'head' {head!r} does not match the offers of "
                              f"{meta['variant']!r} under its config ({found or 'no offers'})")
    return OfferHead(tensors["offer.query.weight"], tensors["offer.query.bias"], tensors["offer.parts.weight"],
                     tensors["offer.parts.bias"], where)


class PolicyNet:
    """The actor network of a policy file: ``logits(obs)`` and masked action choice; ``head``: the structured
    offer head (``offer_head.OfferHead``) or None.

    The forward pass runs in numpy (float32): for one observation at a time it is the same arithmetic
    as the torch layers and far cheaper per call (torch's per-call overhead and thread pool dominate a
    batch of one; measured ~55 us numpy against up to 24 ms torch on a busy 2-core machine)."""

    def __init__(self, layers: list[tuple], activation: str, meta: dict | None = None,
                 head: OfferHead | None = None):
        if activation not in ACTIVATIONS:
            raise ValueError(f"bad activation {activation!r}; allowed: {', '.join(ACTIVATIONS)}")
        self.meta = dict(meta or {})
        self.activation = activation
        self.layers = [(_array(w), _array(b)) for w, b in layers]
        #: the structured offer head (``offer_head.OfferHead``), or None: a flat head (``layers[-1]``: every action)
        self.head = head
        self.obs_size = int(self.layers[0][0].shape[1])
        self.num_actions = int(self.layers[-1][0].shape[0]) + (head.where.count if head is not None else 0)

    @classmethod
    def load(cls, path: str | Path) -> "PolicyNet":
        """Read and fully validate a policy file pair (or a run directory's policy); no code runs: tensors
        only (``weights_only=True``), JSON metadata. Raises ``PolicyFileError`` naming the problem."""
        weights_path, meta_path = policy_paths(path)
        for p in (weights_path, meta_path):
            if not p.exists():
                raise FileNotFoundError(f"policy file {p} not found (a policy is NAME.pt + NAME.json)")
        meta = _read_meta(meta_path)
        layers, tensors = _read_layers(weights_path, meta)
        return cls(layers, meta["activation"], meta, _load_head(meta_path, meta, tensors))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked logits for one observation ``[obs_size]`` or a batch ``[n, obs_size]``."""
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.layers) - 1
        h = x
        for i, (w, b) in enumerate(self.layers):
            if i == last:
                h = x
            x = x @ w.T + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        if self.head is None:
            return x
        from .offer_head import assemble

        return assemble(x, self.head.logits(h), self.head.where)

    def masked_logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Logits with illegal actions set to -1e8 (numpy, float64)."""
        z = self.logits(obs).astype(np.float64)
        return np.where(np.asarray(mask, dtype=bool), z, MASKED_LOGIT)

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """The index of the chosen action: argmax if ``rng`` is None, else a sample."""
        z = self.masked_logits(obs, mask)
        if rng is None:
            return int(np.argmax(z))
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(rng.choice(len(p), p=p))


def check_compatible(meta: dict, variant: str, config: dict, obs_size: int, num_actions: int,
                     source: str = "policy", layout: str | None = None) -> None:
    """Raise ``ValueError`` with a clear message if a policy does not fit a variant config (variant, rule
    options, sizes, and the observation layout hash ``layout`` when given)."""
    if meta.get("variant") != variant:
        raise ValueError(f"{source} was trained for variant {meta.get('variant')!r}, not {variant!r}; "
                         f"use a checkpoint for {variant!r}")
    trained = meta.get("config", {})
    if trained and dict(trained) != dict(config):
        diff = {k: (trained.get(k), config.get(k)) for k in set(trained) | set(config)
                if trained.get(k) != config.get(k)}
        raise ValueError(f"{source} was trained for {variant!r} with other rule options "
                         f"(option: (trained, asked)): {diff}")
    if (meta.get("obs_size"), meta.get("num_actions")) != (obs_size, num_actions):
        raise ValueError(f"{source} expects {meta.get('obs_size')} observation entries and "
                         f"{meta.get('num_actions')} actions, but {variant!r} has {obs_size} and {num_actions} "
                         "(the observation or action layout changed since it was trained)")
    if layout is not None and meta.get("layout_hash") != layout:
        raise ValueError(f"{source} was trained on observation layout {meta.get('layout_hash')!r}, but "
                         f"{variant!r} now has layout {layout!r} (same sizes, different meaning): retrain it")


class PPOAgent(Agent):
    """Acts with a trained PPO policy. ``checkpoint``: a policy file (``.pt``/``.json`` or their stem);
    without it, the policy shipped for the variant of the first view is used."""

    name = "ppo"

    def __init__(self, seed: int | None = None, checkpoint: str | Path | None = None,
                 deterministic: bool = True):
        super().__init__(seed)
        self.deterministic = deterministic
        self.np_rng = np.random.default_rng(seed)
        self.checkpoint = Path(checkpoint) if checkpoint is not None else None
        self.net: PolicyNet | None = PolicyNet.load(self.checkpoint) if self.checkpoint is not None else None
        self._shipped = checkpoint is None      # pick the shipped policy of each view's variant
        self._checked: dict[tuple, tuple] = {}   # (variant, config) -> (net, encoder, catalogue)
        self._memory = None                      # negotiation memory of the game being followed
        self._warned = False

    def reset(self) -> None:
        self._memory = None

    def observe(self, view: PlayerView) -> None:
        """Follow the game's public history: call after every applied action (forced ones too) with this
        agent's view. Trading variants' observations have a memory of this turn's offers and acceptances
        (the env keeps it the same way); an agent that is not followed sees it empty, and warns once."""
        _, encoder, _ = self._setup(view)
        if not hasattr(encoder, "new_memory"):
            return
        mem = self._memory  # it reads the seat's masked history (SeatHistory), never a hidden card (INFO-3)
        if mem is not None and mem._history.follow(view):
            mem.update(SimpleNamespace(history=mem._history, state=view.state))
        elif mem is None or not mem._history.at(view):
            self._memory = encoder.new_memory().reset(SimpleNamespace(history=SeatHistory(view), state=view.state))

    def _memory_for(self, view: PlayerView, encoder):
        mem = self._memory
        if mem is not None and mem._history.at(view):
            return mem
        if view.last_action is None and hasattr(encoder, "new_memory"):
            self._memory = encoder.new_memory().reset(SimpleNamespace(history=SeatHistory(view), state=view.state))
            return self._memory
        if getattr(mem or (encoder.new_memory() if hasattr(encoder, "new_memory") else None), "active", False) \
                and not self._warned:
            self._warned = True
            warnings.warn("ppo agent: not following this game (call agent.observe(view) after every action), so "
                          "its negotiation memory of this turn's offers is empty; its observations may differ from "
                          "the env's in trade phases", RuntimeWarning, stacklevel=3)
        return None

    @classmethod
    def from_net(cls, net: PolicyNet, seed: int | None = None, deterministic: bool = True) -> "PPOAgent":
        """An agent around an in-memory network (used by training's evaluation)."""
        agent = cls(seed=seed, deterministic=deterministic)
        agent.net, agent._shipped = net, False
        return agent

    def _setup(self, view: PlayerView):
        """The (network, encoder, catalogue) for the view's variant config, checked once."""
        config = view.config
        key = (view.variant, tuple(sorted(config.items())))
        found = self._checked.get(key)
        if found is not None:
            return found
        net, source = self.net, f"checkpoint {self.checkpoint}" if self.checkpoint else "policy"
        full = validate(view.variant, config)
        if self._shipped:
            path = shipped_checkpoint(view.variant, full)
            if path is None:
                raise ValueError(f"no shipped 'ppo' policy for variant {view.variant!r} with options {full}"
                                 f"{shipped_hint(view.variant, full)}; pass checkpoint=PATH")
            net, source = PolicyNet.load(path), f"shipped policy {path}"
            self.net, self.checkpoint = net, path
        encoder = encoder_of(view.variant, full)  # cached per variant config
        catalogue = catalogue_for(view.variant, full)
        check_compatible(net.meta, view.variant, full, encoder.size, catalogue.size, source, layout_hash(encoder))
        self._checked[key] = found = (net, encoder, catalogue)
        return found

    def _inputs(self, view: PlayerView, legal_actions: Sequence[Action]):
        net, encoder, catalogue = self._setup(view)
        obs = encoder.encode(view.state, view.player, self._memory_for(view, encoder))
        idx = catalogue.encode_all(legal_actions, view.player)
        mask = np.zeros(catalogue.size, dtype=bool)
        mask[idx] = True
        return net, catalogue, obs, mask, idx

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        net, catalogue, obs, mask, _ = self._inputs(view, legal_actions)
        choice = net.choose(obs, mask, None if self.deterministic else self.np_rng)
        return catalogue.decode(choice, view.player)

    def action_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> dict[Action, float]:
        """The policy's probability of each legal action (for analysis)."""
        net, _, obs, mask, idx = self._inputs(view, legal_actions)
        z = net.masked_logits(obs, mask)
        p = np.exp(z - z.max())
        p /= p.sum()
        return {a: float(p[i]) for a, i in zip(legal_actions, idx)}
