"""The opponent pool of self-play: who sits in the seats the learner does not play.

Terms:
- *snapshot*: a frozen copy of the learner's actor network taken during training (``PolicyNet``).
- *baseline*: a registered agent (``random``, ``heuristic``, ...) acting from its seat's view.
- *mix*: the probability of each opponent kind per seat and episode, e.g.
  ``{"self": 0.5, "heuristic": 0.3, "random": 0.2}``; ``"self"`` draws a snapshot (the newest with
  probability ``latest_prob``, else a uniform older one).

Opponents act on the AEC env: a snapshot from the env's observation and mask of its seat, ``random``
uniformly over the env's legal action indices (no view is built), any other baseline from
``game.view(seat)`` and ``game.legal_actions()`` mapped through the action catalogue.
"""
from __future__ import annotations

import random
import numpy as np

from bean_env.agents import AGENTS, make_agent
from bean_env.registry import parse_spec
from bean_env.agents.ppo import PolicyNet

SELF = "self"


def parse_mix(text: str | dict) -> dict[str, float]:
    """``"self:0.5,heuristic:0.3,random:0.2"`` -> normalised ``{kind: weight}``; kinds are ``self`` or an
    agent spec (``heuristic:trading=fair:0.5``: the weight is the part after the last ``:`` when it is a
    number)."""
    if isinstance(text, dict):
        items = list(text.items())
    else:
        items = []
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, sep, weight = part.rpartition(":")
            try:
                items.append((name.strip(), float(weight)) if sep else (part, 1.0))
            except ValueError:
                if "=" not in weight:
                    raise ValueError(f"bad opponent mix entry {part!r}; expected NAME:WEIGHT") from None
                items.append((part, 1.0))  # an agent spec with options and no weight
    mix: dict[str, float] = {}
    for name, weight in items:
        if name != SELF:
            try:
                parse_spec(name)
            except ValueError as exc:
                raise ValueError(f"bad opponent {name!r} in the mix ({exc}); allowed: self, "
                                 f"{', '.join(sorted(AGENTS))}") from None
        if weight < 0:
            raise ValueError(f"negative weight {weight} for opponent {name!r}")
        mix[name] = mix.get(name, 0.0) + float(weight)
    total = sum(mix.values())
    if total <= 0:
        raise ValueError(f"opponent mix {text!r} has no positive weight")
    return {k: v / total for k, v in mix.items() if v > 0}


def engine_opponents(mix: dict[str, float]) -> list[str]:
    """The kinds of ``mix`` that decide from the engine's game (every baseline but ``random``, which draws
    from a mask); snapshots read observations only."""
    return sorted(set(mix) - {SELF, "random"})


class SnapshotPlayer:
    """A frozen policy acting from env observations (sampling, with its own generator)."""

    kind = SELF

    def __init__(self, net: PolicyNet, rng: np.random.Generator, greedy: bool = False):
        self.net, self.rng, self.greedy = net, rng, greedy

    def choose(self, env, agent: str) -> int:
        obs = env.observe(agent)
        return self.net.choose(obs["observation"], obs["action_mask"], None if self.greedy else self.rng)


class RandomPlayer:
    """Uniform random play over the legal actions, straight from the env's legal indices (no view)."""

    kind = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, env, agent: str) -> int:
        # a uniform position in the engine's legal list (the order of ``env.legal_indices()``, the same
        # draw as ``rng.choice`` of it), encoded alone instead of encoding every legal action
        game = env.game
        legal = game.legal_actions()
        return env.catalogue.encode(legal[self.rng.randrange(len(legal))], game.state.actor)

    def choose_index(self, mask) -> int:
        """A uniform legal index of a boolean ``mask`` (for batched envs without engine games)."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.randrange(len(legal))])


class BaselinePlayer:
    """A registered agent acting from its seat's view."""

    def __init__(self, name: str, seed: int):
        self.kind = name
        self.agent = make_agent(name, seed=seed)

    def choose(self, env, agent: str) -> int:
        game = env.game
        seat = game.current_player
        action = self.agent.act(game.view(seat), game.legal_actions())
        return env.catalogue.encode(action, seat)


class OpponentPool:
    """Snapshots plus baseline agents, drawn per seat and episode according to the mix."""

    def __init__(self, mix: dict[str, float], max_snapshots: int = 8, latest_prob: float = 0.5,
                 seed: int = 0):
        self.mix = dict(mix)
        self.max_snapshots = max_snapshots
        self.latest_prob = latest_prob
        self.snapshots: list[PolicyNet] = []
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)

    def add_snapshot(self, net: PolicyNet) -> None:
        self.snapshots.append(net)
        if len(self.snapshots) > self.max_snapshots:
            # keep the first (oldest anchor) and the newest ones
            del self.snapshots[1]

    def draw(self) -> SnapshotPlayer | BaselinePlayer:
        """One opponent for one seat of the next episode."""
        kinds, weights = zip(*self.mix.items())
        kind = self.rng.choices(kinds, weights)[0]
        if kind == SELF and not self.snapshots:
            kind = next((k for k in kinds if k != SELF), "random")
        if kind == SELF:
            if len(self.snapshots) == 1 or self.rng.random() < self.latest_prob:
                net = self.snapshots[-1]
            else:
                net = self.snapshots[self.rng.randrange(len(self.snapshots) - 1)]
            return SnapshotPlayer(net, self.np_rng)
        if kind == "random":
            return RandomPlayer(self.rng.getrandbits(32))
        return BaselinePlayer(kind, self.rng.getrandbits(32))
