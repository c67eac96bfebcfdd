"""Experience of every learner seat of N batched games (``bean_env.vector``), for one shared policy.

Terms:
- *record*: one learner decision: the seat's observation, mask, action, log-probability and value, and
  the *reward*: what that seat was paid from this decision until its next one (what a game pays a seat
  before its first decision in it is added to that first decision).
- *chain*: the records of one seat in one game, linked by ``nxt``; the last one of a finished game is
  ``done``. A record is *resolved* once its successor exists or it is done; the last record of each seat
  in a running game stays *open* (its reward may still grow) and is kept for the next rollout.

Every step of the batch, all slots act: the slots whose actor is a learner seat in one forward pass of
the learner (``act``), the others by their league opponents (networks batched per network, ``random``
from the mask, engine agents from the slot's game). Nothing here touches a global random generator.
"""
from __future__ import annotations

import random
import time
from contextlib import ExitStack
from typing import Callable

import numpy as np

from bean_env.agents.ppo import MASKED_LOGIT
from bean_env.engine.events import listening
from bean_env.engine.trade_stats import exchanges, gift_cards_received

from .league import League, learner_seats
from .opponents import BaselinePlayer, RandomPlayer, SnapshotPlayer

# the learner's batched decision: (observations, masks, their ``legal_pairs``) -> (actions, log-probabilities,
# values)
Act = Callable[[np.ndarray, np.ndarray, tuple], tuple[np.ndarray, np.ndarray, np.ndarray]]


