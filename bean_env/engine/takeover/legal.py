"""Legal actions of `hostile_takeover` (HT-4..19, TXT-1..18): the one generator behind validation,
masks and bots (AGT-1). A mixin of ``TakeoverRules``; terms: see ``rules``."""
from __future__ import annotations

from ...cards import DECKS, NUM_TYPES, handicap
from ..actions import Action, Kind
from ..state import State
from .shared import (CONFIRM, DONE, END_TURN, GIVE_UP, KEEP_SHOWN, MUTA_FLAG, NO_DEFENCE, OVERRIDE, PASS,
                             REDRAW, TIED, TURN_UP)
from .textcards import (DIABOHNO_TYPES, JOKER_TYPES, NO_CHEMISTRY, PIZZAS, TXT_BOHNBASTICA, TXT_BOHNOTONI,
                        TXT_CALZBOHNE, TXT_CHEMIEKEULE, TXT_EXTRA_HARVEST, TXT_EXTRAKARTE, TXT_JOKER, TXT_MIGHTY,
                        TXT_MUTA, TXT_PIRATE, TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN, TXT_STRONG,
                        TXT_SWAP_FIELDS, TXT_SWAP_HANDS, TXT_VARIABLE, bohnbastica, bohnotoni, calzbohne, diabohno,
                        next_type)


# Legal-action tables (built once; actions are immutable): looking one up is cheaper than building it.
_K_PLAY, _K_ATTACK, _K_HARVEST, _K_MERGE, _K_MERGE_MUTA = (Kind.HT_PLAY, Kind.HT_ATTACK, Kind.HT_HARVEST,
                                                           Kind.HT_MERGE, Kind.HT_MERGE_MUTA)
_PLAY = [[Action(_K_PLAY, f, b) for b in range(MUTA_FLAG + NUM_TYPES)] for f in range(3)]  # [field][b]
_ATTACK = [[Action(_K_ATTACK, q, b) for b in range(9)] for q in range(8)]  # [target seat][3 own + target]
_HARVEST = [Action(_K_HARVEST, f) for f in range(3)]
_ADD = [Action(Kind.HT_ADD, t) for t in range(NUM_TYPES)]
_PLACE = [Action(Kind.HT_PLACE, f) for f in range(3)]
_MERGE = [[Action(_K_MERGE, i, j) for j in range(3)] for i in range(3)]
_MERGE_MUTA = [[Action(_K_MERGE_MUTA, i, j) for j in range(3)] for i in range(3)]
_NEXT_TYPE = [next_type(t) for t in range(NUM_TYPES)]
# Strength of a field (HT-11, CARD-4) as one int: size first, then the lower handicap value wins.
# ``size * _STRENGTH - handicap`` orders like the pair (size, -handicap), handicap values being < 32.
_STRENGTH = 32
_HANDICAP = [handicap(t) for t in range(NUM_TYPES)]
_NO_FIELD = -1000  # strength of a missing or empty field: weaker than any (even with TXT-7)
_UNBEATEN = 1 << 20  # strength given to an empty target field: no attack beats it
# strength by type and real beans (an empty field's type is -1: the last row, all _UNBEATEN)
_KEY_OF = [[n * _STRENGTH - _HANDICAP[t] for n in range(sum(DECKS["HT"].values()) + 2)] for t in range(NUM_TYPES)]
_KEY_OF.append([_UNBEATEN])
_IDX = [tuple(f for f in range(3) if mask >> f & 1) for mask in range(8)]  # bits -> positions
_TWO_OR_MORE = [len(positions) >= 2 for positions in _IDX]
_HARVESTS = [[_HARVEST[f] for f in positions] for positions in _IDX]
_SAME = [[row[g * 4] for g in range(3)] for row in _ATTACK]  # [target seat][position]: same-position attack
_OTHERS = [[[q for q in range(n) if q != p] for p in range(n)] for n in range(8)]  # other seats, increasing
# [target seat][position]: (target field index, position, same-position attack action)
_CANDIDATE = [[(q * 3 + g, g, _SAME[q][g]) for g in range(3)] for q in range(8)]


