"""What one player knows, as text a language model can read (``observation_text``), and the numbered
legal actions with card names (``legal_action_texts``; ``action_menu`` for prompts and screens, which
summarises the thousands of whole offers of ``offer_actions="macro"`` in one line).

Everything is read from the player's ``PlayerView`` (the engine's masked state), so a card the player
cannot see never appears (INFO-3). Terms: *front* is the hand card planted next (COM-1); *fields* are
numbered 1..3 per seat; the *trade area* is the face-up area of the active player (BASE-6).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence, Union

from ..cards import NAMES, TYPES
from ..engine.actions import ALL, OFFER_SLOTS, TEXT_NAMES, Action, Kind, unpack_offer
from ..engine.game import Game
from ..engine.state import EMPTY
from ..engine.views import UNKNOWN, PlayerView

GameOrView = Union[Game, PlayerView]

# What each decision point asks of the deciding player (decision names of the rules modules).
DECISIONS: dict[str, str] = {
    "plant": "plant your front hand card (or harvest / buy a 3rd field first)",
    "plant_optional": "plant the next front hand card too, or stop planting",
    "turn_up": "turn up the cards of this step (free actions first if you like)",
    "offer": "make an offer, pass, or (active player) keep a trade-area card / end trading",
    "compose": "continue building your offer: add cards to give or want, then submit (or cancel)",
    "respond": "accept or decline the offer addressed to you",
    "pick": "choose which acceptor to trade with, or cancel",
    "choose_give": "choose which of your cards serves a wanted type in the trade",
    "plant_traded": "plant one of your cards to plant",
    "plant_face_up": "plant a face-up card on your fields, or be done",
    "discard_hand": "discard one hand card, or discard nothing",
    "leftovers": "plant or discard a card the opponent left face up",
    "yield": "harvest in time or continue (bosses then take their yield)",
    "place": "place face-up cards (a stack on a field or boss, a turned-up card on an empty field), "
             "gift a hand card to the mafia, or end placements",
    "fill": "gift a hand card to an empty boss",
    "harvest_window": "the deck runs out soon: harvest, buy a 3rd field, or be done",
    "turn": "take a regular action (play, merge, turn up, harvest, attack), play a text card, or end the turn",
    "play": "add cards to the play you are building, or confirm it",
    "harvest": "choose how to carry out the harvest you started",
    "final_play": "play hand cards onto your fields before the final harvest, or be done",
    "copy": "copy the active player's action with your own parameters, or pass",
    "attack": "finish the takeover you are building",
    "defend": "defend your attacked field with a text card, or do not defend",
    "override": "play Starke Uebernahme, or accept the defence",
    "show": "choose the cards to show for Samenhandel",
    "seed_coin": "choose the shown card that becomes a coin",
    "seed_keep": "discard the other shown cards and draw five, or keep them",
    "final": "final harvest: harvest your fields one at a time (text cards first if you like)",
}


def as_view(game_or_view: GameOrView, player: int | None = None) -> PlayerView:
    """The ``PlayerView`` of ``player`` (a game) or the view itself (its own player)."""
    if isinstance(game_or_view, PlayerView):
        if player is not None and player != game_or_view.player:
            raise ValueError(f"this view belongs to player {game_or_view.player}, not player {player}")
        return game_or_view
    if isinstance(game_or_view, Game):
        if player is None:
            player = game_or_view.current_player
            if player < 0:
                raise ValueError("the game is over; name the player whose observation you want")
        return game_or_view.view(player)
    raise TypeError(f"expected a Game or a PlayerView, not {type(game_or_view).__name__}")


def view_legal(view: PlayerView) -> list[Action]:
    """The legal actions at the view's decision point if its player decides, else ``[]``
    (``view.legal_actions()``, kept for existing callers)."""
    return view.legal_actions()


def _seat(p: int, me: int) -> str:
    return "you" if p == me else f"player {p}"


def _fields_line(s, p: int) -> str:
    parts = []
    for f in range(s.nfields[p]):
        i = p * 3 + f
        parts.append(f"{f + 1}: {NAMES[s.ftype[i]]} x{s.fcount[i]}" if s.fcount[i] else f"{f + 1}: empty")
    if s.nfields[p] < 3 and s.variant in ("bohnanza", "bean_duel", "al_cabohne"):
        parts.append("(no 3rd field)")
    return ", ".join(parts)


def _card_name(code: int) -> str:
    return "?" if code == UNKNOWN else NAMES[code]


def _meter(code: int) -> str:
    t = TYPES[code]
    if code == 8:  # cutting bean: no printed beanometer (CARD-3)
        return (f"{t.name} ({t.count} cards): no beanometer (CARD-3): during play 2 cards give a text card, "
                "3-4 two, 5-6 two and 1 coin, 7+ two and 2 coins; final harvest 4-5 one coin, 6 two, 7 three, 8+ four")
    steps = "/".join("-" if need is None else str(need) for need in t.meter)
    return f"{t.name} ({t.count} cards): {steps}"


def _offer_lines(view: PlayerView) -> list[str]:
    o = view.offer
    if o is None:
        return []
    me = view.player
    to = "all other players" if o["to"] == ALL else _seat(o["to"], me)
    building = view.decision == "compose"
    if building and o["proposer"] != me:
        # others see how many hand cards an offer being built gives, not which (as the masked history)
        k = len(o["give_hand"])
        give = [f"{k} hand card{'s' if k > 1 else ''}"] if k else []
    else:
        give = [f"hand card {i + 1}" + (f" ({name})" if name else "") for i, name in o["give_hand"]]
    give += [f"trade-area {t}" for t in o["give_trade"]]
    want = ", ".join(o["want"]) or ("nothing yet" if building else "nothing (a gift)")
    state = " (being built)" if building else ""
    lines = [f"Offer{state} by {_seat(o['proposer'], me)} to {to}: gives {', '.join(give) or 'nothing'}; "
             f"wants {want}."]
    if o["pending"]:
        lines.append("  Still to answer: " + ", ".join(_seat(q, me) for q in o["pending"]) + ".")
    if o["accepted"]:
        lines.append("  Accepted by: " + ", ".join(_seat(q, me) for q in o["accepted"]) + ".")
    return lines


def observation_text(game_or_view: GameOrView, player: int | None = None, last_actions: int = 8) -> str:
    """What ``player`` knows, as compact text: hand, fields, coins, piles, trade area, offer,
    beanometers, the decision to make. Reads only the player's view (INFO-3)."""
    view = as_view(game_or_view, player)
    s = view.state
    me = view.player
    n = s.n
    cfg = ", ".join(f"{k}={v}" for k, v in sorted(s.config.items()))
    lines = [f"Game: {s.variant} ({cfg}). You are player {me} of {n}. Turn {s.turn}; "
             f"active player: {_seat(s.active, me)}."]
    hand = s.hands[me]
    if hand:
        order = "front first" if s.variant != "hostile_takeover" else "no fixed order"
        lines.append(f"Your hand ({len(hand)} cards, {order}): "
                     + ", ".join(f"{i + 1} {NAMES[c]}" for i, c in enumerate(hand)) + ".")
    else:
        lines.append("Your hand: empty.")
    for q in range(n):
        if q == me:
            continue
        known = [f"card {i + 1} {NAMES[c]}" for i, c in enumerate(s.hands[q]) if c != UNKNOWN]
        extra = f" (known to you: {', '.join(known)})" if known else ""
        lines.append(f"Player {q} holds {len(s.hands[q])} hand cards{extra}.")
    lines.append("Fields:")
    for q in range(n):
        lines.append(f"  {_seat(q, me)}: {_fields_line(s, q)}")
    lines.append("Coins: " + ", ".join(f"{_seat(q, me)} {len(s.coins[q])}" for q in range(n)) + ".")
    plant = [f"{_seat(q, me)}: {', '.join(sorted(NAMES[c] for c in s.to_plant[q]))}"
             for q in range(n) if s.to_plant[q]]
    if plant:
        lines.append("Cards to plant: " + "; ".join(plant) + ".")
    if s.face_up:
        counts = Counter(NAMES[c] for c in s.face_up)
        area = "Trade area" if s.variant == "bohnanza" else "Face-up cards"
        lines.append(f"{area}: " + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())) + ".")
    top = f", top {NAMES[s.discard[-1]]}" if s.discard else ""
    lines.append(f"Discard pile: {len(s.discard)} cards{top}. Deck: {len(s.deck)} cards; "
                 f"run-outs {s.runouts} of {s.limit} (the game ends at the last).")
    if s.variant == "bohnanza" and s.t_round:
        lines.append(f"Trading round {s.t_round} of at most {view.rules.max_rounds}.")
    lines.extend(_offer_lines(view))
    extra = view.rules.render_extra(s)
    if extra:
        lines.append("Other: " + " ".join(extra.split()) if "\n" not in extra
                     else "Other:\n" + "\n".join("  " + ln.strip() for ln in extra.splitlines()))
    types = sorted(view.rules.composition())
    lines.append("Beanometers (cards needed for 1/2/3/4 coins): "
                 + "; ".join(_meter(t) for t in types) + ".")
    history = view.history  # masked: hidden parts of actions are not named (INFO-3)
    if history and last_actions:
        lines.append("Last actions: " + "; ".join(str(a) for a in history[-last_actions:]) + ".")
    if s.over:
        lines.append("The game is over.")
    elif s.actor == me:
        what = DECISIONS.get(s.decision, "choose one of the legal actions")
        lines.append(f"Decision '{s.decision}': you decide now: {what}.")
    else:
        lines.append(f"Decision '{s.decision}': {_seat(s.actor, me)} decides now.")
    return "\n".join(lines)


