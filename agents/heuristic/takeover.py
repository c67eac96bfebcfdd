"""Heuristic knowledge for `hostile_takeover` (HT-*, TXT-*): a rule-based turn plan from the view.

Terms: *fit* of a type = hand cards of it the seat can still play onto a field of that type; a field's
*worth* is ``evaluate.field_value`` (coins now plus the discounted next beanometer step).

- Turn (``turn``), in this order, each rule only while legal: simple text cards (Jokerbohne on the
  biggest eligible field, Piratenangriff, Samenhandel, Extrakarte when the top discard fits a field);
  plays of hand cards onto fields of their type; merges; a turn-up onto an empty field; a play of the
  most frequent hand type onto an empty field; one takeover per turn when the swapped fields gain more
  than ``ATTACK_GAIN`` (modifier cards only where needed); the turn's harvest of the best field worth
  ``HARVEST_MIN`` coins or more (1 when hand cards found no place), with every pizza and a better
  Chemiekeule meter; end turn.
- Copy prompts (``copy``): copy plays, merges, turn-ups and good harvests/takeovers by the same rules;
  otherwise pass.
- Defence (``defend``): defend with the least useful text card when the swap would cost the seat more
  than ``DEFEND_LOSS``; play Starke Uebernahme after a defence whenever the attack was planned.
- Final harvest: TXT-4 when a hand card fits; pizzas on the first harvest (counts are highest then);
  fields largest first.
Anything not covered falls back to the generic one-ply lookahead.
"""
from __future__ import annotations

from collections import Counter

from bean_env.engine.actions import Action, Kind
from bean_env.engine.takeover.textcards import (PIZZAS, TXT_BOHNOTONI, TXT_CHEMIEKEULE, TXT_EXTRAKARTE, TXT_JOKER,
                                       TXT_MIGHTY, TXT_PIRATE, TXT_PLAY_AT_END, TXT_SAMENHANDEL,
                                       TXT_VARIABLE, meter_value)

from .core import Family
from .evaluate import field_value

ATTACK_GAIN = 0.6    # attack when the swap raises our field worth (with hand fit) by more than this
DEFEND_LOSS = 0.4    # defend when the swap would lower ours by more than this
HARVEST_MIN = 2      # harvest a field as the turn's d) when it pays at least this many coins
FIT = 0.35           # worth of one hand card that fits a field
# Text cards from least to most useful, for choosing a defence card.
DEFENCE_ORDER = (3, 2, 4, 0, 14, 17, 12, 11, 9, 1, 8, 5, 13, 6, 16, 10, 7, 15)

CONFIRM = Action(Kind.HT_CONFIRM)
END_TURN = Action(Kind.HT_END_TURN)
PASS = Action(Kind.PASS)
DONE = Action(Kind.DONE)


def _by_kind(legal, kind) -> list[Action]:
    return [a for a in legal if a.kind == kind]


