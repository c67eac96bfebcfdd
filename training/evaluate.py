"""Evaluation of one agent against baseline opponents on the engine (no env, no training library).

The evaluated agent sits at seat ``game % n`` (rotating), every other seat is a fresh opponent agent.
A game is a *win* when the agent's seat is among the winners (a shared win counts). In
``bean_solitaire`` there are no other seats: a win is a positive score against the mafia (MAF-13).
Game ``i`` uses engine seed ``seed + i``, so results are reproducible. Agents with an ``observe(view)``
method (the ``ppo`` agent) are shown their view after every action, so they follow the public history.
The agent's trading is counted from the engine's events (``bean_env.engine.trade_stats``): means per
game of executed trades, offers it accepted, cards given and received in trades, and gifts received.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

from bean_env.engine.trade_stats import TradeCounter, mean_trades

from bean_env.agents import make_agent
from bean_env import new_game


@dataclass
class EvalResult:
    """Outcome of ``games`` games of one agent against one kind of opponent."""
    agent: str
    opponent: str
    variant: str
    games: int
    wins: int
    mean_score: float
    seed: int
    trades: dict = field(default_factory=dict)   # the agent's ``trade_stats`` fields, means per game

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        from bean_env.agents.tournament import wilson

        return wilson(self.wins, self.games) if self.games else (0.0, 1.0)

    def row(self) -> dict:
        out = asdict(self)
        out.update({k: round(v, 3) for k, v in out.pop("trades").items() if k in EVAL_TRADE_FIELDS})
        lo, hi = self.interval
        out.update(win_rate=round(self.win_rate, 4), ci_low=round(lo, 4), ci_high=round(hi, 4))
        return out


# Engine seeds from here up are the evaluation protocol's held-out deals (``training/benchmark.py``):
# training, its evaluations and policy selection never play them, so a shipped policy's protocol
# figures come from deals that played no part in choosing it.
HELD_OUT_FIRST = 10 ** 12


def check_not_held_out(seed: int, games: int) -> None:
    """Refuse (``ValueError``) an evaluation whose seeds ``seed .. seed + games - 1`` reach the held-out
    deals."""
    if seed + games > HELD_OUT_FIRST:
        raise ValueError(f"bad value {seed!r} for 'seed' with {games} games: engine seeds from {HELD_OUT_FIRST:,} "
                         "up are held out for the evaluation protocol (python -m bean_env.training.benchmark); "
                         "evaluate on smaller seeds")


# the trade statistics an evaluation row reports (means per game of the evaluated seat)
EVAL_TRADE_FIELDS = ("trades", "accepts", "cards_given", "cards_received", "gifts_received")


def play_game(variant: str, config: dict, seed: int, players: list, counter: bool = False):
    """Play one game with ``players[seat]`` agents; returns the finished ``Game`` (and its
    ``TradeCounter`` when ``counter``)."""
    from bean_env.agents.base import play_out

    game = new_game(variant, seed=seed, **config)
    for p in players:
        p.reset()
    trades = TradeCounter(game)
    play_out(game, players, counter=trades)
    return (game, trades) if counter else game


def evaluate(make: Callable[[int], object], variant: str, config: dict | None = None,
             opponent: str = "random", games: int = 100, seed: int = 0, agent_name: str = "agent") -> EvalResult:
    """Win rate of the agents made by ``make(seed)`` against ``opponent`` agents (see module doc); the
    seeds must lie below the protocol's held-out deals (``HELD_OUT_FIRST``)."""
    check_not_held_out(seed, games)
    config = dict(config or {})
    wins, total_score, seat_trades = 0, 0.0, []
    n = new_game(variant, seed=0, **config).num_players
    for i in range(games):
        seat = i % n
        players = [make_agent(opponent, seed=seed * 7919 + i * n + q) if q != seat else make(seed + i)
                   for q in range(n)]
        game, counter = play_game(variant, config, seed + i, players, counter=True)
        wins += seat in game.winners()
        total_score += game.scores()[seat]
        seat_trades.append(counter.seats[seat].as_dict())
    return EvalResult(agent=agent_name, opponent=opponent if n > 1 else "mafia", variant=variant, games=games,
                      wins=wins, mean_score=round(total_score / max(games, 1), 3), seed=seed,
                      trades=mean_trades(seat_trades))


PLAY_MODES = ("argmax", "sampled")


def policy_row(net, variant: str, config: dict, opponents: list[str], games: int, seed: int, label: str,
               timesteps: int) -> dict:
    """One ``eval.csv`` row (``training.runs.EvalLog``) for a ``PolicyNet``: against each opponent (``mafia``
    in one-seat variants), with argmax play and with sampled play, on the same seeded deals."""
    from bean_env.agents.ppo import PPOAgent

    from .runs import EvalLog

    row: dict = {"timesteps": timesteps, "policy": label, "seed": seed}
    for opp in opponents:
        for mode in PLAY_MODES:
            res = evaluate(lambda s, d=(mode == "argmax"): PPOAgent.from_net(net, seed=s, deterministic=d),
                           variant, config, "random" if opp == "mafia" else opp, games, seed=seed, agent_name="ppo")
            r = res.row()
            for k in EvalLog.STATS:
                row[f"{opp}_{mode}_{k}"] = r[k]
    return row