def action_text(action: Action, view: PlayerView) -> str:
    """``str(action)`` with the card names a hand position or field stands for, e.g.
    ``give hand card 3 (red)``. Only the deciding player's own cards are named."""
    s = view.state
    me = view.player
    base = str(action)
    k = action.kind
    hand = s.hands[me]
    if k in (Kind.GIVE_HAND, Kind.DISCARD_HAND, Kind.GIVE_MAFIA) and 0 <= action.a < len(hand):
        return f"{base} ({_card_name(hand[action.a])})"
    if k == Kind.PLANT and hand:
        return f"{base} ({NAMES[hand[0]]})"
    if k in (Kind.HARVEST, Kind.HT_HARVEST, Kind.HT_FINAL) and action.a < 3:
        i = me * 3 + action.a
        if s.fcount[i] and s.ftype[i] != EMPTY:
            return f"{base} ({NAMES[s.ftype[i]]} x{s.fcount[i]})"
    return base


def legal_action_texts(game_or_view: GameOrView, legal: Sequence[Action] | None = None) -> list[str]:
    """The legal actions of the deciding player, numbered from 0 with card names:
    ``["0: plant field 1 (red)", ...]``. ``legal`` defaults to the engine's list."""
    view = as_view(game_or_view)
    if legal is None:
        legal = view_legal(view)
    return [f"{i}: {action_text(a, view)}" for i, a in enumerate(legal)]


