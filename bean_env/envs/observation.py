"""The observation encoder's import path of old: observation v1 lives in ``bean_env.envs.obs``.

``from bean_env.envs.observation import encoder_for`` keeps working and gives the v1 encoder (a float32
vector in [0, 1], ``encoder.layout_hash()``, ``encoder.new_memory()``); the v0 encoder (raw counts, one
slot per deck card for the hand) is retired with the ``_v0`` env ids. Layout: ``docs/envs.md``.
"""
from __future__ import annotations

from .obs import (VERSION, Block, Context, Memory, ObservationEncoder, OfferRecord, StaleMemoryError, build_encoder,
                  encoder_for, make_context, mark_seats, put, register_observation, rel)

__all__ = ["VERSION", "Block", "Context", "Memory", "ObservationEncoder", "OfferRecord", "StaleMemoryError",
           "build_encoder", "encoder_for", "make_context", "mark_seats", "put", "register_observation", "rel"]
