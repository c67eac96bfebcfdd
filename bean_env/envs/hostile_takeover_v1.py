"""PettingZoo AEC env of `hostile_takeover` (Telebohn, HT-* and TXT-*), 2-5 players.

``env(num_players=4, max_actions_per_turn=200, max_turns=400, reward_mode="win", auto_forced=True, ...)``.
Every decision is an agent step of the player who makes it: the active player's actions, the passive
players' copy prompts (HT-13), defence prompts (HT-16), and everybody's final-harvest decisions (HT-19).
Reaching ``max_turns`` truncates the episode (HT-17). Scores are integer hundredths (HT-14), so
``reward_mode="score"`` pays hundredths. Options and spaces: ``bean_env.envs.aec``; the observation
blocks below are documented in ``docs/envs.md`` ("Hostile takeover").
"""
from __future__ import annotations

from ..engine.takeover.textcards import NUM_TEXTS
from .aec import BeanAECEnv, make_env_fn
from .observation import Block, Context, mark_seats, put, register_observation, rel

DECISIONS = ("turn", "copy", "play", "place", "harvest", "attack", "defend", "override", "show", "seed_coin",
             "seed_keep", "final", "final_play", "game_over")
COPY_KINDS = ("a", "b", "c", "d", "e")
HARVEST_KINDS = ("d", "t18", "final")


RUNS = 3  # runs of equal types shown per field, from the top (a pile mutates rarely more than twice)


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
            counts: dict[int, int] = {}
            for c in pile:
                counts[c] = counts.get(c, 0) + 1
            for c, m in counts.items():
                put(ix, vx, at + 3 + RUNS * (t + 1) + tslot[c], m)


def _w_texts(ctx, s, me, base, ix, vx):
    """Text cards held per seat offset; my text cards; the text discard pile; the text deck size; the
    defence cards I laid that still lie on fields; bonus coins per seat offset."""
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
        put(ix, vx, at + k, s.bonus[(me + k) % n])


def _w_turn(ctx, s, me, base, ix, vx):
    """d) used this turn, first turn, actions left in the turn budget, final harvest running, TXT-4 still
    possible (opening), copy round: one-hot kind a-e, copies left, leader offset, seats still to be asked,
    seats that carried out a takeover; final harvest: seats still to harvest."""
    n = s.n
    rules = ctx.rules
    put(ix, vx, base, s.harvested)
    put(ix, vx, base + 1, s.turn == 0)
    put(ix, vx, base + 2, max(rules.max_actions - s.acts, 0))
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


def _w_composite(ctx, s, me, base, ix, vx):
    """The composite being built (public): owner offset, chosen field (seat offset x field), type, cards
    added, Mutabohne used, committed text cards, target field, harvest kind, borrowed meter, shown types."""
    n, t, tslot, T = s.n, ctx.t, ctx.tslot, NUM_TEXTS
    if s.decision not in ("play", "harvest", "attack", "defend", "override", "show", "seed_coin", "seed_keep"):
        return
    ix.append(base + rel(s, me, s.owner))
    vx.append(1.0)
    at = base + n
    if s.cf >= 0 and s.decision in ("play", "harvest", "attack", "defend", "override"):
        ix.append(at + rel(s, me, s.cf // 3) * 3 + s.cf % 3)
        vx.append(1.0)
    at += 3 * n
    if s.decision == "play" and s.ctype >= 0:
        ix.append(at + tslot[s.ctype])
        vx.append(1.0)
    at += t
    if s.decision == "play":
        put(ix, vx, at, s.ccount)
        put(ix, vx, at + 1, s.cmuta)
    at += 2
    for c in s.cmods:
        ix.append(at + c)
        vx.append(1.0)
    at += T
    if s.decision in ("attack", "defend", "override") and s.ctarget >= 0:
        ix.append(at + rel(s, me, s.ctarget // 3) * 3 + s.ctarget % 3)
        vx.append(1.0)
    at += 3 * n
    if s.decision == "harvest":
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
    n, t, cards, T = ctx.n, ctx.t, float(ctx.cards), NUM_TEXTS
    budget = float(max(ctx.rules.max_actions, cards))
    return [
        Block("ht_fields", n * 3 * (3 + RUNS * (t + 1) + t), cards,
              "per seat offset, per field 1..3: size (real beans + Jokerbohne), Jokerbohne flag, protected "
              "flag; the pile's first 3 runs of equal types from the top (one-hot type slot, run length: "
              "the order of a Mutabohne pile); counts of real beans per type slot", _w_fields),
        Block("ht_texts", n + 3 * T + 1 + n, cards,
              "text cards held per seat offset; my text cards (one slot per TXT-1..18); text discard pile "
              "(per card); text deck size; defence cards I laid that still protect a field; bonus coins "
              "(beyond harvested cards, TXT-10..13) per seat offset", _w_texts),
        Block("ht_turn", 5 + 5 + 1 + 4 * n, budget,
              "d) used this turn, first turn of the game, actions left in the turn budget (HT-17), final "
              "harvest running, TXT-4 opening; copying round: one-hot action kind a-e, copies left (quota), "
              "leader offset, offsets still to be asked, offsets that carried out a takeover; offsets still "
              "to do their final harvest", _w_turn),
        Block("ht_composite", n + 3 * n + t + 2 + T + 3 * n + 3 + t + t, cards,
              "composite being built: owner offset, chosen field (seat offset x field), chosen type, cards "
              "added, Mutabohne used, committed text cards, target field (seat offset x field), harvest kind "
              "(d / TXT-18 / final), borrowed beanometer type (TXT-2), types shown for TXT-14", _w_composite),
    ]


register_observation("hostile_takeover", DECISIONS, takeover_blocks)


class raw_env(BeanAECEnv):
    """The raw AEC env of `hostile_takeover` (no wrappers)."""

    variant = "hostile_takeover"
    metadata = dict(BeanAECEnv.metadata, name="hostile_takeover_v1")
    score_scale = 100  # HT-14: the engine scores in hundredths of a coin (10 per unused text card)


env = make_env_fn(raw_env)
