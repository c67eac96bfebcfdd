"""Heuristic knowledge for `al_cabohne` and `bean_solitaire` (MAF-*): what the mafia is about to earn.

A boss harvests as soon as its field is worth its threshold (MAF-1, MAF-2), so cards on a boss field are
coins the mafia will almost surely get: a boss field holding ``c`` of the ``need`` cards that reach its
threshold ``T`` counts as ``T * c / need`` coins to come while much of the game is left, moving towards
what the final harvest (COM-10) would pay as the game ends. The seat value is charged for
the mafia's treasury plus these coins to come (``Family.mafia_weight``: twice in solitaire, MAF-13), so
the lookahead avoids yields (MAF-6) it can harvest away in time, stacks and gifts that feed a boss
close to its threshold, and leaving face-up cards a boss will take.

In `bean_solitaire` the heuristic makes no voluntary gift to the mafia in step 5 (MAF-9 A; the forced
gifts of part B still happen): measured over 3 x 40 games, this raised its mean MAF-13 score from about
-13.4 to about -10.9 (the lookahead undervalues what a boss's type costs in later turn-ups).
"""
from __future__ import annotations

from bean_env.cards import coins_for
from bean_env.engine.actions import Kind
from bean_env.engine.mafia import THRESHOLDS

from .core import Family
from .evaluate import game_left


def _need(bean: int, threshold: int) -> int:
    """Cards of ``bean`` whose beanometer reaches ``threshold`` coins."""
    for n in range(1, 30):
        if coins_for(bean, n) >= threshold:
            return n
    return 30


_NEED = {}


class MafiaFamily(Family):
    def mafia_value(self, game):
        s = game.state
        value = float(game.mafia_score() or 0)
        if s.over:
            return value
        g = game_left(s)
        for b, (bean, count) in enumerate(zip(s.btype, s.bcount)):
            if count and bean >= 0:
                t = THRESHOLDS[b]
                need = _NEED.get((bean, t))
                if need is None:
                    need = _NEED[(bean, t)] = _need(bean, t)
                value += g * t * min(count, need) / need + (1 - g) * coins_for(bean, count)
        return value

    def choose(self, agent, view, legal):
        if view.num_players == 1 and view.decision == "place":
            keep = [a for a in legal if a.kind != Kind.GIVE_MAFIA]
            if keep and len(keep) < len(legal):
                return self.lookahead(agent, view, keep)
        return None
