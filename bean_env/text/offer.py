"""One-line offers (``offer all give red, blue want stink``), read into the legal actions that make them
(AGT-2), for terminal play (``bean_env.play``) and the text/LLM interface (``parse_actions``).

An offer is built either through the sub-decisions OFFER, GIVE_HAND..., GIVE_TRADE..., WANT..., SUBMIT
(TRADE-2; each checked on a copy of the masked state, in the engine's canonical order) or, where offers
are whole actions (``offer_actions="macro"``, e.g. ``trade_preset="learning"``), as the one
``OFFER_CARDS`` action. A line that cannot become a legal offer raises ``OfferError`` saying why.

Grammar (case, extra spaces and a trailing period do not matter)::

    offer [to] TARGET [give CARDS] [want TYPES]        also: offer TARGET give CARDS for TYPES

- TARGET: ``all``, a seat ``N``, ``pN`` or ``player N``.
- CARDS: separated by commas, spaces or ``and``; a count may precede one (``2 soy``). ``red``: a
  trade-area red if the active player's trade area (BASE-6) holds one, else the frontmost red in hand;
  ``hand red`` / ``area red`` (``area:red``, ``trade red``) choose the place; ``#3`` or ``card 3``: hand
  card 3 (the front card is 1); ``red@3``: hand card 3, which must be a red.
- TYPES: bean names with counts (``want 2 soy, red``).
- With whole-offer actions cards are named by type only: the engine gives trade-area cards of a type
  first, then the frontmost hand cards (TRADE-1).
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from ..cards import CODE, NAMES
from ..engine.actions import ALL, OFFER_SLOTS, SUBMIT, Action, Kind, describe, pack_offer
from ..engine.views import PlayerView

GRAMMAR = "offer TARGET [give CARDS] [want CARDS], e.g. offer all give red, blue want stink"
_ALIASES = {"black-eyed": "black_eyed", "black eyed": "black_eyed", "blackeyed": "black_eyed"}
# words naming where a given card comes from
_PLACES = {"hand": "hand", "area": "area", "trade": "area", "trade-area": "area", "card": "card"}


class OfferError(ValueError):
    """A one-line offer that cannot be made; the message says why."""


def normalise(text: str) -> str:
    """Lower case, single spaces, no quotes/backticks, no trailing punctuation, bean-name aliases."""
    t = " ".join(str(text).strip().strip("`\"'").lower().split())
    if "black" in t:
        for k, v in _ALIASES.items():
            t = t.replace(k, v)
    return t.rstrip(".!;:").strip()


@dataclass
class OfferLine:
    """A read offer line: the target (a seat or ``ALL``), the given items and the wanted types.

    A given item is ``(type code or None, hand position or None, place)``, place ``"hand"``, ``"area"``
    or ``""`` (either: the trade area first)."""

    target: int
    give: list[tuple[int | None, int | None, str]] = field(default_factory=list)
    want: list[int] = field(default_factory=list)


def _bean(word: str, raw: str) -> int:
    w = word[:-1] if word.endswith("s") and word[:-1] in CODE else word  # "reds"
    if w.isdigit():
        raise OfferError(f"unknown card {raw!r}: write #{w} for hand card {w}, or name a bean")
    if w not in CODE:
        close = difflib.get_close_matches(w, NAMES, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise OfferError(f"unknown card {raw!r}{hint}; bean names: {', '.join(NAMES)}")
    return CODE[w]


def _items(text: str) -> list[tuple[int | None, int | None, str]]:
    """The cards of a give or want part, in the order written (see the module docstring)."""
    items: list[tuple[int | None, int | None, str]] = []
    for chunk in re.split(r"\s*,\s*|\s+and\s+", text.strip()):
        words = chunk.split()
        i = 0
        while i < len(words):
            count = 1
            if words[i].isdigit() and i + 1 < len(words) and words[i + 1] not in ("card",):
                count, i = int(words[i]), i + 1
                if count < 1:
                    raise OfferError(f"a count must be at least 1, not {count}")
            where = ""
            while words[i] in _PLACES and i + 1 < len(words):
                where, i = _PLACES[words[i]], i + 1
            raw = w = words[i]
            i += 1
            if w.startswith("area:"):
                where, w = "area", w[5:]
            if where == "card" or w.startswith("#"):
                digits = w.lstrip("#")
                if not digits.isdigit():
                    raise OfferError(f"unknown hand card {raw!r}; write #3 for hand card 3")
                items.extend([(None, int(digits) - 1, "hand")] * count)
                continue
            m = re.match(r"^([a-z_]+)@(\d+)$", w)
            if m:
                items.extend([(_bean(m.group(1), raw), int(m.group(2)) - 1, "hand")] * count)
                continue
            items.extend([(_bean(w, raw), None, where)] * count)
    return items


def read_offer(text: str, num_players: int) -> OfferLine:
    """Read an offer line (grammar in the module docstring); raises ``OfferError`` naming the problem."""
    t = normalise(text)
    m = re.match(r"^offer\s+(?:to\s+)?(?:player\s+)?(\S+)(.*)$", t)
    if not m:
        raise OfferError(f"write: {GRAMMAR}")
    who, rest = m.group(1), m.group(2)
    if who == "all":
        target = ALL
    else:
        digits = who[1:] if who.startswith("p") else who
        if not digits.isdigit() or not 0 <= int(digits) < num_players:
            raise OfferError(f"unknown target {who!r}: use all or a seat 0..{num_players - 1} ({GRAMMAR})")
        target = int(digits)
    if re.search(r"\bwant\b", rest):
        rest = re.sub(r"\b(?:in exchange )?for\b(?=\s*want\b)|(?<=want)\s+(?:in exchange )?for\b", " ", rest)
    else:  # "give red for stink"
        rest = re.sub(r"\b(?:in exchange )?for\b", " want ", rest, count=1)
    parts = re.split(r"\b(give|want)\b", rest)
    if parts[0].strip():
        raise OfferError(f"unexpected {parts[0].strip()!r}; write give CARDS and/or want CARDS ({GRAMMAR})")
    line = OfferLine(target)
    for key, value in zip(parts[1::2], parts[2::2]):
        items = _items(value)
        if not items:
            raise OfferError("'give' and 'want' need at least one card each (leave the word out for none)")
        if key == "give":
            line.give.extend(items)
        else:
            if any(t is None or pos is not None or where for t, pos, where in items):
                raise OfferError("wanted cards are named by type only, e.g. want 2 soy, red")
            line.want.extend(t for t, _, _ in items)
    return line


# -- from a line to legal actions --------------------------------------------------------------------------
def plan_offer(line: str | OfferLine, view: PlayerView) -> list[Action]:
    """The legal actions that make the offer ``line`` for ``view``'s player, applied in order: the
    sub-decisions OFFER ... SUBMIT, or one ``OFFER_CARDS`` action with whole-offer actions. Raises
    ``OfferError`` saying why the offer cannot be made (nothing is changed)."""
    s, rules, me = view.state, view.rules, view.player
    if not hasattr(rules, "trade_legal"):
        raise OfferError(f"you cannot make an offer now: {s.variant} has no offers (only bohnanza trades, TRADE-8)")
    if s.over or s.actor != me or s.decision != "offer":
        raise OfferError(f"you cannot make an offer now: you start offers at your trading slot (decision "
                         f"'offer'); now it is '{s.decision}' of player {s.actor}")
    if isinstance(line, str):
        line = read_offer(line, s.n)
    target = line.target
    if me != s.active and target != s.active:
        raise OfferError(f"when it is not your turn you may only offer to the active player P{s.active} (TRADE-1)")
    if target == me:
        raise OfferError("you cannot offer to yourself")
    if not line.give and not line.want:
        raise OfferError("an offer must give or want at least one card (TRADE-2)")
    if getattr(rules, "macro", False):
        return [_whole_offer(view, line)]
    steps = _sub_decisions(s, me, line)
    trial = s.clone()  # the masked state: building an offer reads only the proposer's cards and public facts
    for k, step in enumerate(steps):
        if step not in rules.legal(trial):
            raise OfferError(step_reason(trial, rules, step, me))
        if k + 1 < len(steps):
            rules.step(trial, step)
    return steps


def _sub_decisions(s, me: int, line: OfferLine) -> list[Action]:
    """OFFER, GIVE_HAND (positions increasing), GIVE_TRADE (types), WANT (types), SUBMIT for ``line``;
    explicit hand positions first, then cards named with a place, then plain names."""
    hand = s.hands[me]
    positions: list[int] = []
    area: list[int] = []
    if any(where == "area" for _, _, where in line.give) and me != s.active:
        raise OfferError("only the active player gives trade-area cards (TRADE-1)")
    for t, pos, where in sorted(line.give, key=lambda item: (item[1] is None, item[2] == "")):
        name = NAMES[t] if t is not None else ""
        if pos is not None:
            if not 0 <= pos < len(hand):
                raise OfferError(f"there is no hand card {pos + 1}; your hand has {len(hand)} cards")
            if t is not None and hand[pos] != t:
                raise OfferError(f"hand card {pos + 1} is {NAMES[hand[pos]]}, not {name}")
            if pos in positions:
                raise OfferError(f"hand card {pos + 1} is given twice")
            positions.append(pos)
            continue
        left = s.face_up.count(t) - area.count(t) if me == s.active else 0
        if where == "area" or (where == "" and left > 0):
            if left <= 0:
                raise OfferError(f"the trade area has no {'more ' if t in area else ''}{name}")
            area.append(t)
            continue
        pos = next((i for i, c in enumerate(hand) if c == t and i not in positions), None)
        if pos is None:
            held = ", ".join(NAMES[c] for c in hand) or "nothing"
            raise OfferError(f"you have no {'more ' if t in hand else ''}{name} to give (your hand: {held})")
        positions.append(pos)
    return ([Action(Kind.OFFER, line.target)] + [Action(Kind.GIVE_HAND, i) for i in sorted(positions)]
            + [Action(Kind.GIVE_TRADE, t) for t in sorted(area)] + [Action(Kind.WANT, t) for t in sorted(line.want)]
            + [SUBMIT])


def _room(s, me: int, target: int) -> int:
    """TRADE-2: the most cards ``me`` may want from ``target`` (its tradable cards; the largest for all)."""
    def tradable(q: int) -> int:
        return len(s.hands[q]) + (len(s.face_up) if q == s.active else 0)
    return max(tradable(q) for q in range(s.n) if q != me) if target == ALL else tradable(target)


def _whole_offer(view: PlayerView, line: OfferLine) -> Action:
    """The ``OFFER_CARDS`` action of ``line`` (whole-offer actions: cards named by type only)."""
    s, rules, me = view.state, view.rules, view.player
    if any(pos is not None or where for _, pos, where in line.give):
        raise OfferError("with whole-offer actions (offer_actions=macro) cards are named by type only "
                         "(trade-area cards of a type are given first, then the frontmost hand cards)")
    give = [t for t, _, _ in line.give]
    cap = rules.offer_cap if rules.offer_cap is not None else OFFER_SLOTS
    if len(give) > cap or len(line.want) > cap:
        raise OfferError(f"at most {cap} cards on each side of an offer (max_offer_cards, TRADE-2)")
    have = Counter(s.hands[me]) + (Counter(s.face_up) if me == s.active else Counter())
    for t, c in sorted(Counter(give).items()):
        if have[t] < c:
            raise OfferError(f"you have {have[t]} {NAMES[t]} to give, not {c}")
    action = Action(Kind.OFFER_CARDS, line.target, pack_offer(give, line.want))
    if action in view.legal_actions():
        return action
    room = _room(s, me, line.target)
    if len(line.want) > room:
        raise OfferError(f"you may want at most {room} cards: no addressee has more tradable cards (TRADE-2)")
    if any(True for a in view.legal_actions() if a.kind == Kind.OFFER_CARDS and a.a == line.target):
        raise OfferError("you already made this offer since the last trade (TRADE-7)")
    raise OfferError(f"'{describe(action)}' is not legal now")


def step_reason(s, rules, action: Action, me: int) -> str:
    """Why ``action`` (a step of building an offer by ``me``) is not legal in the state ``s`` (as ``me``
    sees it): the best known reason."""
    kind, cap = action.kind, getattr(rules, "offer_cap", None)
    full = cap is not None and len(s.o_hand) + len(s.o_trade) >= cap
    if s.decision == "offer" and kind == Kind.OFFER:
        who = "anyone" if action.a == ALL else f"player {action.a}"
        return f"no offer to {who} is possible: neither side has a card to trade"
    if s.decision != "compose":
        return f"'{describe(action)}' is not legal at decision '{s.decision}'"
    if kind == Kind.GIVE_HAND:
        hand = s.hands[me]
        if full:
            return f"at most {cap} cards on each side of an offer (max_offer_cards, TRADE-2)"
        if s.o_trade or s.o_want:
            return "give hand cards first: an offer is built hand cards, then trade-area cards, then wants"
        if not 0 <= action.a < len(hand):
            return f"there is no hand card {action.a + 1}"
        if s.o_hand and action.a <= s.o_hand[-1]:
            return "hand cards are added in increasing position (use 'undo' to go back)"
        return (f"hand card {action.a + 1} gives the same as an earlier {NAMES[hand[action.a]]} next to it: "
                "give that one")
    if kind == Kind.GIVE_TRADE:
        if full:
            return f"at most {cap} cards on each side of an offer (max_offer_cards, TRADE-2)"
        if me != s.active:
            return "only the active player gives trade-area cards (TRADE-1)"
        if s.o_want:
            return "add trade-area cards before the wanted cards (use 'undo' to go back)"
        if s.o_trade and action.a < s.o_trade[-1]:
            return "trade-area cards are added in type order (use 'undo' to go back)"
        return f"the trade area has no more {NAMES[action.a]}"
    if kind == Kind.WANT:
        if action.a not in getattr(rules, "deck_types", ()):
            return f"there is no {NAMES[action.a]} in this game's deck"
        most = rules.want_cap(s)
        if len(s.o_want) >= most:
            if cap is not None and most == cap:
                return f"at most {cap} cards on each side of an offer (max_offer_cards, TRADE-2)"
            return f"you may want at most {most} cards: no addressee has more tradable cards (TRADE-2)"
        return "wanted cards are added in type order (use 'undo' to go back)"
    if kind == Kind.SUBMIT:
        if not (s.o_hand or s.o_trade or s.o_want):
            return "an offer must give or want at least one card (TRADE-2)"
        return "you already made this exact offer since the last trade (TRADE-7)"
    return f"'{describe(action)}' is not legal at decision '{s.decision}'"
