"""`bohnanza`: the base game, German and English editions, 3-7 players (BASE-*).

Turn phases (BASE-4): plant (decisions ``plant``, ``plant_optional``), trade (turn-up, then the
offer/response protocol of ``trading.py``), plant traded (``plant_traded``), draw. Before a turn-up or
draw that takes the deck's last card, a harvest window (``harvest_window``) may open (BASE-9).
"""
from __future__ import annotations

from ..cards import deck_without
from .actions import DONE, STOP_PLANTING, Action, Kind
from .state import State
from .trading import TradingMixin

# Action kind compared when stepping (a module constant reads faster than an enum class attribute)
_K_PLANT = Kind.PLANT

_PLANT = [Action(Kind.PLANT, f) for f in range(3)]

# BASE-2: (removed types, 3rd field: "start" | cost, run-out limit)
_PLAYER_COUNT_RULES: dict[tuple[str, int], tuple] = {
    ("german", 3): ((), 3, 3), ("german", 4): ((), 3, 3), ("german", 5): ((), 3, 3),
    ("english", 3): (("cocoa",), "start", 2),
    ("english", 4): (("coffee",), 3, 3), ("english", 5): (("coffee",), 3, 3),
    ("english", 6): (("cocoa", "garden"), 2, 3), ("english", 7): (("cocoa", "garden"), 2, 3),
}


class BohnanzaRules(TradingMixin):
    variant = "bohnanza"

    def __init__(self, config: dict):
        super().__init__(config)
        self.edition = config["edition"]
        self.n = config["num_players"]
        removed, third, limit = _PLAYER_COUNT_RULES[(self.edition, self.n)]
        self.removed_types = removed
        self.third_at_start = third == "start"
        self.field_cost = 0 if self.third_at_start else third
        self.limit = limit
        self.big = self.edition == "english" and self.n >= 6
        self.draw_count = 4 if self.big else 3       # BASE-8
        self.max_rounds = config["max_trade_rounds"]  # TRADE-6
        self.deck_types = tuple(sorted(self.composition()))

    def composition(self) -> dict[int, int]:
        return deck_without("DE" if self.edition == "german" else "EN", *self.removed_types)

    # -- set-up (BASE-2, BASE-3) ------------------------------------------------------------------
    def setup(self, s: State) -> None:
        s.limit = self.limit
        s.nfields = [3 if self.third_at_start else 2] * s.n
        self.new_deck(s)
        s.dealer = s.rng().randrange(s.n)
        first = (s.dealer + 1) % s.n
        if self.big:
            sizes = [6] * s.n
            for k, size in enumerate((3, 4, 5)):
                sizes[(first + k) % s.n] = size
        else:
            sizes = [5] * s.n
        self.deal(s, sizes, first)
        s.active = first
        self.start_turn(s)

    def can_buy(self, s: State, p: int) -> bool:
        return (not self.third_at_start and s.nfields[p] < 3 and len(s.coins[p]) >= self.field_cost)

    # -- flow --------------------------------------------------------------------------------------
    def start_turn(self, s: State) -> None:
        s.planted = 0
        s.made = [[] for _ in range(s.n)]
        if s.hands[s.active]:
            s.decision, s.actor = "plant", s.active
        else:
            self.begin_turn_up(s)

    def needs_window(self, s: State, need: int) -> bool:
        """BASE-9: the next draw will take the deck's last card (it needs at least as many cards as the
        deck holds, so a run-out happens during it) and that run-out won't end the game."""
        return len(s.deck) <= need and s.runouts + 1 < s.limit

    def open_window(self, s: State, then: str) -> None:
        s.window = [(s.active + k) % s.n for k in range(s.n)]
        s.window_next = then
        s.decision, s.actor = "harvest_window", s.window[0]

    def begin_turn_up(self, s: State) -> None:
        if self.needs_window(s, 2):
            self.open_window(s, "turn_up")
        else:
            self.turn_up(s)

    def turn_up(self, s: State) -> None:
        """BASE-6: turn up two cards one at a time, then trade."""
        self.turn_up_cards(s, 2)
        self.begin_trading(s)

    def begin_plant_traded(self, s: State) -> None:
        s.pt = 0
        self.next_planter(s)

    def next_planter(self, s: State) -> None:
        """BASE-7: seats plant their cards to plant clockwise from the active player."""
        while s.pt < s.n:
            p = (s.active + s.pt) % s.n
            if s.to_plant[p]:
                s.decision, s.actor = "plant_traded", p
                return
            s.pt += 1
        if s.end_pending:
            self.end_game(s)
        elif self.needs_window(s, self.draw_count):
            self.open_window(s, "draw")
        else:
            self.draw_phase(s)

    def draw_phase(self, s: State) -> None:
        """BASE-8 / BASE-10: draw; a game-end run-out here ends the game at once."""
        self.draw_to_hand(s, s.active, self.draw_count)
        if s.runouts >= s.limit:
            self.end_game(s)
            return
        s.active = (s.active + 1) % s.n
        s.turn += 1
        self.start_turn(s)

    # -- legal actions -----------------------------------------------------------------------------
    def legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "plant":
            return [_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + self.free_actions(s, p)
        if d == "plant_optional":
            return ([_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + [STOP_PLANTING]
                    + self.free_actions(s, p))
        if d == "plant_traded":
            return self.plant_card_actions(s, p, s.to_plant[p]) + self.free_actions(s, p)
        if d == "harvest_window":
            return self.free_actions(s, p) + [DONE]
        if d == "game_over":
            return []
        return self.trade_legal(s)

    # -- applying ----------------------------------------------------------------------------------
    def step(self, s: State, action: Action) -> None:
        d, p = s.decision, s.actor
        if self.apply_free(s, p, action):
            return  # the same seat decides again at the same point (COM-13)
        kind = action.kind
        if d == "plant" or d == "plant_optional":
            if kind == _K_PLANT and self.plant_front(s, p, action.a):
                s.decision = "plant_optional"
                return
            self.begin_turn_up(s)
        elif d == "plant_traded":
            s.to_plant[p].remove(action.a)
            self.plant(s, p, action.b, action.a)
            if not s.to_plant[p]:
                s.pt += 1
                self.next_planter(s)
        elif d == "harvest_window":
            s.window.pop(0)
            if s.window:
                s.actor = s.window[0]
            elif s.window_next == "turn_up":
                self.turn_up(s)
            else:
                self.draw_phase(s)
        else:
            self.trade_step(s, action)

    def end_trading_phase(self, s: State) -> None:
        """BASE-6: cards left in the trade area go to the active player's cards to plant."""
        s.to_plant[s.active].extend(s.face_up)
        s.face_up = []
        self.begin_plant_traded(s)
