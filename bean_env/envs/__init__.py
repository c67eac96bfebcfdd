"""PettingZoo AEC faces of the engine: one generic env (``aec.py``) and thin per-variant modules.

``bean_env.bohnanza_v1.env(...)``, ``bean_env.bean_duel_v1.env(...)``, ... or by id with
``make_env("bean_env/bohnanza-v1", ...)``. The single-agent gymnasium wrapper is ``single_agent.py``.
This package module stays light: pettingzoo and gymnasium load with the env modules.
"""
from __future__ import annotations

from .registration import available_variants, env_ids, make_env

__all__ = ["available_variants", "env_ids", "make_env"]
