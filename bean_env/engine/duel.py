"""`bean_duel`: Bohnanza for 2 players (DUEL-*).

A turn: step 1 (``leftovers``: plant or discard the opponent's face-up cards), step 2 (``plant``,
``plant_optional``, then ``discard_hand``), step 3 (``turn_up``, automatic turn-up of three and
discard matching, then ``plant_face_up``), step 4 (draw 2). The game ends at the first run-out.
"""
from __future__ import annotations

from ..cards import deck_without
from .actions import DONE, KEEP_HAND, TURN_UP, Action, Kind
from .common import Rules
from .state import State

# Action kinds compared when stepping (a module constant reads faster than an enum class attribute)
_K_DISCARD_HAND, _K_DONE, _K_PLANT = Kind.DISCARD_HAND, Kind.DONE, Kind.PLANT

_PLANT = [Action(Kind.PLANT, f) for f in range(3)]
_DISCARD_HAND: dict[int, Action] = {}


class DuelRules(Rules):
    variant = "bean_duel"
    field_cost = 3

    def composition(self) -> dict[int, int]:
        return deck_without("EN", "cocoa", "garden")  # DUEL-1

    def setup(self, s: State) -> None:
        s.limit = 1  # DUEL-2
        self.new_deck(s)
        s.dealer = s.rng().randrange(2)
        first = 1 - s.dealer
        self.deal(s, [5, 5], first)
        s.active = first
        self.start_turn(s)

    def can_buy(self, s: State, p: int) -> bool:
        return s.nfields[p] < 3 and len(s.coins[p]) >= self.field_cost

    def pay_field(self, s: State, coins: list[int]) -> None:
        s.removed.extend(coins)  # DUEL-2: the coins leave the game

    # -- flow ----------------------------------------------------------------------------------
    def start_turn(self, s: State) -> None:
        s.planted = 0
        if s.face_up:
            s.decision, s.actor = "leftovers", s.active  # DUEL-3
        else:
            self.step2(s)

    def step2(self, s: State) -> None:
        s.decision = "plant" if s.hands[s.active] else "turn_up"
        s.actor = s.active

    def after_turn_up(self, s: State) -> None:
        """DUEL-5: three cards, then discard matching, then planting."""
        self.turn_up_cards(s, 3)
        discard, face_up = s.discard, s.face_up
        while discard and discard[-1] in face_up:
            face_up.append(discard.pop())
        if face_up:
            s.decision = "plant_face_up"
        else:
            self.finish_step3(s)

    def finish_step3(self, s: State) -> None:
        if s.end_pending:  # DUEL-7
            s.discard.extend(s.face_up)
            s.face_up = []
            self.end_game(s)
            return
        self.draw_to_hand(s, s.active, 2)  # DUEL-6
        if s.runouts >= s.limit:
            self.end_game(s)
            return
        s.active = 1 - s.active
        s.turn += 1
        self.start_turn(s)

    # -- legal actions ---------------------------------------------------------------------------
    def legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "game_over":
            return []
        free = self.free_actions(s, p)
        if d == "leftovers":
            return self.leftover_actions(s, p) + free
        if d == "plant":
            return [_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + free
        if d == "plant_optional":
            return [_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + [Action(Kind.STOP_PLANTING)] + free
        if d == "discard_hand":
            hand = s.hands[p]
            out = [_discard_hand(i) for i in range(len(hand)) if i == 0 or hand[i - 1] != hand[i]]
            return out + [KEEP_HAND] + free
        if d == "turn_up":
            return [TURN_UP] + free
        if d == "plant_face_up":
            return self.plant_card_actions(s, p, s.face_up) + [DONE] + free
        raise AssertionError(f"unknown decision point {d!r}")

    # -- applying ----------------------------------------------------------------------------------
    def step(self, s: State, action: Action) -> None:
        p = s.actor
        if self.apply_free(s, p, action):
            return
        d, kind = s.decision, action.kind
        if d == "leftovers":
            self.resolve_leftover(s, p, action)
            if not s.face_up:
                self.step2(s)
        elif d == "plant" or d == "plant_optional":
            if kind == _K_PLANT and self.plant_front(s, p, action.a):
                s.decision = "plant_optional"
                return
            s.decision = "discard_hand" if s.hands[p] else "turn_up"
        elif d == "discard_hand":
            if kind == _K_DISCARD_HAND:
                s.discard.append(s.hands[p].pop(action.a))
                s.known[p].pop(action.a)
            s.decision = "turn_up"
        elif d == "turn_up":
            self.after_turn_up(s)
        elif d == "plant_face_up":
            if kind == _K_DONE:
                self.finish_step3(s)
                return
            s.face_up.remove(action.a)
            self.plant(s, p, action.b, action.a)
            if not s.face_up:
                self.finish_step3(s)


def _discard_hand(i: int) -> Action:
    act = _DISCARD_HAND.get(i)
    if act is None:
        act = _DISCARD_HAND[i] = Action(Kind.DISCARD_HAND, i)
    return act