# whole offers a menu shows as examples; the rest are summarised in one line
WHOLE_OFFER_EXAMPLES = 8


def listed_actions(legal: Sequence[Action], examples: int | None = WHOLE_OFFER_EXAMPLES) -> list[int]:
    """The indices of ``legal`` a menu lists: every action, except that of more than ``examples`` whole
    offers (``OFFER_CARDS``) only ``examples``, spread evenly over them, are listed (None: all)."""
    offers = [i for i, a in enumerate(legal) if a.kind == Kind.OFFER_CARDS]
    if examples is None or len(offers) <= examples:
        return list(range(len(legal)))
    keep = {offers[k * len(offers) // examples] for k in range(examples)} if examples > 0 else set()
    return [i for i, a in enumerate(legal) if a.kind != Kind.OFFER_CARDS or i in keep]


def _offer_line(action: Action) -> str:
    """A whole offer as an offer line (``offer all give red want stink``)."""
    give, want = unpack_offer(action.b)
    who = "all" if action.a == ALL else str(action.a)
    return (f"offer {who}" + (" give " + ", ".join(NAMES[t] for t in give) if give else "")
            + (" want " + ", ".join(NAMES[t] for t in want) if want else ""))


def whole_offer_note(view: PlayerView, legal: Sequence[Action], listed: Sequence[int]) -> str | None:
    """One line on the whole offers a menu leaves out: how many, to whom, how to make any of them (None
    when it leaves none out)."""
    shown = set(listed)
    hidden = [i for i, a in enumerate(legal) if a.kind == Kind.OFFER_CARDS and i not in shown]
    if not hidden:
        return None
    targets = sorted({legal[i].a for i in hidden}, key=lambda t: (t != ALL, t))
    names = ", ".join("all" if t == ALL else f"player {t}" for t in targets)
    cap = getattr(view.rules, "offer_cap", None) or OFFER_SLOTS
    example = _offer_line(legal[hidden[len(hidden) // 2]])
    return (f"... and {len(hidden):,} more whole offers, not listed (to {names}; at most {cap} cards a side): "
            f"make any of them with a line such as '{example}' (or its text, e.g. "
            f"'{action_text(legal[hidden[0]], view)}')")


def action_menu(game_or_view: GameOrView, legal: Sequence[Action] | None = None,
                examples: int | None = WHOLE_OFFER_EXAMPLES) -> list[str]:
    """``legal_action_texts`` for a prompt or a screen: the numbers stay those of the full list, but of
    more than ``examples`` whole offers (thousands at 4+ players under ``offer_actions="macro"``) only
    ``examples`` are listed and one last line says how to make the others (``examples=None``: all)."""
    view = as_view(game_or_view)
    if legal is None:
        legal = view_legal(view)
    listed = listed_actions(legal, examples)
    lines = [f"{i}: {action_text(legal[i], view)}" for i in listed]
    note = whole_offer_note(view, legal, listed)
    return lines + ([note] if note else [])


__all__ = ["DECISIONS", "TEXT_NAMES", "WHOLE_OFFER_EXAMPLES", "action_menu", "action_text", "as_view",
           "legal_action_texts", "listed_actions", "observation_text", "view_legal", "whole_offer_note"]
