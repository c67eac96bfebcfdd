"""Blocks of `hostile_takeover` (Telebohn, HT-* and TXT-*): mixed fields, text cards, the turn's
budgets and copying round, the composite action being built."""
from __future__ import annotations

from ...engine.takeover.textcards import NUM_TEXTS
from .common import FIELD_CAP, HAND_CAP
from .core import Block, Context, mark_seats, put, rel

DECISIONS = ("turn", "copy", "play", "place", "harvest", "attack", "defend", "override", "show", "seed_coin",
             "seed_keep", "final", "final_play", "game_over")
COPY_KINDS = ("a", "b", "c", "d", "e")
HARVEST_KINDS = ("d", "t18", "final")
RUNS = 3        # runs of equal types shown per field, from the top (a pile mutates rarely more than twice)
TEXT_CAP = 8    # text cards held by one seat
BONUS_CAP = 10  # bonus coins of one seat


def _w_fields(ctx, s, me, base, ix, vx):
    """Per seat offset, per field: size (with the Jokerbohne), Jokerbohne, protected; the pile's runs of
    equal types from the top (type slot one-hot, length); counts of real beans per type slot."""
    t, tslot = ctx.t, ctx.tslot
    width = 3 + RUNS * (t + 1) + t
    for k in range(s.n):
        q = (me + k) % s.n
        for f in range(s.nfields[q]):
            i = q * 3 + f
            at = base + (k * 3 + f) * width
            pile = s.piles[i]
            joker = s.joker == i
            put(ix, vx, at, len(pile) + joker)
            put(ix, vx, at + 1, joker)
            put(ix, vx, at + 2, s.guard[i] != -1)
            run, top = 0, len(pile) - 1
            while top >= 0 and run < RUNS:
                c, length = pile[top], 0
                while top >= 0 and pile[top] == c:
                    length += 1
                    top -= 1
                r = at + 3 + run * (t + 1)
                ix.append(r + tslot[c])
                vx.append(1.0)
                ix.append(r + t)
                vx.append(float(length))
                run += 1
            per = {}  # card -> copies in the pile
            for c in pile:
                per[c] = per.get(c, 0) + 1
            for c, m in per.items():
                put(ix, vx, at + 3 + RUNS * (t + 1) + tslot[c], m)


def _w_texts(ctx, s, me, base, ix, vx):
    n, T = s.n, NUM_TEXTS
    for k in range(n):
        put(ix, vx, base + k, len(s.texts[(me + k) % n]))
    at = base + n
    for c in s.texts[me]:
        ix.append(at + c)
        vx.append(1.0)
    at += T
    for c in s.tdiscard:
        ix.append(at + c)
        vx.append(1.0)
    at += T
    put(ix, vx, at, len(s.tdeck))
    at += 1
    for f in range(3):
        g = s.guard[me * 3 + f]
        if g >= 0:
            ix.append(at + g)
            vx.append(1.0)
    at += T
    for k in range(n):
        put(ix, vx, at + k, max(s.bonus[(me + k) % n], 0))


def _w_turn(ctx, s, me, base, ix, vx):
    n = s.n
    put(ix, vx, base, s.harvested)
    put(ix, vx, base + 1, s.turn == 0)
    put(ix, vx, base + 2, max(ctx.rules.max_actions - s.acts, 0))
    put(ix, vx, base + 3, s.final)
    put(ix, vx, base + 4, s.fin_open and s.final)
    at = base + 5
    if s.cp_kind:
        ix.append(at + COPY_KINDS.index(s.cp_kind))
        vx.append(1.0)
    at += 5
    put(ix, vx, at, s.cp_quota)
    at += 1
    if s.cp_leader >= 0:
        mark_seats(s, me, (s.cp_leader,), at, ix, vx)
    at += n
    mark_seats(s, me, s.cp_queue, at, ix, vx)
    at += n
    mark_seats(s, me, s.cp_took, at, ix, vx)
    at += n
    mark_seats(s, me, s.fin_order, at, ix, vx)


# decision points at which a composite action is being built (the ht_composite block is empty elsewhere)
COMPOSING = ("play", "harvest", "attack", "defend", "override", "show", "seed_coin", "seed_keep")


