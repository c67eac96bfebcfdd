"""Who sits in each seat of the batched trainer's games: the learner, or an opponent of the league.

The seat mix is written as ``bean-env train rllib`` takes it: ``learner:0.5,self:0.3,random:0.2``. Each new
game has one *anchor* learner seat (rotating with the slot's games) and every other seat is the learner's
too with the ``learner`` share of the mix; the remaining seats draw an opponent from the rest of the mix
(``training.opponents.parse_mix``): ``self`` (a frozen learner snapshot), ``ppo`` or ``ppo:checkpoint=PATH``
(the policy shipped for the variant config, or that policy file: played as a network on the batch's
observations), ``random`` (from the mask), or any other agent (``heuristic``, ...), which decides from the
engine's game and so needs the engine backend.
"""
from __future__ import annotations

import random

import numpy as np

from bean_env.agents.ppo import PolicyNet, check_compatible, shipped_checkpoint, shipped_hint
from bean_env.registry import parse_spec

from .opponents import SELF, OpponentPool, SnapshotPlayer, engine_opponents, parse_mix


LEARNER = "learner"


def split_mix(text: str) -> tuple[float, dict[str, float]]:
    """``"learner:0.5,self:0.3,random:0.2"`` -> (the learner's share of the seats, the opponents' mix); a
    ``ValueError`` naming a bad entry. Without opponents the learner plays every seat."""
    learner, others, total = 0.0, [], 0.0
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        name, sep, weight = part.rpartition(":")
        if not sep:
            name, weight = part, "1"
        try:
            value = float(weight)
        except ValueError:
            if "=" not in weight:
                raise ValueError(f"bad opponent mix entry {part!r}; expected NAME:WEIGHT") from None
            name, value = part, 1.0
        if value < 0:
            raise ValueError(f"bad opponent mix entry {part!r}: negative weight")
        total += value
        if name.strip() == LEARNER:
            learner += value
        else:
            others.append(part)
    if learner <= 0 or total <= 0:
        raise ValueError(f"bad opponent mix {text!r}: it needs a positive {LEARNER!r} weight (the seats the "
                         "trained policy plays)")
    mix = parse_mix(",".join(others)) if others else {}
    return learner / total, mix


def network_kinds(mix: dict[str, float]) -> list[str]:
    """The kinds of ``mix`` that are fixed policy networks (``ppo`` agent specs)."""
    return [k for k in mix if k != SELF and parse_spec(k)[0] == "ppo"]


def league_engine_kinds(mix: dict[str, float]) -> list[str]:
    """The kinds of ``mix`` that decide from the engine's games (not playable on the array kernels)."""
    return sorted(set(engine_opponents(mix)) - set(network_kinds(mix)))


def fixed_net(kind: str, variant: str, config: dict, obs_size: int, num_actions: int) -> PolicyNet:
    """The network of a ``ppo`` spec: its ``checkpoint`` or the policy shipped for ``config``."""
    options = parse_spec(kind)[1]
    path = options.get("checkpoint") or shipped_checkpoint(variant, config)
    if path is None:
        raise ValueError(f"opponent {kind!r}: no policy is shipped for {variant!r} {config}"
                         f"{shipped_hint(variant, config)}; use ppo:checkpoint=PATH")
    net = PolicyNet.load(path)
    check_compatible(net.meta, variant, config, obs_size, num_actions, f"opponent {kind!r} ({path})")
    return net


class League(OpponentPool):
    """The opponent pool of the batched trainer (``OpponentPool`` with snapshots) plus fixed networks;
    ``draw()`` returns a ``SnapshotPlayer`` (snapshots and fixed networks; ``kind`` names which), a
    ``RandomPlayer`` or a ``BaselinePlayer``."""

    def __init__(self, mix: dict[str, float], variant: str, config: dict, obs_size: int, num_actions: int,
                 max_snapshots: int = 8, seed: int = 0):
        fixed = network_kinds(mix)
        rest = {k: w for k, w in mix.items() if k not in fixed}
        super().__init__(rest or {"random": 1.0}, max_snapshots, seed=seed)
        self.fixed = {k: fixed_net(k, variant, config, obs_size, num_actions) for k in fixed}
        self.fixed_weights = [mix[k] for k in fixed]
        self.fixed_share = sum(self.fixed_weights)
        self.league_rng = random.Random(seed + 1)

    def draw(self):
        """One opponent for one seat of a new game."""
        if self.fixed and self.league_rng.random() < self.fixed_share:
            kind = self.league_rng.choices(list(self.fixed), self.fixed_weights)[0]
            player = SnapshotPlayer(self.fixed[kind], self.np_rng)
            player.kind = kind
            return player
        return super().draw()


def learner_seats(num_players: int, anchor: int, share: float, rng: random.Random) -> np.ndarray:
    """Which seats of a new game the learner plays: ``anchor`` always, each other with probability
    ``share``."""
    seats = np.array([rng.random() < share for _ in range(num_players)], bool)
    seats[anchor] = True
    return seats
