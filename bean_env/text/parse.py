"""Read an action from text: an index into the numbered legal actions, an action string, or a
one-line offer that is composed through the legal offer sub-decisions (AGT-2).

Offer line grammar (``bohnanza`` trading, TRADE-2): ``offer <to> [give <cards>] [want <types>]`` where
``<to>`` is ``all``, ``N``, ``pN`` or ``player N``; ``<cards>`` and ``<types>`` are comma- or
space-separated bean names, a count prefix allowed (``2 blue``). A give item ``#N`` (or ``card N``) is
hand card N; ``hand red`` / ``area red`` choose where a red comes from (default: the trade area if it
holds one, else the earliest red in hand). Matching ignores case, extra spaces and a trailing period.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Sequence

from ..cards import CODE, NAMES
from ..engine.actions import ALL, SUBMIT, Action, Kind
from ..engine.views import PlayerView
from .observation import GameOrView, action_text, as_view, view_legal


class ActionParseError(ValueError):
    """Text that names no legal action; the message lists the closest legal actions."""

    def __init__(self, text: str, reason: str, closest: Sequence[str]):
        self.text, self.reason, self.closest = text, reason, list(closest)
        shown = "; ".join(self.closest) if self.closest else "(none)"
        super().__init__(f"could not read {text!r} as an action: {reason}. Closest legal actions: {shown}")


_ALIASES = {"black-eyed": "black_eyed", "black eyed": "black_eyed", "blackeyed": "black_eyed"}


def normalise(text: str) -> str:
    """Lower case, single spaces, no quotes/backticks, no trailing punctuation."""
    t = str(text).strip().strip("`\"'").strip()
    t = re.sub(r"\s+", " ", t.lower())
    for k, v in _ALIASES.items():
        t = t.replace(k, v)
    return t.rstrip(".!;:").strip()


def _closest(text: str, options: list[str], k: int = 5) -> list[str]:
    if not options:
        return []
    plain = [re.sub(r"^\d+: ", "", o) for o in options]
    scored = sorted(range(len(options)),
                    key=lambda i: -difflib.SequenceMatcher(None, text, normalise(plain[i])).ratio())
    return [options[i] for i in scored[:k]]


def _bean(word: str) -> int:
    w = word.strip()
    if w.endswith("s") and w[:-1] in CODE:   # "reds", "blues"
        w = w[:-1]
    if w not in CODE:
        close = difflib.get_close_matches(w, NAMES, n=3)
        raise ValueError(f"unknown bean {word!r}" + (f" (did you mean {', '.join(close)}?)" if close else ""))
    return CODE[w]


def _items(part: str) -> list[str]:
    """``"2 blue, red"`` -> ``["blue", "blue", "red"]``; keeps ``hand x`` / ``area x`` / ``#n``."""
    out: list[str] = []
    for chunk in re.split(r"\s*,\s*|\s+and\s+", part.strip()):
        if not chunk:
            continue
        words = chunk.split()
        i = 0
        while i < len(words):
            w = words[i]
            count = 1
            if w.isdigit() and i + 1 < len(words) and not (i > 0 and words[i - 1] == "card"):
                count, i = int(w), i + 1
                w = words[i]
            if w in ("hand", "area", "trade", "trade-area", "card") and i + 1 < len(words):
                w = f"{'card' if w == 'card' else ('hand' if w == 'hand' else 'area')} {words[i + 1]}"
                i += 1
            out.extend([w] * count)
            i += 1
    return out


_OFFER = re.compile(r"^offer(?: to)? (?P<to>all|(?:player |p)?\d+)(?P<rest>.*)$")


def _parse_offer(text: str, view: PlayerView) -> dict:
    m = _OFFER.match(text)
    if not m:
        raise ValueError("an offer reads 'offer <all|player N> give <cards> want <types>'")
    to_word = m.group("to")
    to = ALL if to_word == "all" else int(re.sub(r"\D", "", to_word))
    rest = m.group("rest").strip()
    gm = re.search(r"\bgive\b(.*?)(?=\bwant\b|$)", rest)
    wm = re.search(r"\bwant\b(.*)$", rest)
    leftover = re.sub(r"\bgive\b(.*?)(?=\bwant\b|$)|\bwant\b(.*)$", "", rest).strip(" ,;")
    if leftover and leftover not in ("for", "in exchange for"):
        raise ValueError(f"cannot read {leftover!r} in the offer (use 'give ...' and 'want ...')")
    give = _items(gm.group(1)) if gm else []
    want = _items(re.sub(r"^\s*(for|in exchange for)\s+", "", wm.group(1))) if wm else []
    if gm and not give or wm and not want:
        raise ValueError("'give' and 'want' need at least one bean each (leave the word out for none)")
    if not give and not want:
        raise ValueError("an offer needs something to give or to want (TRADE-2)")
    s = view.state
    me = view.player
    hand = s.hands[me]
    area = Counter(s.face_up) if me == s.active else Counter()
    positions: list[int] = []
    hand_types: Counter = Counter()
    trade_types: Counter = Counter()
    for item in give:
        if item.startswith("#") or item.startswith("card "):
            pos = int(re.sub(r"\D", "", item) or 0) - 1
            if not 0 <= pos < len(hand):
                raise ValueError(f"you have no hand card {pos + 1}")
            positions.append(pos)
        elif item.startswith("hand "):
            hand_types[_bean(item[5:])] += 1
        elif item.startswith("area "):
            trade_types[_bean(item[5:])] += 1
        else:
            bean = _bean(item)
            if area[bean] > trade_types[bean]:
                trade_types[bean] += 1
            else:
                hand_types[bean] += 1
    have = Counter(hand[i] for i in range(len(hand)) if i not in positions)
    for bean, count in (hand_types + trade_types).items():
        if have[bean] + area[bean] < count:
            raise ValueError(f"you cannot give {count} {NAMES[bean]}: your tradable cards hold "
                             f"{have[bean] + area[bean]}")
    return {"to": to, "positions": sorted(set(positions)), "hand": hand_types, "trade": trade_types,
            "want": Counter(_bean(w) for w in want)}


