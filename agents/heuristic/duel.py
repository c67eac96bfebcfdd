"""Heuristic knowledge for `bean_duel` (DUEL-*).

- Face-up cards (DUEL-3 leftovers, DUEL-5 planting) are optional plantings: the seat value counts them
  only where they help.
- Step 3 planting (``plant_face_up``): plant the face-up type with the best score = own gain + ``lam``
  x the gain the opponent would get from it in their step 1; *done* when no type scores above zero,
  so cards useful to the opponent are planted even at a small loss.
- Step 1 (``leftovers``): plant the card that helps most; discard a card whose planting would cost.
- Everything else (planting from hand, the step-2 discard, harvests, buying the 3rd field) is the
  generic one-ply lookahead, which sees no chance event before the next decision there.
"""
from __future__ import annotations

from collections import Counter

from bean_env.engine.actions import DONE, Action, Kind

from .core import Family
from .evaluate import game_left, seat_value

PLANT_MIN = 0.0      # plant a face-up card in step 3 when its score is above this
DISCARD_BELOW = -0.3  # in step 1, discard rather than plant a card whose gain is below this


class DuelFamily(Family):
    continuation = 0  # tuned one-ply; face-up choices are made in choose()
    def pending(self, s, p: int):
        if p == s.active and s.decision in ("leftovers", "plant_face_up"):
            return s.to_plant[p], s.face_up
        return s.to_plant[p], []

    def choose(self, agent, view, legal):
        d = view.decision
        if d == "plant_face_up":
            return self._plant_face_up(view, legal)
        if d == "leftovers":
            return self._leftovers(view, legal)
        return None

    @staticmethod
    def _gains(s, p: int, types, g: float) -> dict[int, float]:
        base = seat_value(s, p, must=[], growth=g)
        return {t: seat_value(s, p, must=[t], growth=g) - base for t in types}

    def _planting(self, legal) -> dict[int, Action]:
        """Per face-up type, the PLANT_CARD action onto its best field (growing field first)."""
        out: dict[int, Action] = {}
        for a in legal:
            if a.kind == Kind.PLANT_CARD and a.a not in out:
                out[a.a] = a
        return out

    def _best_field(self, s, p: int, legal, bean: int) -> Action:
        options = [a for a in legal if a.kind == Kind.PLANT_CARD and a.a == bean]
        for a in options:
            if s.fcount[p * 3 + a.b] and s.ftype[p * 3 + a.b] == bean:
                return a
        return options[0]

    def _plant_face_up(self, view, legal):
        s, me = view.state, view.player
        g = game_left(s)
        plantable = self._planting(legal)
        if not plantable:
            return DONE if DONE in legal else None
        mine = self._gains(s, me, plantable, g)
        theirs = self._gains(s, 1 - me, plantable, g)
        count = Counter(s.face_up)
        lam = self.lam(2)
        best, best_score = None, PLANT_MIN
        for t in plantable:
            score = mine[t] + lam * max(0.0, theirs[t]) * min(count[t], 3) / max(1, count[t])
            if score > best_score:
                best, best_score = t, score
        if best is None:
            return DONE if DONE in legal else None
        return self._best_field(s, me, legal, best)

    def _leftovers(self, view, legal):
        s, me = view.state, view.player
        g = game_left(s)
        plantable = self._planting(legal)
        gains = self._gains(s, me, plantable, g)
        if gains:
            t = max(gains, key=lambda k: (gains[k], -k))
            if gains[t] >= DISCARD_BELOW:
                return self._best_field(s, me, legal, t)
        discards = [a for a in legal if a.kind == Kind.DISCARD]
        if not discards:
            return None
        # discard the card that would cost most to plant (types that fit nowhere first)
        worst = {a.a: gains.get(a.a, -1e9) for a in discards}
        t = min(worst, key=lambda k: (worst[k], k))
        return next(a for a in discards if a.a == t)
