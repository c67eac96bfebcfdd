"""Hidden information, conservation and rendering of `hostile_takeover` (HT-2, INFO-1..3): masked
views, determinisation of hidden text cards, card places, text lines. A mixin of ``TakeoverRules``."""
from __future__ import annotations

from collections import Counter

from ..state import EMPTY, State, shuffle
from .shared import HIDDEN
from .textcards import NUM_TEXTS, TXT_JOKER


class TakeoverInfo:
    """Views (``mask``, ``extra_seen``, ``fill_hidden``), card places and the text rendering."""

    # -- hidden information (INFO-1..3) -----------------------------------------------------------
    def mask(self, s: State, player: int) -> State:
        m = s.clone()
        bit = 1 << player
        for q in range(m.n):
            if q == player:
                continue
            seen = sorted((c, k) for c, k in zip(m.hands[q], m.known[q]) if k & bit)
            hidden = len(m.hands[q]) - len(seen)
            m.hands[q] = [c for c, _ in seen] + [EMPTY] * hidden
            m.known[q] = [k for _, k in seen] + [1 << q] * hidden
            m.texts[q] = [EMPTY] * len(m.texts[q])
        m.deck = [EMPTY] * len(m.deck)
        m.tdeck = [EMPTY] * len(m.tdeck)
        m.guard = [g if g < 0 or i // 3 == player else HIDDEN for i, g in enumerate(m.guard)]
        m.seed = 0
        m.shuffles = 0
        return m

    def extra_seen(self, s: State) -> Counter:
        """Corrections for mixed (Mutabohne) piles, which the shared count takes as top type x count
        (signed: the real pile minus that count)."""
        fix = Counter()
        for pile in s.piles:
            if pile and pile.count(pile[-1]) != len(pile):
                fix[pile[-1]] -= len(pile)
                for c in pile:
                    fix[c] += 1
        return fix

    def fill_hidden(self, s: State, unseen, rng) -> None:
        if s.decision == "show":
            self.keep_five_types(s)
        for q in range(s.n):
            hand, known = s.hands[q], s.known[q]
            order = sorted(range(len(hand)), key=hand.__getitem__)
            s.hands[q] = [hand[k] for k in order]
            s.known[q] = [known[k] for k in order]
        # the text cards in no known place (each of the 18 is in exactly one place, text_locations)
        seen = set(s.tdeck)
        seen.update(s.tdiscard)
        seen.update(s.cmods)
        for h in s.texts:
            seen.update(h)
        seen.update(s.guard)  # -1 (none) and HIDDEN are no card codes
        if s.joker >= 0:
            seen.add(TXT_JOKER)
        cards = [c for c in range(NUM_TEXTS) if c not in seen]
        shuffle(rng, cards)
        it = iter(cards)
        for q in range(s.n):
            if EMPTY in s.texts[q]:
                s.texts[q] = sorted(c if c >= 0 else next(it) for c in s.texts[q])
        s.guard = [next(it) if g == HIDDEN else g for g in s.guard]
        s.tdeck = [next(it) for _ in s.tdeck]

    @staticmethod
    def keep_five_types(s: State) -> None:
        """A resampled hand in the middle of Samenhandel must still hold enough unshown types (its
        player was seen to start TXT-14 with five types): swap resampled hand cards with deck cards."""
        p = s.owner
        hand, known = s.hands[p], s.known[p]
        own_only = 1 << p
        for _ in range(len(hand)):
            have = set(hand) - set(s.shown)
            if len(have) >= 5 - len(s.shown):
                return
            counts = Counter(hand)
            k = next((i for i, c in enumerate(hand) if known[i] == own_only
                      and (c in s.shown or counts[c] > 1)), None)
            j = next((i for i, c in enumerate(s.deck) if c not in have and c not in s.shown), None)
            if k is None or j is None:
                return
            hand[k], s.deck[j] = s.deck[j], hand[k]

    def render_extra(self, s: State) -> str:
        from ...cards import NAMES
        from ..actions import TEXT_NAMES

        lines = []
        for p in range(s.n):
            seen = [TEXT_NAMES[c] for c in s.texts[p] if c >= 0]
            parts = [f"P{p} text cards {len(s.texts[p])}" + (f" ({', '.join(seen)})" if seen else "")]
            if s.bonus[p]:
                parts.append(f"bonus coins {s.bonus[p]}")
            for i in self.fields_of(s, p):
                marks = []
                if len(set(s.piles[i])) > 1:
                    marks.append("mutated " + "/".join(NAMES[c] for c in s.piles[i]))
                if s.joker == i:
                    marks.append("Jokerbohne")
                if s.guard[i] != -1:
                    marks.append("protected")
                if marks:
                    parts.append(f"field {i % 3 + 1}: " + ", ".join(marks))
            lines.append(" | ".join(parts))
        state = [f"text deck {len(s.tdeck)}", f"text discard {len(s.tdiscard)}",
                 "d) used" if s.harvested else "d) free"]
        if s.tdiscard:
            state.append(f"top {TEXT_NAMES[s.tdiscard[-1]]}")
        if s.cp_kind:
            state.append(f"copying {s.cp_kind}) quota {s.cp_quota}")
        if s.end_pending:
            state.append("last run-out reached")
        lines.append(" | ".join(state))
        return "\n".join(lines)

    # -- card conservation ----------------------------------------------------------------------------
    def locations(self, s: State) -> dict[str, Counter]:
        """Bean cards by place (text cards: ``text_locations``)."""
        return {
            "deck": Counter(s.deck), "discard": Counter(s.discard), "under_deck": Counter(s.set_aside),
            "removed": Counter(s.removed),
            "turned_up": Counter(s.face_up), "hands": Counter(c for h in s.hands for c in h),
            "fields": Counter(c for pile in s.piles for c in pile),
            "coins": Counter(c for h in s.coins for c in h),
        }

    def text_locations(self, s: State) -> Counter:
        """Every text card's place, as one multiset (each of the 18 once, CARD conservation)."""
        total = Counter(s.tdeck) + Counter(s.tdiscard) + Counter(s.cmods)
        for h in s.texts:
            total.update(h)
        total.update(g for g in s.guard if g != -1)
        if s.joker >= 0:
            total[TXT_JOKER] += 1
        return total