class TakeoverFamily(Family):
    continuation = 2

    def extra_value(self, s, p: int) -> float:
        """Bonus coins (beyond harvested cards), text cards as options, the Jokerbohne's extra card."""
        value = s.bonus[p] + 0.4 * len(s.texts[p])
        j = s.joker
        if j >= 0 and j // 3 == p and s.fcount[j]:
            value += field_value(s.ftype[j], s.fcount[j] + 1) - field_value(s.ftype[j], s.fcount[j])
        return value

    # -- helpers --------------------------------------------------------------------------------------
    @staticmethod
    def _size(s, i: int) -> int:
        return s.fcount[i] + (1 if s.joker == i else 0)

    def _worth(self, s, i: int, hand: Counter) -> float:
        if not s.fcount[i]:
            return 0.0
        t = s.ftype[i]
        return field_value(t, self._size(s, i)) + FIT * hand.get(t, 0)

    def _attack_gain(self, s, p: int, action: Action) -> float:
        own = p * 3 + action.b // 3
        target = action.a * 3 + action.b % 3
        hand = Counter(c for c in s.hands[p] if c >= 0)
        return self._worth(s, target, hand) - self._worth(s, own, hand)

    def _best_attack(self, s, p: int, legal):
        best, gain = None, ATTACK_GAIN
        for a in _by_kind(legal, Kind.HT_ATTACK):
            g = self._attack_gain(s, p, a)
            if g > gain:
                best, gain = a, g
        return best

    def _play_plan(self, s, p: int, legal):
        """(field, type, count) of the best play: a fitting field first, else the largest hand type
        onto an empty field; None when nothing sensible."""
        hand = Counter(c for c in s.hands[p] if c >= 0)
        fields = {a.a for a in _by_kind(legal, Kind.HT_PLAY)}
        best = None
        for f in sorted(fields):
            i = p * 3 + f
            t = s.ftype[i] if s.fcount[i] else -1
            if t >= 0 and hand.get(t):
                key = (2, hand[t], self._size(s, i))
                if best is None or key > best[0]:
                    best = (key, f, t, hand[t])
        if best is None:
            empty = [f for f in sorted(fields) if not s.fcount[p * 3 + f]]
            if empty and hand:
                t, k = max(hand.items(), key=lambda kv: (kv[1], field_value(kv[0], kv[1])))
                growing = [s.ftype[i] for i in range(p * 3, p * 3 + s.nfields[p]) if s.fcount[i]]
                if t not in growing:
                    best = ((1,), empty[0], t, k)
        return None if best is None else best[1:]

    def _harvest_choice(self, s, p: int, legal, least: int = HARVEST_MIN):
        best, coins = None, least - 0.5
        for a in legal:
            if a.kind == Kind.HT_HARVEST:
                i = p * 3 + a.a
                c = meter_value(s.ftype[i], self._size(s, i), False)
                value = c[0] + 0.5 * c[1]
                if value > coins:
                    best, coins = a, value
        return best

    # -- decisions ----------------------------------------------------------------------------------
    def choose(self, agent, view, legal):
        s, p, d = view.state, view.player, view.decision
        mem = agent.memory
        if d == "turn":
            return self._turn(agent, s, p, legal)
        if d == "copy":
            return self._copy(agent, s, p, legal)
        if d == "play":
            plan = mem.get("play")
            adds = _by_kind(legal, Kind.HT_ADD)
            if adds and (plan is None or s.ccount < plan[1]):
                return adds[0]
            return CONFIRM
        if d == "place":
            return legal[0]
        if d == "harvest":
            return self._harvest_mods(s, p, legal)
        if d == "attack":
            # make the attempt undefendable when the target could defend (TXT-7 / TXT-17)
            mods = _by_kind(legal, Kind.HT_MODIFY)
            undefendable = any(c in s.cmods for c in (TXT_MIGHTY, TXT_VARIABLE))
            if mods and not undefendable and s.texts[s.ctarget // 3]:
                return mods[0]
            return CONFIRM
        if d == "defend":
            return self._defend(s, p, legal)
        if d == "override":
            over = _by_kind(legal, Kind.HT_OVERRIDE)
            return over[0] if over else legal[-1]
        if d == "show":
            hand = Counter(c for c in s.hands[p] if c >= 0)
            growing = {s.ftype[i] for i in range(p * 3, p * 3 + s.nfields[p]) if s.fcount[i]}
            return min(_by_kind(legal, Kind.HT_SHOW), key=lambda a: (a.a in growing, hand[a.a]))
        if d == "seed_coin":
            return legal[0]
        if d == "seed_keep":
            growing = {s.ftype[i] for i in range(p * 3, p * 3 + s.nfields[p]) if s.fcount[i]}
            return legal[1] if any(t in growing for t in s.shown) else legal[0]
        if d == "final":
            return self._final(s, p, legal)
        if d == "final_play":
            plan = self._play_plan(s, p, legal)
            if plan:
                agent.memory["play"] = (plan[1], plan[2])
                return Action(Kind.HT_PLAY, plan[0], plan[1])
            return DONE
        return None

    def _text_play(self, s, p: int, legal):
        texts = _by_kind(legal, Kind.HT_TEXT)
        if not texts:
            return None
        by = {}
        for a in texts:
            by.setdefault(a.a, []).append(a)
        if TXT_JOKER in by:
            return max(by[TXT_JOKER], key=lambda a: self._size(s, p * 3 + a.b))
        if TXT_PIRATE in by:
            return by[TXT_PIRATE][0]
        if TXT_SAMENHANDEL in by:
            return by[TXT_SAMENHANDEL][0]
        if TXT_EXTRAKARTE in by and s.discard:
            top = s.discard[-1]
            if any(s.fcount[i] and s.ftype[i] == top for i in range(p * 3, p * 3 + s.nfields[p])):
                return by[TXT_EXTRAKARTE][0]
        return None

    def _turn(self, agent, s, p: int, legal):
        mem = agent.memory
        if mem.get("turn") != (s.turn, p):
            mem.clear()
            mem["turn"] = (s.turn, p)
        if len(legal) == 1:
            return legal[0]
        act = self._text_play(s, p, legal)
        if act:
            return act
        plan = self._play_plan(s, p, legal)
        if plan and plan[2] and s.fcount[p * 3 + plan[0]]:
            mem["play"] = (plan[1], plan[2])
            return Action(Kind.HT_PLAY, plan[0], plan[1])
        merges = _by_kind(legal, Kind.HT_MERGE)
        if merges:
            return merges[0]
        if Action(Kind.HT_TURN_UP) in legal:
            return Action(Kind.HT_TURN_UP)
        if plan:
            mem["play"] = (plan[1], plan[2])
            return Action(Kind.HT_PLAY, plan[0], plan[1])
        if not mem.get("attacked"):
            attack = self._best_attack(s, p, legal)
            if attack:
                mem["attacked"] = True
                return attack
        harvest = self._harvest_choice(s, p, legal)
        if harvest is None and any(c >= 0 for c in s.hands[p]):
            harvest = self._harvest_choice(s, p, legal, least=1)   # stuck hand: make room
            if harvest is None:
                # nothing fits and nothing pays: clear the best field anyway, or every seat may end
                # its turns forever (all-heuristic tables stalled until max_turns)
                harvest = self._harvest_choice(s, p, legal, least=-1)
        if harvest:
            return harvest
        return END_TURN

    def _copy(self, agent, s, p: int, legal):
        act = self._text_play(s, p, legal)
        if act:
            return act
        kind = s.cp_kind
        if kind == "a":
            plan = self._play_plan(s, p, legal)
            if plan:
                agent.memory["play"] = (plan[1], plan[2])
                return Action(Kind.HT_PLAY, plan[0], plan[1])
        elif kind == "b":
            merges = _by_kind(legal, Kind.HT_MERGE)
            if merges:
                return merges[0]
        elif kind == "c" and Action(Kind.HT_TURN_UP) in legal:
            return Action(Kind.HT_TURN_UP)
        elif kind == "d":
            harvest = self._harvest_choice(s, p, legal)
            if harvest:
                return harvest
        elif kind == "e":
            attack = self._best_attack(s, p, legal)
            if attack:
                return attack
        return PASS

    def _harvest_mods(self, s, p: int, legal):
        mods = _by_kind(legal, Kind.HT_MODIFY)
        for a in mods:
            if a.a in PIZZAS and a.a != TXT_BOHNOTONI:
                return a
        for a in mods:
            if a.a == TXT_BOHNOTONI:
                return a
        final = s.ckind == "final"
        i = s.cf
        size = self._size(s, i)
        own = meter_value(s.ftype[i], size, final)
        for a in mods:
            if a.a == TXT_CHEMIEKEULE:
                other = meter_value(s.ftype[p * 3 + a.b], size, final)
                if other[0] + 0.5 * other[1] > own[0] + 0.5 * own[1] + 0.5:
                    return a
        return CONFIRM

    def _defend(self, s, p: int, legal):
        attacker = s.owner
        mine, theirs = s.ctarget, s.cf
        hand = Counter(c for c in s.hands[p] if c >= 0)
        loss = self._worth(s, mine, hand) - self._worth(s, theirs, hand)
        defends = _by_kind(legal, Kind.HT_DEFEND)
        if defends and loss > DEFEND_LOSS and attacker >= 0:
            return min(defends, key=lambda a: DEFENCE_ORDER.index(a.a))
        return Action(Kind.HT_NO_DEFENCE)

    def _final(self, s, p: int, legal):
        texts = _by_kind(legal, Kind.HT_TEXT)
        for a in texts:
            if a.a == TXT_PLAY_AT_END and any(c >= 0 for c in s.hands[p]):
                return a
        harvests = _by_kind(legal, Kind.HT_FINAL)
        if harvests:
            return max(harvests, key=lambda a: self._size(s, p * 3 + a.a))
        return DONE if DONE in legal else legal[0]
