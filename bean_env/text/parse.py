"""Read an action from text: an index into the numbered legal actions, an action string, or a
one-line offer (``offer all give red want stink``; grammar and errors in ``bean_env.text.offer``) that
becomes the legal actions making it: the offer sub-decisions, or one whole-offer action (AGT-2).
Matching ignores case, extra spaces, quotes and a trailing period.
"""
from __future__ import annotations

import difflib
import functools
import re
from typing import Sequence

from ..cards import CODE
from ..engine.actions import ALL, OFFER_SLOTS, Action, Kind, pack_offer
from .observation import GameOrView, action_text, as_view
from .offer import OfferError, normalise, plan_offer

__all__ = ["ActionParseError", "normalise", "parse_action", "parse_actions"]


class ActionParseError(ValueError):
    """Text that names no legal action; the message lists the closest legal actions."""

    def __init__(self, text: str, reason: str, closest: Sequence[str]):
        self.text, self.reason, self.closest = text, reason, list(closest)
        shown = "; ".join(self.closest) if self.closest else "(none)"
        super().__init__(f"could not read {text!r} as an action: {reason}. Closest legal actions: {shown}")


@functools.lru_cache(maxsize=1 << 16)
def _normalised(text: str) -> str:
    """``normalise`` of an action's text (the same texts recur decision after decision)."""
    return normalise(text)


def _closest(text: str, options: list[str], plain: list[str] | None = None, k: int = 5) -> list[str]:
    """The ``k`` options most like ``text`` (difflib ratio against ``plain``, the options' normalised
    texts; a cheap upper bound first picks candidates, so thousands of whole offers stay fast)."""
    if not options:
        return []
    if plain is None:
        plain = [normalise(re.sub(r"^\d+: ", "", o)) for o in options]
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(text)  # the matcher caches what it learns about seq2

    def ratio(i: int, quick: bool) -> float:
        matcher.set_seq1(plain[i])
        return matcher.quick_ratio() if quick else matcher.ratio()

    candidates = sorted(range(len(options)), key=lambda i: -ratio(i, True))[:max(4 * k, 40)]
    return [options[i] for i in sorted(candidates, key=lambda i: (-ratio(i, False), i))[:k]]


def parse_actions(text: str, game_or_view: GameOrView, legal: Sequence[Action] | None = None) -> list[Action]:
    """The action(s) ``text`` names for the deciding player: one action, or for an offer line the legal
    actions that make the offer, in order (its sub-decisions, or one whole-offer action). Raises
    ``ActionParseError`` with the reason and the closest legal actions."""
    view = as_view(game_or_view)
    if legal is None:
        legal = view.legal_actions()
    legal = list(legal)
    texts: dict[int, str] = {}  # the texts of the legal actions, made as they are needed

    def text_of(i: int) -> str:
        found = texts.get(i)
        if found is None:
            found = texts[i] = action_text(legal[i], view)
        return found

    def numbered(first: int = 5) -> list[str]:
        return [f"{i}: {text_of(i)}" for i in range(min(first, len(legal)))]

    if not isinstance(text, str):
        raise ActionParseError(repr(text), f"expected text, not {type(text).__name__}", numbered())
    t = normalise(text)
    if not legal:
        raise ActionParseError(text, "you have no decision to make now", [])
    m = re.fullmatch(r"[\[(#]?(\d+)[\])]?(?:[:.)]?\s.*)?", t)
    if m and (t.isdigit() or re.fullmatch(r"[\[(#]?\d+[\])]?[:.)]?", t) or re.fullmatch(r"\d+: .*", t)):
        i = int(m.group(1))
        if not 0 <= i < len(legal):
            raise ActionParseError(text, f"index {i} is out of range 0..{len(legal) - 1}", numbered())
        if re.fullmatch(r"\d+: .*", t):   # "3: plant field 1 (red)" must agree with action 3
            said = normalise(t.split(": ", 1)[1])
            if said not in (normalise(text_of(i)), normalise(str(legal[i]))):
                raise ActionParseError(text, f"action {i} is '{text_of(i)}', not {said!r}", numbered())
        return [legal[i]]
    whole = _whole_offer_of(t)
    if whole is not None:  # a whole offer's text: the one OFFER_CARDS action it can be
        if whole in legal and _normalised(action_text(whole, view)) == t:
            return [whole]
    else:
        for i, a in enumerate(legal):  # the first action whose text (with or without card names) is t
            if a.kind != Kind.OFFER_CARDS and (t == _normalised(text_of(i)) or t == _normalised(str(a))):
                return [a]

    @functools.cache
    def every() -> tuple[list[str], list[str]]:
        """Every legal action numbered with its text, and the normalised texts (for the closest ones)."""
        return numbered(len(legal)), [_normalised(text_of(i)) for i in range(len(legal))]

    if t.startswith("offer"):
        def near() -> list[str]:
            shown, plain = every()
            offers = [i for i, full in enumerate(plain) if "offer" in full] or list(range(len(legal)))
            return _closest(t, [shown[i] for i in offers], [plain[i] for i in offers])
        try:
            plan = plan_offer(t, view)
        except OfferError as e:
            raise ActionParseError(text, str(e), near()) from None
        if plan[0] not in legal:
            raise ActionParseError(text, f"'{action_text(plan[0], view)}' is not among the legal actions given",
                                   near())
        return plan
    raise ActionParseError(text, "it matches no legal action", _closest(t, *every()))


_WHOLE_OFFER = re.compile(r"offer (.+) for (.+) to (all|player \d+)")


@functools.lru_cache(maxsize=1 << 12)
def _whole_offer_of(t: str) -> Action | None:
    """The ``OFFER_CARDS`` action whose text (normalised) may be ``t``, or None where ``t`` is no whole
    offer's text (the text is then checked against the action's own)."""
    m = _WHOLE_OFFER.fullmatch(t)
    if not m:
        return None
    sides = []
    for side in m.group(1, 2):
        names = [] if side == "nothing" else side.split(" + ")
        if len(names) > OFFER_SLOTS or any(n not in CODE for n in names):
            return None
        sides.append([CODE[n] for n in names])
    target = ALL if m.group(3) == "all" else int(m.group(3).split()[1])
    return Action(Kind.OFFER_CARDS, target, pack_offer(*sides))


def parse_action(text: str, game_or_view: GameOrView, legal: Sequence[Action] | None = None) -> Action:
    """The single legal action ``text`` names (an index or an action string). For an offer line,
    use ``parse_actions`` (it returns every action that makes the offer); here it returns the first."""
    return parse_actions(text, game_or_view, legal)[0]