def legal_pairs(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The legal (row, action) pairs of a batch of masks, row by row: (rows, actions, each row's first pair,
    each row's pair count)."""
    rows, cols = np.nonzero(masks)
    counts = np.bincount(rows, minlength=len(masks))
    return rows, cols, np.cumsum(counts) - counts, counts


def sample_pairs(z: np.ndarray, starts: np.ndarray, counts: np.ndarray,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One pair per row drawn from the softmax of the logits ``z`` of its legal pairs (every row has one):
    (the chosen pairs' indices, their log-probabilities)."""
    z = np.asarray(z, np.float64)
    top = np.maximum.reduceat(z, starts)
    e = np.exp(z - np.repeat(top, counts))
    total = np.add.reduceat(e, starts)
    cdf = np.concatenate([[0.0], np.cumsum(e)])
    target = cdf[starts] + (1.0 - rng.random(len(starts))) * total  # u in (0, 1]: never a pair of probability 0
    pos = np.clip(np.searchsorted(cdf, target, side="left") - 1, starts, starts + counts - 1)
    return pos, z[pos] - top - np.log(total)


def segments(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The positions ``starts[i] .. starts[i] + counts[i] - 1`` of every ``i``, concatenated."""
    offsets = np.cumsum(counts) - counts
    return np.arange(int(counts.sum())) - np.repeat(offsets - starts, counts)


class Records:
    """A preallocated table of records (see the module doc); ``size`` rows are in use. Each record's legal
    actions are kept as a segment ``legal[legal_start : legal_start + legal_count]`` (ascending action
    indices: the support of its mask) and ``action_pos``, the chosen action's place in it."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int):
        self.capacity = capacity
        self.num_actions = num_actions
        self.obs = np.zeros((capacity, obs_size), np.float32)
        self.legal = np.zeros(capacity * 64, np.int32)
        self.legal_used = 0
        self.legal_start = np.zeros(capacity, np.int64)
        self.legal_count = np.zeros(capacity, np.int64)
        self.action_pos = np.zeros(capacity, np.int64)
        self.actions = np.zeros(capacity, np.int64)
        self.logp = np.zeros(capacity, np.float32)
        self.values = np.zeros(capacity, np.float32)
        self.rewards = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, bool)
        self.nxt = np.full(capacity, -1, np.int64)
        self.slot = np.zeros(capacity, np.int64)
        self.seat = np.zeros(capacity, np.int64)
        self.game = np.zeros(capacity, np.int64)
        self.size = 0
        self._columns = ("obs", "legal_start", "legal_count", "action_pos", "actions", "logp", "values", "rewards",
                         "done", "nxt", "slot", "seat", "game")

    def add_legal(self, k: np.ndarray, pairs: tuple, actions: np.ndarray) -> None:
        """Store the legal actions of records ``k`` (``pairs``: ``legal_pairs`` of their masks) and the chosen
        ``actions``."""
        rows, cols, first, counts = pairs
        need = self.legal_used + len(cols)
        if need > len(self.legal):
            grown = np.zeros(max(need, 2 * len(self.legal)), np.int32)
            grown[:self.legal_used] = self.legal[:self.legal_used]
            self.legal = grown
        starts = self.legal_used + np.cumsum(counts) - counts
        self.legal[self.legal_used:need] = cols
        self.legal_used = need
        self.legal_start[k], self.legal_count[k] = starts, counts
        keys = rows * self.num_actions + cols  # ascending
        self.action_pos[k] = np.searchsorted(keys, np.arange(len(k)) * self.num_actions + actions) - first

    def masks(self, rows: np.ndarray) -> np.ndarray:
        """The boolean masks of records ``rows`` (rebuilt from their legal actions)."""
        out = np.zeros((len(rows), self.num_actions), bool)
        counts = self.legal_count[rows]
        out[np.repeat(np.arange(len(rows)), counts), self.legal[segments(self.legal_start[rows], counts)]] = True
        return out

    def resolved(self) -> np.ndarray:
        """Indices of the records whose successor exists or that ended their game."""
        n = self.size
        return np.flatnonzero(self.done[:n] | (self.nxt[:n] >= 0))

    def keep(self, rows: np.ndarray) -> np.ndarray:
        """Keep only ``rows`` (moved to the front, in order); returns old index -> new index (-1: dropped)."""
        where = np.full(self.size + 1, -1, np.int64)  # the extra entry maps -1 to -1
        where[rows] = np.arange(len(rows))
        held = self.legal[segments(self.legal_start[rows], self.legal_count[rows])]
        for name in self._columns:
            col = getattr(self, name)
            col[:len(rows)] = col[rows]
        self.legal[:len(held)] = held
        self.legal_used = len(held)
        self.legal_start[:len(rows)] = np.cumsum(self.legal_count[:len(rows)]) - self.legal_count[:len(rows)]
        self.nxt[:len(rows)] = where[self.nxt[:len(rows)]]
        self.size = len(rows)
        return where


def advantages(rec: Records, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE over each seat's chain: (advantages, returns) of every record in use; an open record counts as a
    truncation point (advantage 0, its value bootstraps the record before it)."""
    n = rec.size
    adv = np.zeros(n, np.float64)
    values, rewards = rec.values[:n].astype(np.float64), rec.rewards[:n].astype(np.float64)
    nxt, done = rec.nxt[:n].tolist(), rec.done[:n].tolist()
    v, r, a = values.tolist(), rewards.tolist(), [0.0] * n
    for i in range(n - 1, -1, -1):  # a successor always comes later
        if done[i]:
            a[i] = r[i] - v[i]
        elif nxt[i] >= 0:
            j = nxt[i]
            a[i] = r[i] + gamma * v[j] - v[i] + gamma * lam * a[j]
    adv[:] = a
    return adv, adv + values


def relative_rewards(paid: np.ndarray) -> np.ndarray:
    """Each seat's reward minus the mean of the other seats' rewards of the same step (``paid``: games x
    seats). A game's relative rewards sum to zero: a coin another seat earns counts against a seat as its
    own coin counts for it, divided among the other seats."""
    p = paid.shape[1]
    if p < 2:
        return paid
    return paid - (paid.sum(axis=1, keepdims=True) - paid) / (p - 1)


class SeatRollout:
    """Learner experience from the games of ``vec`` (a ``VectorEnv`` or ``ArrayVectorEnv`` whose reward
    mode is set), with opponents from ``league``; ``capacity``: records held at once (a rollout's decisions
    plus one step's and the open ones); ``relative``: record ``relative_rewards`` of what the games pay;
    ``gift_penalty`` p > 0 (a ``VectorEnv``: it reads the engine's trade events): a learner seat's reward also
    loses p for every card it receives as a gift, after the relative shaping; ``trade_bonus`` b > 0 (a
    ``VectorEnv`` too): it gains b for every executed trade in which it both gave and received cards. With
    either, a finished game's record has ``gift_cards`` (the cards each seat received as gifts) and
    ``exchanges`` (each seat's trades of both ways)."""

    def __init__(self, vec, league: League, learner_share: float = 1.0, seed: int = 0, capacity: int = 8192,
                 relative: bool = False, gift_penalty: float = 0.0, trade_bonus: float = 0.0):
        if not 0.0 <= learner_share <= 1.0:
            raise ValueError(f"bad learner share {learner_share!r}; allowed: 0..1")
        if not gift_penalty >= 0:
            raise ValueError(f"bad gift penalty {gift_penalty!r}; must be a number >= 0")
        if not trade_bonus >= 0:
            raise ValueError(f"bad trade bonus {trade_bonus!r}; must be a number >= 0")
        if (gift_penalty or trade_bonus) and not hasattr(vec, "envs"):
            raise ValueError("a gift penalty or trade bonus reads the engine's trade events: it needs a VectorEnv")
        n, p = vec.num_envs, vec.num_players
        if capacity < n * (p + 1):
            raise ValueError(f"capacity {capacity} is below one step plus the open records ({n * (p + 1)})")
        self.vec, self.league, self.learner_share, self.relative = vec, league, learner_share, relative
        self.num_envs, self.num_players = n, p
        self.records = Records(capacity, vec.obs_size, vec.num_actions)
        self.learner = np.zeros((n, p), bool)           # the learner's seats of each slot's game
        self.players: list[dict[int, object]] = [{} for _ in range(n)]
        self.last = np.full((n, p), -1, np.int64)       # each seat's open record
        self.carry = np.zeros((n, p), np.float32)       # paid before the seat's first decision of the game
        self.game = np.zeros(n, np.int64)               # the game number each slot plays
        self.slot_games = np.zeros(n, np.int64)         # games started per slot
        self.games_started = 0
        self.finished: list[dict] = []                  # finished games (drained by the trainer)
        self.seconds = {"env": 0.0, "forward": 0.0}
        self._rng = random.Random(seed)
        self._seed: int | None = seed
        self._arrays = not hasattr(vec, "envs")
        self.gift_penalty, self.trade_bonus = float(gift_penalty), float(trade_bonus)
        self.shaped = bool(gift_penalty or trade_bonus)   # rewards shaped by the learner's trades
        self.events: list[list] = [[] for _ in range(n)]  # each slot's trade events of one step
        self.gift_cards = np.zeros((n, p), np.int64)      # gift cards received in each slot's current game
        self.exchanges = np.zeros((n, p), np.int64)       # trades of both ways in each slot's current game

    # -- games -----------------------------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        p = self.num_players
        anchor = int((i + self.slot_games[i]) % p)
        self.slot_games[i] += 1
        self.learner[i] = learner_seats(p, anchor, self.learner_share, self._rng)
        self.players[i] = {q: self.league.draw() for q in range(p) if not self.learner[i, q]}
        self.game[i] = self.games_started
        self.games_started += 1
        self.last[i] = -1
        self.carry[i] = 0.0
        self.gift_cards[i] = 0
        self.exchanges[i] = 0

    def reset(self) -> None:
        """New games in every slot (seeded from the constructor's seed); records of earlier games are
        forgotten (their chains cannot go on)."""
        self.vec.reset(self._seed)
        self._seed = None
        self.records.size = self.records.legal_used = 0
        for i in range(self.num_envs):
            self._new_game(i)

    # -- stepping --------------------------------------------------------------------------------------
    def _opponents(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The opponents' actions of the slots ``rows``: networks batched per network."""
        vec = self.vec
        groups: dict[int, tuple[SnapshotPlayer, list[int]]] = {}
        for i in rows.tolist():
            seat = int(vec.actors[i])
            player = self.players[i][seat]
            if isinstance(player, SnapshotPlayer):
                groups.setdefault(id(player.net), (player, []))[1].append(i)
            elif isinstance(player, RandomPlayer):
                actions[i] = player.choose_index(vec.masks[i])
            else:
                assert isinstance(player, BaselinePlayer) and not self._arrays
                env = vec.envs[i]
                actions[i] = player.choose(env, env.possible_agents[seat])
        for player, slots in groups.values():
            if player.greedy:
                z = np.where(vec.masks[slots], player.net.logits(vec.obs[slots]), MASKED_LOGIT)
                actions[slots] = z.argmax(axis=1)
                continue
            rows, cols, first, counts = legal_pairs(vec.masks[slots])
            pos, _ = sample_pairs(player.net.logits(vec.obs[slots])[rows, cols], first, counts, player.rng)
            actions[slots] = cols[pos]

    def step(self, act: Act) -> int:
        """One step of every slot; returns the learner decisions it recorded. ``seconds``: the learner's
        decisions and their records count as ``forward``, the opponents' decisions and the games' steps as
        ``env``."""
        vec, rec, n = self.vec, self.records, self.num_envs
        t0 = time.perf_counter()
        slots = np.arange(n)
        actors = vec.actors.copy()
        mine = self.learner[slots, actors]
        readers = mine.copy()
        for i in np.flatnonzero(vec.stale & ~mine).tolist():
            readers[i] = isinstance(self.players[i][int(actors[i])], SnapshotPlayer)
        vec.refresh(readers)
        actions = np.zeros(n, np.int64)
        self._opponents(np.flatnonzero(~mine), actions)
        rows = np.flatnonzero(mine)
        t1 = time.perf_counter()
        if len(rows):
            seats = actors[rows]
            masks = vec.masks[rows]
            pairs = legal_pairs(masks)
            a, logp, values = act(vec.obs[rows], masks, pairs)
            actions[rows] = a
            k = np.arange(rec.size, rec.size + len(rows))
            if k[-1] >= rec.capacity:
                raise RuntimeError(f"record table full ({rec.capacity}); collect fewer decisions per rollout")
            rec.obs[k], rec.actions[k] = vec.obs[rows], a
            rec.add_legal(k, pairs, a)
            rec.logp[k], rec.values[k] = logp, values
            rec.slot[k], rec.seat[k], rec.game[k] = rows, seats, self.game[rows]
            rec.done[k], rec.nxt[k] = False, -1
            prev = self.last[rows, seats]
            rec.nxt[prev[prev >= 0]] = k[prev >= 0]
            rec.rewards[k] = self.carry[rows, seats]
            self.carry[rows, seats] = 0.0
            self.last[rows, seats] = k
            rec.size += len(rows)
        t2 = time.perf_counter()
        if self.shaped:
            (paid, term, trunc, infos), gifts, swaps = self._step_counting_trades(actions, slots)
        else:
            paid, term, trunc, infos = vec.step_slots(actions, slots, observe=False)
        if self.relative:
            paid = relative_rewards(paid)
        if self.shaped:
            paid[self.learner] += self.trade_bonus * swaps[self.learner] - self.gift_penalty * gifts[self.learner]
        open_ = self.last >= 0
        rec.rewards[self.last[open_]] += paid[open_]
        waiting = self.learner & ~open_
        self.carry[waiting] += paid[waiting]
        for i in np.flatnonzero(term | trunc).tolist():
            ended = self.last[i][self.last[i] >= 0]
            rec.done[ended] = True  # a truncated game ends its chains too (no value after the cut)
            info = infos[i]
            self.finished.append({"game": int(self.game[i]), "slot": i, "scores": list(info["final_scores"]),
                                  "winners": list(info["winners"]), "learner": np.flatnonzero(self.learner[i]).tolist(),
                                  "opponents": {q: getattr(o, "kind", "?") for q, o in self.players[i].items()},
                                  "truncated": bool(trunc[i])})
            if self.shaped:
                self.finished[-1]["gift_cards"] = self.gift_cards[i].tolist()
                self.finished[-1]["exchanges"] = self.exchanges[i].tolist()
            self._new_game(i)
        t3 = time.perf_counter()
        self.seconds["env"] += (t1 - t0) + (t3 - t2)
        self.seconds["forward"] += t2 - t1
        return len(rows)

    def _step_counting_trades(self, actions: np.ndarray, slots: np.ndarray):
        """``vec.step_slots`` with the engine recording the trades of this step only (an opponent's search
        plays on clones that share the rules object, so the rules listen only while stepping), the cards
        each seat of each slot received as gifts in this step, and its trades of both ways."""
        with ExitStack() as stack:
            for env, events in zip(self.vec.envs, self.events):
                stack.enter_context(listening(env.game.rules, events))
            out = self.vec.step_slots(actions, slots, observe=False)
        gifts, swaps = np.zeros_like(self.gift_cards), np.zeros_like(self.exchanges)
        for i, events in enumerate(self.events):
            if events:
                for seat, cards in gift_cards_received(events).items():
                    gifts[i, seat] = cards
                for seat, count in exchanges(events).items():
                    swaps[i, seat] = count
                events.clear()
        self.gift_cards += gifts
        self.exchanges += swaps
        return out, gifts, swaps

    def collect(self, act: Act, decisions: int) -> int:
        """Step until at least ``decisions`` learner decisions were recorded; returns how many."""
        made = 0
        while made < decisions:
            made += self.step(act)
        return made

    def drop(self, rows: np.ndarray) -> None:
        """Forget the records ``rows`` (trained on); the others (open ones) move to the front."""
        rec = self.records
        keep = np.setdiff1d(np.arange(rec.size), rows)
        where = rec.keep(keep)
        held = self.last >= 0
        self.last[held] = where[self.last[held]]
        if (self.last[held] < 0).any():
            raise RuntimeError("an open record was dropped")
