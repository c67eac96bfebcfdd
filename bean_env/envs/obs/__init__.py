"""Observation v1: a float32 vector in [0, 1] built only from what the observing player may know.

``encoder_for(game)`` gives the cached encoder of a game's variant config; ``encoder.encode(state, me,
memory)`` the observation of seat ``me``; ``encoder.new_memory()`` the per-game ``Memory`` of public
history (offers and acceptances) that the ``negotiation`` block reads; ``encoder.layout()`` and
``encoder.layout_hash()`` describe the layout (documented in ``docs/envs.md``).

Modules: ``core`` (encoder, scaling, hash, registry), ``common`` (blocks of every variant), ``counting``
(unseen cards per type), ``memory`` (known hand cards, negotiation memory), ``trading`` (`bohnanza`),
``mafia`` (`al_cabohne`, `bean_solitaire`), ``takeover`` (`hostile_takeover`), ``variants`` (which
blocks each variant has), ``batch`` (many states encoded together with numpy, for ``bean_env.vector``).
"""
from __future__ import annotations

from . import variants as _variants  # noqa: F401  (declares every variant's blocks)
from .core import (VERSION, Block, Context, ObservationEncoder, StaleMemoryError, build_encoder,
                   encoder_for, make_context, mark_seats, put, register_observation, rel)
from .memory import Memory, OfferRecord

__all__ = ["VERSION", "Block", "Context", "Memory", "ObservationEncoder", "OfferRecord", "StaleMemoryError",
           "build_encoder", "encoder_for", "make_context", "mark_seats", "put", "register_observation", "rel"]
