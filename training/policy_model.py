"""The batched trainer's network: an actor (torso, then a flat head or the structured offer head) and a
separate critic, both tanh MLPs; exported as the ``ppo`` agent's ``PolicyNet`` (``agents/ppo.py``).

Heads (``HEADS``): ``flat``, one output row per catalogue action; ``offers``, the structured offer head
(``agents/offer_head.py``: whole offers scored from their parts, a flat row for every other action);
``auto``: ``offers`` where the catalogue has whole offers (``bohnanza`` with ``offer_actions="macro"``),
else ``flat``.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from bean_env.agents.offer_head import OfferHead, OfferParts
from bean_env.agents.ppo import MASKED_LOGIT, PolicyNet

HEADS = ("auto", "flat", "offers")


def _linear(n_in: int, n_out: int, std: float) -> nn.Linear:
    layer = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(layer.weight, std)
    nn.init.zeros_(layer.bias)
    return layer


def _mlp(sizes: list[int]) -> nn.Sequential:
    mods: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        mods += [_linear(a, b, math.sqrt(2)), nn.Tanh()]
    return nn.Sequential(*mods)


class OfferHeadModule(nn.Module):
    """The structured offer head in torch: offers' logits ``query(h) @ tanh(F @ parts + parts_bias).T``."""

    def __init__(self, hidden: int, where: OfferParts, dim: int):
        super().__init__()
        self.where = where
        self.query = _linear(hidden, dim, 0.01)
        self.parts = nn.Parameter(torch.randn(where.size, dim) / math.sqrt(where.size))
        self.parts_bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("features", torch.from_numpy(where.features.copy()))

        self._cached: tuple | None = None  # (parameter versions, table) while no gradient is taken

    def table(self) -> torch.Tensor:
        """Every offer's embedding ``[offers, dim]`` (kept between no-grad calls until a parameter changes)."""
        if torch.is_grad_enabled():
            return torch.tanh(self.features @ self.parts + self.parts_bias)
        key = (self.parts._version, self.parts_bias._version, self.parts.data_ptr())
        if self._cached is None or self._cached[0] != key:
            self._cached = (key, torch.tanh(self.features @ self.parts + self.parts_bias))
        return self._cached[1]

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.query(h) @ self.table().T


class ActorCritic(nn.Module):
    """Actor and critic for ``obs_size`` observations and ``num_actions`` actions; ``where``: the offers for
    the structured head (None: a flat head)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int], where: OfferParts | None = None,
                 offer_dim: int = 32):
        super().__init__()
        width = hidden[-1] if hidden else obs_size
        self.num_actions = num_actions
        self.torso = _mlp([obs_size, *hidden])
        self.where = where
        self.flat = _linear(width, num_actions - (where.count if where else 0), 0.01)
        self.offers = OfferHeadModule(width, where, offer_dim) if where is not None else None
        self.critic = nn.Sequential(_mlp([obs_size, *hidden]), _linear(width, 1, 1.0))
        # action index -> its place in [flat rows, offers] (``pair_logits``)
        order = torch.arange(num_actions)
        if where is not None:
            n_flat = num_actions - where.count
            order[where.start:where.stop] = torch.arange(n_flat, num_actions)
            order[where.stop:] = torch.arange(where.start, n_flat)
        self.register_buffer("order", order, persistent=False)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """Unmasked logits ``[n, num_actions]``."""
        h = self.torso(obs)
        flat = self.flat(h)
        if self.offers is None:
            return flat
        start = self.where.start
        return torch.cat([flat[:, :start], self.offers(h), flat[:, start:]], dim=1)

    def masked_logits(self, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """Logits with every illegal action at ``MASKED_LOGIT`` (probability exactly 0 after softmax)."""
        return torch.where(masks, self.logits(obs), torch.full((), MASKED_LOGIT, device=obs.device))

    def pair_logits(self, obs: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
        """The logits of the (row, action) pairs ``rows``, ``cols`` only (the legal actions of a batch):
        the same values as ``logits(obs)[rows, cols]``, with the elementwise work of the loss on the pairs."""
        h = self.torso(obs)
        flat = self.flat(h).reshape(-1)
        if self.offers is None:
            return flat[rows * self.num_actions + cols]
        where, n_flat = self.where, self.num_actions - self.where.count
        place = self.order[cols]
        offer = place >= n_flat
        z_flat = flat[rows * n_flat + torch.where(offer, 0, place)]
        # the offers' logits only for the rows with a legal offer (about one decision in ten)
        bidding = torch.unique(rows[offer])
        if not len(bidding):
            return z_flat
        compact = torch.zeros(len(obs), dtype=torch.long, device=obs.device)
        compact[bidding] = torch.arange(len(bidding), device=obs.device)
        at = compact[rows] * where.count + torch.where(offer, place - n_flat, 0)
        z_offer = self.offers(h[bidding]).reshape(-1)[at]
        return torch.where(offer, z_offer, z_flat)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def policy_net(self, meta: dict) -> PolicyNet:
        """A numpy copy of the actor as the ``ppo`` agent plays it (``meta``: the policy file's metadata)."""
        def arr(t: torch.Tensor) -> np.ndarray:
            return t.detach().cpu().numpy().astype(np.float32).copy()

        layers = [(arr(m.weight), arr(m.bias)) for m in self.torso if isinstance(m, nn.Linear)]
        layers.append((arr(self.flat.weight), arr(self.flat.bias)))
        head = None
        if self.offers is not None:
            o = self.offers
            head = OfferHead(arr(o.query.weight), arr(o.query.bias), arr(o.parts), arr(o.parts_bias), self.where)
        hidden = [int(w.shape[0]) for w, _ in layers[:-1]]
        full = dict(meta, activation="tanh", obs_size=int(layers[0][0].shape[1]), num_actions=self.num_actions,
                    hidden=hidden)
        if head is not None:
            full["head"] = head.meta()
        return PolicyNet(layers, "tanh", full, head)


def parameter_counts(model: ActorCritic) -> dict[str, int]:
    """Parameters of the actor's output (flat rows plus offer head) and of the whole model."""
    head = sum(p.numel() for p in model.flat.parameters())
    if model.offers is not None:
        head += sum(p.numel() for p in model.offers.parameters())
    return {"head": head, "total": sum(p.numel() for p in model.parameters())}