def composing(s) -> bool:
    """A composite action is being built: the only states the ``ht_composite`` block writes anything for."""
    return s.decision in COMPOSING


def _w_composite(ctx, s, me, base, ix, vx):
    n, t, tslot, T = s.n, ctx.t, ctx.tslot, NUM_TEXTS
    d = s.decision
    if not composing(s):
        return
    ix.append(base + rel(s, me, s.owner))
    vx.append(1.0)
    at = base + n
    if s.cf >= 0 and d in ("play", "harvest", "attack", "defend", "override"):
        ix.append(at + rel(s, me, s.cf // 3) * 3 + s.cf % 3)
        vx.append(1.0)
    at += 3 * n
    if d == "play" and s.ctype >= 0:
        ix.append(at + tslot[s.ctype])
        vx.append(1.0)
    at += t
    if d == "play":
        put(ix, vx, at, s.ccount)
        put(ix, vx, at + 1, s.cmuta)
    at += 2
    for c in s.cmods:
        ix.append(at + c)
        vx.append(1.0)
    at += T
    if d in ("attack", "defend", "override") and s.ctarget >= 0:
        ix.append(at + rel(s, me, s.ctarget // 3) * 3 + s.ctarget % 3)
        vx.append(1.0)
    at += 3 * n
    if d == "harvest":
        ix.append(at + HARVEST_KINDS.index(s.ckind))
        vx.append(1.0)
        if s.cchem_type >= 0:
            ix.append(at + 3 + tslot[s.cchem_type])
            vx.append(1.0)
    at += 3 + t
    for c in s.shown:
        ix.append(at + tslot[c])
        vx.append(1.0)


def takeover_blocks(ctx: Context) -> list[Block]:
    n, t, T, comp = ctx.n, ctx.t, NUM_TEXTS, ctx.comp
    fc = float(FIELD_CAP)
    field = [fc, 1.0, 1.0] + ([1.0] * t + [fc]) * RUNS + comp
    budget = float(max(ctx.rules.max_actions, 1))
    return [
        Block("ht_fields", n * 3 * len(field), field * (3 * n),
              f"per seat offset, per field 1..3: size (real beans + Jokerbohne, / {FIELD_CAP}, capped), "
              f"Jokerbohne flag, protected flag; the pile's first {RUNS} runs of equal types from the top "
              f"(one-hot type slot, run length / {FIELD_CAP}: the order of a Mutabohne pile); counts of real "
              "beans per type slot (/ cards of the type)", _w_fields, clip=True),
        Block("ht_texts", n + 3 * T + 1 + n, [float(TEXT_CAP)] * n + [1.0] * (2 * T) + [float(T)] + [1.0] * T
              + [float(BONUS_CAP)] * n,
              f"text cards held per seat offset (/ {TEXT_CAP}, capped); my text cards (one slot per "
              f"TXT-1..18); text discard pile (per card); text deck size (/ {T}); defence cards I laid that "
              f"still protect a field; bonus coins (beyond harvested cards, TXT-10..13) per seat offset "
              f"(/ {BONUS_CAP}, capped)", _w_texts, clip=True),
        Block("ht_turn", 5 + 5 + 1 + 4 * n, [1.0, 1.0, budget, 1.0, 1.0] + [1.0] * 5 + [float(max(n - 1, 1))]
              + [1.0] * (4 * n),
              f"d) used this turn, first turn of the game, actions left in the turn budget (HT-17, / {int(budget)}), "
              "final harvest running, TXT-4 opening; copying round: one-hot action kind a-e, copies left "
              f"(quota, / {max(n - 1, 1)}), leader offset, offsets still to be asked, offsets that carried out "
              "a takeover; offsets still to do their final harvest", _w_turn),
        Block("ht_composite", n + 3 * n + t + 2 + T + 3 * n + 3 + t + t,
              [1.0] * (4 * n + t) + [float(HAND_CAP), 1.0] + [1.0] * (T + 3 * n + 3 + 2 * t),
              "composite being built: owner offset, chosen field (seat offset x field), chosen type, cards "
              f"added (/ {HAND_CAP}, capped), Mutabohne used, committed text cards, target field (seat offset "
              "x field), harvest kind (d / TXT-18 / final), borrowed beanometer type (TXT-2), types shown for "
              "TXT-14", _w_composite, clip=True),
    ]