def _pairs(n: int, p: int, mask: int, banned: int) -> tuple:
    """The same-position attack candidates of seat ``p`` with own non-empty positions ``mask``: (target
    field, position, action) for every other seat not in the bit set ``banned``, seats increasing, then
    positions (the legal-action order)."""
    return tuple(_CANDIDATE[q][g] for q in range(n) if q != p and not banned >> q & 1
                 for g in range(3) if mask >> g & 1)


# [players][seat][own mask][banned seats (HT-13: the leader and who took over in the copying round)]
_PAIRS = [[[[_pairs(n, p, mask, banned) for banned in range(1 << n)] for mask in range(8)] for p in range(n)]
          for n in range(6)]


def _merges(ftype: list, base: int, idx, muta: bool, out: list) -> None:
    """Append the merges (HT-8; TXT-8 with the Mutabohne) among the own non-empty field positions
    ``idx`` of the seat whose fields start at ``base``, in legal-action order."""
    for i in idx:
        ti = ftype[base + i]
        for j in idx:
            if i != j:
                tj = ftype[base + j]
                if ti == tj:
                    out.append(_MERGE[i][j])
                elif muta and ti == _NEXT_TYPE[tj]:
                    out.append(_MERGE_MUTA[i][j])


class TakeoverLegal:
    """The legal-action generator and the composite option lists."""

    # -- legal actions ------------------------------------------------------------------------------
    def legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "turn":
            if s.acts >= self.max_actions:
                return [END_TURN]
            return self.turn_legal(s, p)
        if d == "copy":
            out = [PASS]
            if s.texts[p]:
                out += self.text_plays(s, p)
            if s.cp_quota > 0:
                kind = s.cp_kind
                if kind == "e":
                    out += self.attack_starts(s, p)
                elif kind == "a":
                    out += self.play_starts(s, p)
                else:
                    out += self.copy_starts(s, p)
            return out
        if d == "play":
            return self.play_options(s, p)
        if d == "place":
            piles = s.piles
            return [_PLACE[f] for f in range(s.nfields[p]) if not piles[p * 3 + f]]
        if d == "harvest":
            return self.harvest_options(s, p)
        if d == "attack":
            return self.attack_options(s, p)
        if d == "defend":
            return [Action(Kind.HT_DEFEND, c) for c in sorted(set(s.texts[p]))] + [NO_DEFENCE]
        if d == "override":
            return ([OVERRIDE] if TXT_STRONG in s.texts[p] else []) + [GIVE_UP]
        if d == "show":
            return [Action(Kind.HT_SHOW, t) for t in sorted(set(s.hands[p])) if t not in s.shown]
        if d == "seed_coin":
            return [Action(Kind.HT_COIN, t) for t in s.shown]
        if d == "seed_keep":
            return [REDRAW, KEEP_SHOWN]
        if d == "final":
            out = [Action(Kind.HT_FINAL, i - p * 3) for i in self.fields_of(s, p) if s.piles[i]]
            if not out:
                out = [DONE]
            if s.fin_open and TXT_PLAY_AT_END in s.texts[p]:
                out.append(Action(Kind.HT_TEXT, TXT_PLAY_AT_END))
            return out + self.text_plays(s, p)
        if d == "final_play":
            return self.play_starts(s, p) + [DONE]
        if d == "game_over":
            return []
        raise AssertionError(f"unknown decision point {d!r}")

    def turn_legal(self, s: State, p: int) -> list[Action]:
        """END_TURN, then what ``starts`` and ``text_plays`` give, in that order, from one pass over
        the own fields (the active player's decision, about a third of all decisions). Field sizes and
        top types come from ``s.fcount`` and ``s.ftype`` (``sync`` keeps them equal to the piles)."""
        out = [END_TURN]
        ftype, fcount, joker, key_of = s.ftype, s.fcount, s.joker, _KEY_OF
        hand, held = s.hands[p], s.texts[p]
        muta = TXT_MUTA in held if held else False
        base = p * 3
        # per own field: a) plays at once (they come first); the rest is kept for b) to e)
        keys = [_NO_FIELD, _NO_FIELD, _NO_FIELD]  # attack strength per own field position
        mask = 0             # non-empty own fields, as bits by position
        big = 0              # those with two or more beans (the Jokerbohne counting), as bits
        empty = False
        types = None
        for f in range(s.nfields[p]):
            i = base + f
            size = fcount[i]
            if size:
                t = ftype[i]
                if joker == i:
                    size += 1
                keys[f] = key_of[t][size]
                mask |= 1 << f
                if size >= 2:
                    big |= 1 << f
                if hand:
                    if t in hand:                  # hands are short: a scan beats a bisect call
                        out.append(_PLAY[f][t])
                    if muta:
                        nxt = _NEXT_TYPE[t]
                        if nxt >= 0 and nxt in hand:
                            out.append(_PLAY[f][nxt + MUTA_FLAG])
            else:
                empty = True
                if hand:
                    if types is None:
                        types = sorted(set(hand))
                    row = _PLAY[f]
                    for t in types:
                        out.append(row[t])
        # b) merge (HT-8, TXT-8): two fields of one type (an empty or missing field's type is EMPTY)
        if _TWO_OR_MORE[mask]:
            t0, t1, t2 = ftype[base], ftype[base + 1], ftype[base + 2]
            if muta or (t0 >= 0 and (t0 == t1 or t0 == t2)) or (t1 >= 0 and t1 == t2):
                _merges(ftype, base, _IDX[mask], muta, out)
        # c) turn up (HT-9)
        if empty and s.deck:
            out.append(TURN_UP)
        # d) harvest (COM-6): one-card fields only when no field has two or more
        if not s.harvested:
            out += _HARVESTS[big or mask]
        # e) takeover
        if mask:
            self.attacks_into(s, p, keys, mask, held, out, False)
        if held:
            out += self.text_plays(s, p)
        return out

    def starts(self, s: State, p: int) -> list[Action]:
        """Starts of the regular actions a-e for the active player (HT-4); ``turn_legal`` builds the same
        list in one pass (tests compare the two)."""
        out = self.play_starts(s, p)
        out += self.merge_starts(s, p)
        out += self.turn_up_starts(s, p)
        if not s.harvested:
            out += [_HARVEST[f] for f in self.harvestable(s, p)]
        out += self.attack_starts(s, p)
        return out

    def copy_starts(self, s: State, p: int) -> list[Action]:
        kind = s.cp_kind
        if kind == "a":
            return self.play_starts(s, p)
        if kind == "b":
            return self.merge_starts(s, p)
        if kind == "c":
            return self.turn_up_starts(s, p)
        if kind == "d":
            return [_HARVEST[f] for f in self.harvestable(s, p)]
        if kind == "e":
            return self.attack_starts(s, p)
        return []

    # a) play (HT-7, TXT-8)
    def play_starts(self, s: State, p: int) -> list[Action]:
        """HT_PLAY (field, first card's type; + MUTA_FLAG with Mutabohne) for every legal first card."""
        hand = s.hands[p]
        if not hand:
            return []
        muta = TXT_MUTA in s.texts[p]
        types = None
        out: list[Action] = []
        piles = s.piles
        base = p * 3
        for f in range(s.nfields[p]):
            pile = piles[base + f]
            row = _PLAY[f]
            if not pile:
                if types is None:
                    types = sorted(set(hand))  # the hand is sorted by type (HT-3)
                out += [row[t] for t in types]
                continue
            top = pile[-1]
            if top in hand:                      # hands are short: a scan beats a bisect call
                out.append(row[top])
            if muta:
                nxt = _NEXT_TYPE[top]
                if nxt >= 0 and nxt in hand:
                    out.append(row[nxt + MUTA_FLAG])
        return out

    def play_options(self, s: State, p: int) -> list[Action]:
        t = s.ctype
        return [_ADD[t], CONFIRM] if s.hands[p].count(t) > s.ccount else [CONFIRM]

    # b) merge (HT-8, TXT-8)
    def merge_starts(self, s: State, p: int) -> list[Action]:
        base = p * 3
        piles = s.piles
        idx = [f for f in range(s.nfields[p]) if piles[base + f]]
        if len(idx) < 2:
            return []
        muta = TXT_MUTA in s.texts[p]
        ftype = s.ftype
        if not muta and len({ftype[base + i] for i in idx}) == len(idx):
            return []                                  # no two fields of one type
        out: list[Action] = []
        _merges(ftype, base, idx, muta, out)
        return out

    # c) turn up (HT-9)
    def turn_up_starts(self, s: State, p: int) -> list[Action]:
        if s.deck:
            piles = s.piles
            for i in range(p * 3, p * 3 + s.nfields[p]):
                if not piles[i]:
                    return [TURN_UP]
        return []

    # d) harvest modifiers (HT-10, TXT-2, TXT-10..13)
    def harvest_options(self, s: State, p: int) -> list[Action]:
        held, i = s.texts[p], s.cf
        out = []
        meter = s.cchem_type if s.cchem_type >= 0 else s.ftype[i]
        final = s.ckind == "final"
        for code in PIZZAS:
            if code in held and code not in s.cmods and self.pizza_bonus(s, p, i, code, meter, final):
                out.append(Action(Kind.HT_MODIFY, code))
        if s.ckind == "d" and TXT_CHEMIEKEULE in held and s.cchem_type < 0:
            for j in self.fields_of(s, p):
                t = s.ftype[j]
                if j != i and s.piles[j] and t not in NO_CHEMISTRY and t != s.ftype[i]:
                    if TXT_BOHNOTONI in s.cmods and not bohnotoni(t, self.size(s, i), False):
                        continue
                    out.append(Action(Kind.HT_MODIFY, TXT_CHEMIEKEULE, j - p * 3))
        out.append(CONFIRM)
        return out

    def pizza_bonus(self, s: State, p: int, i: int, code: int, meter: int, final: bool) -> int:
        """The tier a pizza reaches for harvesting field ``i`` now (TXT-10..13); 0 = not met."""
        fields = self.fields_of(s, p)
        if code == TXT_BOHNBASTICA:
            return bohnbastica(sum(self.size(s, j) for j in fields))
        if code == TXT_BOHNOTONI:
            return bohnotoni(meter, self.size(s, i), final)
        if code == TXT_CALZBOHNE:
            return calzbohne([self.size(s, j) for j in fields], s.n == 2)
        count = 0
        for j in fields:
            count += sum(1 for c in s.piles[j] if c in DIABOHNO_TYPES)
            if s.joker == j and s.ftype[j] in DIABOHNO_TYPES:
                count += 1
        return diabohno(count)

    # e) takeover (HT-11, HT-13, HT-16, TXT-7, TXT-16, TXT-17)
    def targets(self, s: State, p: int) -> list[int]:
        if s.cp_leader >= 0:                               # inside a copying round (HT-13)
            banned = set(s.cp_took) | {s.cp_leader}
        else:
            banned = set()
        return [q for q in range(s.n) if q != p and q not in banned]

    def attack_ok(self, s: State, own: int, target: int, mods) -> bool:
        """Whether an attack with field ``own`` on field ``target`` using text cards ``mods`` is legal."""
        if not s.piles[own] or not s.piles[target]:
            return False
        protected = s.guard[target] != -1
        if protected:
            if TXT_STRONG not in mods or TXT_MIGHTY in mods or TXT_VARIABLE in mods:
                return False
        elif TXT_STRONG in mods:
            return False
        if own % 3 != target % 3 and TXT_VARIABLE not in mods:
            return False
        joker, piles = s.joker, s.piles
        size = len(piles[own]) + (1 if joker == own else 0) + (1 if TXT_MIGHTY in mods else 0)
        tsize = len(piles[target]) + (1 if joker == target else 0)
        return size * _STRENGTH - _HANDICAP[s.ftype[own]] > tsize * _STRENGTH - _HANDICAP[s.ftype[target]]

    def required_mods(self, s: State, own: int, target: int, held) -> tuple | None:
        """The text cards an attack of ``own`` on ``target`` cannot do without (TXT-7 for strength,
        TXT-16 for a protected target, TXT-17 for another position), or None if it is impossible."""
        ok = False                                      # attack_ok(need) known to hold
        if s.guard[target] != -1:
            need: tuple = (TXT_STRONG,)
        else:
            need = (TXT_VARIABLE,) if own % 3 != target % 3 else ()
            if self.attack_ok(s, own, target, need):
                ok = True
            else:
                need += (TXT_MIGHTY,)
        for c in need:
            if c not in held:
                return None
        if not ok and not self.attack_ok(s, own, target, need):
            return None
        return need

    def attack_starts(self, s: State, p: int, first: bool = False) -> list[Action]:
        """Every (own field, target field) with a legal completion (same test as ``required_mods``,
        with each field's strength as one int, see ``_STRENGTH``); only the first one if ``first``."""
        keys, mask = TakeoverLegal.own_strengths(s, p)
        out: list[Action] = []
        if mask:
            self.attacks_into(s, p, keys, mask, s.texts[p], out, first)
        return out

    @staticmethod
    def attack_possible(s: State, p: int) -> bool:
        """Whether seat ``p`` has any attack start (``attack_starts(s, p, first=True)`` as a bool)."""
        keys, mask = TakeoverLegal.own_strengths(s, p)
        return mask != 0 and TakeoverLegal.attacks_into(s, p, keys, mask, s.texts[p], [], True)

    @staticmethod
    def own_strengths(s: State, p: int) -> tuple[list[int], int]:
        """Seat ``p``'s field strengths by field position (``_STRENGTH`` keys, ``_NO_FIELD`` if empty or
        not owned) and the non-empty positions as bits."""
        fcount, ftype, joker, key_of = s.fcount, s.ftype, s.joker, _KEY_OF
        base = p * 3
        keys = [_NO_FIELD, _NO_FIELD, _NO_FIELD]
        mask = 0
        for f in range(s.nfields[p]):
            i = base + f
            size = fcount[i]
            if size:
                if joker == i:
                    size += 1
                keys[f] = key_of[ftype[i]][size]
                mask |= 1 << f
        return keys, mask

    @staticmethod
    def attacks_into(s: State, p: int, keys: list[int], mask: int, held: list[int], out: list[Action],
                     first: bool) -> bool:
        """Append the attack starts of seat ``p`` to ``out`` (``keys``: own strengths by field position,
        ``mask``: the non-empty own positions as bits); with ``first`` stop at the first one. Returns
        whether there is any. Reads field sizes from ``s.fcount`` (kept equal to the piles' lengths by
        ``sync``)."""
        if held:
            h16, h17 = TXT_STRONG in held, TXT_VARIABLE in held
            bonus = _STRENGTH if TXT_MIGHTY in held else 0  # TXT-7: one bean more
        else:
            h16 = h17 = False
            bonus = 0
        leader = s.cp_leader                            # >= 0 inside a copying round (HT-13)
        joker, ftype, fcount, guard = s.joker, s.ftype, s.fcount, s.guard
        key_of = _KEY_OF
        found = False
        if not h17:                                     # the same position only (TXT-17 allows any)
            if leader < 0:
                pairs = _PAIRS[s.n][p][mask][0]
            else:
                banned = 1 << leader
                for q in s.cp_took:
                    banned |= 1 << q
                pairs = _PAIRS[s.n][p][mask][banned]
            # a target is beaten when its strength is below the own field's (TXT-7 counting); an empty
            # or missing field's strength is _UNBEATEN
            thr = [keys[0] + bonus, keys[1] + bonus, keys[2] + bonus] if bonus else keys
            for j, g, act in pairs:
                tkey = key_of[ftype[j]][fcount[j]]
                if j == joker:
                    tkey += _STRENGTH
                if tkey < thr[g] and (guard[j] == -1 or (h16 and keys[g] > tkey)):  # HT-12, TXT-16
                    out.append(act)
                    if first:
                        return True
                    found = True
            return found
        piles, nfields, took = s.piles, s.nfields, s.cp_took
        idx = _IDX[mask]
        for q in _OTHERS[s.n][p]:
            if leader >= 0 and (q == leader or q in took):
                continue
            row = _ATTACK[q]
            qbase = q * 3
            for g in range(nfields[q]):
                j = qbase + g
                pile = piles[j]
                if not pile:
                    continue
                size = len(pile)
                if joker == j:
                    size += 1
                tkey = size * _STRENGTH - _HANDICAP[ftype[j]]
                if guard[j] != -1:                      # protected: same position, no TXT-17
                    if h16 and keys[g] > tkey:
                        out.append(row[g * 4])
                        if first:
                            return True
                        found = True
                else:
                    for f in idx:
                        if keys[f] + bonus > tkey:
                            out.append(row[f * 3 + g])
                            if first:
                                return True
                            found = True
        return found

    def attack_options(self, s: State, p: int) -> list[Action]:
        """Optional TXT-7/TXT-17 (undefendable) for an unprotected target, and confirm."""
        held, j = s.texts[p], s.ctarget
        out = []
        if s.guard[j] == -1:
            for c in (TXT_MIGHTY, TXT_VARIABLE):
                if c in held and c not in s.cmods:
                    out.append(Action(Kind.HT_MODIFY, c))
        out.append(CONFIRM)
        return out

    # text cards played on their own (TXT-1, 3, 5, 6, 9, 14, 15, 18)
    def text_plays(self, s: State, p: int) -> list[Action]:
        held = s.texts[p]
        if not held:
            return []
        out = []
        final = bool(s.final)
        for code in sorted(set(held)):
            if code in TIED or code == TXT_PLAY_AT_END:
                continue
            if code == TXT_SWAP_FIELDS:
                for q in range(s.n):
                    nf = s.nfields[q]
                    for f1 in range(nf):
                        for f2 in range(f1 + 1, nf):
                            if s.piles[q * 3 + f1] or s.piles[q * 3 + f2]:
                                out.append(Action(Kind.HT_TEXT, code, q * 9 + f1 * 3 + f2))
            elif code == TXT_EXTRAKARTE:
                if s.discard:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_SWAP_HANDS:
                if 1 <= len(s.hands[p]) <= 5:
                    out.extend(Action(Kind.HT_TEXT, code, q) for q in range(s.n) if q != p)
            elif code == TXT_JOKER:
                out.extend(Action(Kind.HT_TEXT, code, i - p * 3) for i in self.fields_of(s, p)
                           if s.piles[i] and s.ftype[i] in JOKER_TYPES)
            elif code == TXT_PIRATE:
                for i in self.fields_of(s, p):
                    if s.piles[i] and self.pirate_victims(s, p, i):
                        out.append(Action(Kind.HT_TEXT, code, i - p * 3))
            elif code == TXT_SAMENHANDEL:
                if len(set(s.hands[p])) >= 5:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_SEVEN:
                if not final and p != s.active:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_EXTRA_HARVEST:
                if not final:
                    out.extend(Action(Kind.HT_TEXT, code, i - p * 3) for i in self.fields_of(s, p)
                               if s.piles[i])
        return out

    def pirate_victims(self, s: State, p: int, i: int) -> list[int]:
        """Seats, clockwise from ``p``'s left, whose field in ``i``'s position grows ``i``'s type (TXT-9)."""
        f, t = i % 3, s.ftype[i]
        out = []
        for k in range(1, s.n):
            q = (p + k) % s.n
            j = q * 3 + f
            if f < s.nfields[q] and s.piles[j] and s.ftype[j] == t:
                out.append(q)
        return out
