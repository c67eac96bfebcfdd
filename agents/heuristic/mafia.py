"""Heuristic knowledge for `al_cabohne` and `bean_solitaire` (MAF-*): what the mafia is about to earn.

A boss harvests as soon as its field is worth its threshold (MAF-1, MAF-2), so cards on a boss field are
coins the mafia will almost surely get: a boss field holding ``c`` of the ``need`` cards that reach its
threshold ``T`` counts as ``T * c / need`` coins to come while much of the game is left, moving towards
what the final harvest (COM-10) would pay as the game ends. The seat value is charged for
the mafia's treasury plus these coins to come (``Family.mafia_weight``: twice in solitaire, MAF-13), so
the lookahead avoids yields (MAF-6) it can harvest away in time, stacks and gifts that feed a boss
close to its threshold, and leaving face-up cards a boss will take.

`bean_solitaire`: *starve the mafia*. An empty boss grows nothing, so it takes no turned-up card
(MAF-8) and no yield (MAF-6); it is refilled only by our gifts, and the forced gifts of MAF-9 (B) need a
card in hand. So a boss that harvests while our hand is empty stays empty, possibly for the rest of the
game. The policy (learnt from the trained ``ppo`` agent, which wins about half its games this way):

- step 2 (MAF-7): always plant the second hand card too, harvesting a field first if it fits nowhere;
- step 5 (MAF-9 A): place every face-up stack on our own fields (harvesting to make room), never on a
  boss, unless no own field can take it;
- then give the remaining hand cards to the mafia, one by one, while a gift is legal: early in the game
  this empties the starting hand (7 cards against 2 planted and 2 drawn per turn) onto bosses that will
  harvest and stay empty; later the hand holds at most the cards that did not fit.

A non-empty boss fills up to its threshold from the turned-up cards sooner or later, so in solitaire
it is charged its whole threshold ``T`` whatever it holds and however much of the game is left: a gift
to a growing boss only brings its harvest forward, a gift or stack on an empty boss costs a new harvest
(terminal positions are scored exactly).

Measured with `agents/tournament.py` on 200 games, seed 20261130 (win = positive MAF-13 score):
the heuristic before this policy won 4.5% (mean score -10.8); with the policy and the 2-player charge
``T * c / need`` 38.0%; with ``T`` fading to the final-harvest value as the game ends 57.5% (+1.3);
with ``T`` throughout 59.5% (+2.2). Rejected variants (200 games, seed 99, against 54% for the
policy with the fading charge): harvesting a field before the turn-up whenever no field is empty
(24.5%), and letting the second card stay in hand when it fits no field (38.5%).
"""
from __future__ import annotations

from bean_env.cards import coins_for
from bean_env.engine.actions import Kind
from bean_env.engine.mafia import THRESHOLDS

from .core import Family
from .evaluate import game_left

BOSS_TARGET = 3  # PLACE_STACK target b >= 3 means boss b - 3


def _need(bean: int, threshold: int) -> int:
    """Cards of ``bean`` whose beanometer reaches ``threshold`` coins."""
    for n in range(1, 30):
        if coins_for(bean, n) >= threshold:
            return n
    return 30


_NEED: dict[tuple[int, int], int] = {}


class MafiaFamily(Family):
    def mafia_value(self, game):
        s = game.state
        value = float(game.mafia_score() or 0)
        if s.over:
            return value
        g = game_left(s)
        solo = s.n == 1
        for b, (bean, count) in enumerate(zip(s.btype, s.bcount)):
            if count and bean >= 0:
                t = THRESHOLDS[b]
                if solo:  # it will fill up from the turn-ups and harvest its threshold
                    value += t
                    continue
                need = _NEED.get((bean, t))
                if need is None:
                    need = _NEED[(bean, t)] = _need(bean, t)
                value += g * t * min(count, need) / need + (1 - g) * coins_for(bean, count)
        return value

    def choose(self, agent, view, legal):
        if view.num_players != 1:
            return None
        keep = _solitaire_candidates(view.decision, legal)
        if keep and len(keep) < len(legal):
            return keep[0] if len(keep) == 1 else self.lookahead(agent, view, keep)
        return None


def _solitaire_candidates(decision: str, legal) -> list:
    """The actions the starve-the-mafia policy allows at a `bean_solitaire` decision point."""
    if decision == "plant_optional":  # plant the second card, harvesting first if it fits nowhere
        return [a for a in legal if a.kind == Kind.PLANT] or [a for a in legal if a.kind == Kind.HARVEST]
    if decision != "place":
        return []
    if any(a.kind == Kind.PLACE_STACK for a in legal):  # stacks onto own fields, making room if needed
        return ([a for a in legal if a.kind == Kind.PLACE_STACK and a.b < BOSS_TARGET]
                or [a for a in legal if a.kind == Kind.HARVEST])
    gifts = [a for a in legal if a.kind == Kind.GIVE_MAFIA]  # then empty the hand
    return gifts