def _compose(view: PlayerView, spec: dict) -> list[Action]:
    """The legal sub-decision sequence that builds ``spec``: OFFER, GIVE_HAND..., GIVE_TRADE...,
    WANT..., SUBMIT (the canonical order of the compose decision)."""
    rules = view._rules
    s = view.state.clone()  # masked: building an offer reads and writes only public offer fields
    first = Action(Kind.OFFER, spec["to"])
    if first not in rules.legal(s):
        raise ValueError(f"'{first}' is not legal now")
    rules.step(s, first)

    def search(st, positions, hand, trade, want, plan):
        legal = rules.legal(st)
        if not positions and not +hand and not +trade and not +want:
            return plan + [SUBMIT] if SUBMIT in legal else None
        for a in legal:
            k = a.kind
            if k == Kind.GIVE_HAND:
                bean = st.hands[st.o_prop][a.a]
                if a.a in positions:
                    nxt = (positions - {a.a}, hand, trade, want)
                elif hand[bean] > 0 and not positions & set(range(a.a)):
                    nxt = (positions, hand - Counter([bean]), trade, want)
                else:
                    continue
            elif k == Kind.GIVE_TRADE and trade[a.a] > 0 and not positions and not +hand:
                nxt = (positions, hand, trade - Counter([a.a]), want)
            elif k == Kind.WANT and want[a.a] > 0 and not positions and not +hand and not +trade:
                nxt = (positions, hand, trade, want - Counter([a.a]))
            else:
                continue
            child = st.clone()
            rules.step(child, a)
            found = search(child, *nxt, plan + [a])
            if found is not None:
                return found
        return None

    plan = search(s, frozenset(spec["positions"]), spec["hand"], spec["trade"], spec["want"], [first])
    if plan is None:
        raise ValueError("no legal way to build this offer (cards you do not hold, too many wanted cards "
                         "(TRADE-2), or an offer you already made this turn (TRADE-7))")
    return plan


def parse_actions(text: str, game_or_view: GameOrView, legal: Sequence[Action] | None = None) -> list[Action]:
    """The action(s) ``text`` names for the deciding player: one action, or for an offer line the
    whole legal sub-decision sequence. Raises ``ActionParseError`` listing the closest legal actions."""
    view = as_view(game_or_view)
    if legal is None:
        legal = view_legal(view)
    legal = list(legal)
    texts = [action_text(a, view) for a in legal]
    numbered = [f"{i}: {t}" for i, t in enumerate(texts)]
    if not isinstance(text, str):
        raise ActionParseError(repr(text), f"expected text, not {type(text).__name__}", numbered[:5])
    t = normalise(text)
    if not legal:
        raise ActionParseError(text, "you have no decision to make now", [])
    m = re.fullmatch(r"[\[(#]?(\d+)[\])]?(?:[:.)]?\s.*)?", t)
    if m and (t.isdigit() or re.fullmatch(r"[\[(#]?\d+[\])]?[:.)]?", t) or re.fullmatch(r"\d+: .*", t)):
        i = int(m.group(1))
        if not 0 <= i < len(legal):
            raise ActionParseError(text, f"index {i} is out of range 0..{len(legal) - 1}", numbered[:5])
        if re.fullmatch(r"\d+: .*", t):   # "3: plant field 1 (red)" must agree with action 3
            said = normalise(t.split(": ", 1)[1])
            if said not in (normalise(texts[i]), normalise(str(legal[i]))):
                raise ActionParseError(text, f"action {i} is '{texts[i]}', not {said!r}", numbered[:5])
        return [legal[i]]
    for a, full in zip(legal, texts):
        if t in (normalise(full), normalise(str(a))):
            return [a]
    if t.startswith("offer"):
        if not any(a.kind == Kind.OFFER for a in legal):
            raise ActionParseError(text, "you cannot make an offer now", _closest(t, numbered))
        try:
            return _compose(view, _parse_offer(t, view))
        except ValueError as e:
            raise ActionParseError(text, str(e), _closest(t, [n for n in numbered if "offer" in n]
                                                          or numbered)) from None
    raise ActionParseError(text, "it matches no legal action", _closest(t, numbered))


def parse_action(text: str, game_or_view: GameOrView, legal: Sequence[Action] | None = None) -> Action:
    """The single legal action ``text`` names (an index or an action string). For an offer line,
    use ``parse_actions`` (it returns the whole sub-decision sequence); here it returns its first step."""
    return parse_actions(text, game_or_view, legal)[0]
