"""The structured offer head: logits of whole offers (``OFFER_CARDS``) computed from the offer's parts.

An offer of the catalogue (addressee, given types, wanted types) is described by a fixed *part vector*
(``offer_parts``): one-hot addressee, the count of each bean type given and wanted, one-hot sizes of
both sides. The head holds an embedding per part (``parts`` ``[K, d]`` and a bias ``[d]``): an offer's
embedding is ``tanh(F @ parts + parts_bias)`` (the sum of its parts' embeddings, through tanh so the parts
interact), and its logit is that embedding scored against a query of the torso output
(``query_w @ h + query_b``). The parameters grow with the parts (addressees + 2 x types + sizes), not with
the offers; every other action keeps a flat output row. Numpy only: the ``ppo`` agent plays it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bean_env.engine.actions import Kind, unpack_offer

KIND = "offer_parts"  # the metadata's name of this head (``head.kind`` of a policy file)


@dataclass(frozen=True)
class OfferParts:
    """Where the offers sit in a catalogue (``start``..``stop``) and each offer's part vector ``features``
    ``[stop - start, K]`` (float32)."""
    start: int
    stop: int
    features: np.ndarray

    @property
    def count(self) -> int:
        return self.stop - self.start

    @property
    def size(self) -> int:
        return int(self.features.shape[1])


def offer_parts(catalogue) -> OfferParts | None:
    """The offers of ``catalogue`` (an ``ActionCatalogue``) and their part vectors; None if it has no
    ``OFFER_CARDS`` span (no structured head possible)."""
    for start, span in zip(catalogue.starts, catalogue.spans):
        if int(span.kind) != Kind.OFFER_CARDS:
            continue
        sides = [unpack_offer(b) for b in span.b]
        types = sorted({t for give, want in sides for t in give + want})
        cap = max(max(len(give), len(want)) for give, want in sides)
        where = {t: k for k, t in enumerate(types)}
        n_a, n_t = len(span.a), len(types)
        width = n_a + 2 * n_t + 2 * (cap + 1)
        one = np.zeros((len(sides), width - n_a), np.float32)
        for row, (give, want) in enumerate(sides):
            for t in give:
                one[row, where[t]] += 1.0
            for t in want:
                one[row, n_t + where[t]] += 1.0
            one[row, 2 * n_t + len(give)] = 1.0
            one[row, 2 * n_t + cap + 1 + len(want)] = 1.0
        features = np.zeros((n_a, len(sides), width), np.float32)  # index = start + ia * len(b) + ib
        for ia in range(n_a):
            features[ia, :, ia] = 1.0
            features[ia, :, n_a:] = one
        stop = start + n_a * len(sides)
        return OfferParts(start, stop, features.reshape(stop - start, width))
    return None


@dataclass
class OfferHead:
    """The head's parameters (numpy float32): ``query_w`` ``[d, hidden]``, ``query_b`` ``[d]``, ``parts``
    ``[K, d]``, ``parts_bias`` ``[d]``, and the catalogue's ``OfferParts``."""
    query_w: np.ndarray
    query_b: np.ndarray
    parts: np.ndarray
    parts_bias: np.ndarray
    where: OfferParts

    def __post_init__(self) -> None:
        self._table: np.ndarray | None = None

    @property
    def dim(self) -> int:
        return int(self.parts.shape[1])

    def table(self) -> np.ndarray:
        """Every offer's embedding ``[offers, d]`` (computed once)."""
        if self._table is None:
            self._table = np.tanh(self.where.features @ self.parts + self.parts_bias).astype(np.float32)
        return self._table

    def logits(self, h: np.ndarray) -> np.ndarray:
        """The offers' logits for torso outputs ``h`` (``[hidden]`` or ``[n, hidden]``)."""
        return (h @ self.query_w.T + self.query_b) @ self.table().T

    def tensors(self) -> dict[str, np.ndarray]:
        """The head's arrays by their policy-file names."""
        return {"offer.query.weight": self.query_w, "offer.query.bias": self.query_b,
                "offer.parts.weight": self.parts, "offer.parts.bias": self.parts_bias}

    def meta(self) -> dict:
        """The policy file's ``head`` metadata field."""
        return {"kind": KIND, "start": self.where.start, "stop": self.where.stop, "parts": self.where.size,
                "dim": self.dim}


def head_shapes(head: dict, hidden: int) -> dict[str, tuple[int, ...]]:
    """The shape of each head tensor a policy file must hold, from its ``head`` metadata."""
    d, k = head["dim"], head["parts"]
    return {"offer.query.weight": (d, hidden), "offer.query.bias": (d,), "offer.parts.weight": (k, d),
            "offer.parts.bias": (d,)}


def assemble(flat: np.ndarray, offers: np.ndarray, where: OfferParts) -> np.ndarray:
    """Full logits: the flat head's rows (every action outside the offers, in catalogue order) with the
    offers' logits put in at ``where.start``."""
    return np.concatenate([flat[..., :where.start], offers, flat[..., where.start:]], axis=-1)
