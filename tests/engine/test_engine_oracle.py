"""An independent reading of the rules, checked against the engine's legal actions at every decision
point of random games: planting (COM-3, COM-4), harvesting (COM-6), buying (COM-8, BASE-2, DUEL-2),
where free actions are offered (BASE-9, DUEL-2) and who may accept an offer (TRADE-4).

The oracle is written from the rules text, not from the engine's code, so a mistake in either shows up
as a difference."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bean_env import Kind, new_game

# BASE-2 / DUEL-2: (3rd field cost or None when it cannot be bought)
COST = {("german", 3): 3, ("german", 4): 3, ("german", 5): 3, ("english", 3): None,
        ("english", 4): 3, ("english", 5): 3, ("english", 6): 2, ("english", 7): 2}

# BASE-9 / TRADE-3: the top-level decision points where harvest and buy are offered
TOP_LEVEL = {"bohnanza": {"plant", "plant_optional", "plant_traded", "harvest_window", "offer", "respond",
                          "pick"},
             "bean_duel": {"leftovers", "plant", "plant_optional", "discard_hand", "turn_up", "plant_face_up"}}


def _fields(s, p):
    return [(s.ftype[p * 3 + f], s.fcount[p * 3 + f]) for f in range(s.nfields[p])]


def expected_harvests(s, p) -> set[int]:
    """COM-6: a field with 2+ cards; a one-card field only if no field holds 2+; never an empty one."""
    fields = _fields(s, p)
    big = any(c >= 2 for _, c in fields)
    return {f for f, (_, c) in enumerate(fields) if c >= 2 or (c == 1 and not big)}


def expected_buy(game, p) -> bool:
    """COM-8 with BASE-2 / DUEL-2: 2 fields and at least the cost in coins."""
    s = game.state
    if game.variant == "bean_duel":
        cost = 3
    else:
        cost = COST[(s.config["edition"], s.n)]
    return cost is not None and s.nfields[p] == 2 and len(s.coins[p]) >= cost


def expected_fields_for(s, p, bean, duplicates: bool) -> set[int]:
    """COM-3: a field of that type, or an empty one unless duplicates are barred and the type grows."""
    fields = _fields(s, p)
    same = {f for f, (t, c) in enumerate(fields) if c and t == bean}
    empty = {f for f, (_, c) in enumerate(fields) if c == 0}
    return same if (same and not duplicates) else same | empty


def check_point(game) -> None:
    s, p, d = game.state, game.current_player, game.decision
    legal = game.legal_actions()
    kinds = Counter(a.kind for a in legal)
    harvests = {a.a for a in legal if a.kind == Kind.HARVEST}
    buys = kinds[Kind.BUY_FIELD]
    if d in TOP_LEVEL[game.variant]:
        assert harvests == expected_harvests(s, p), (d, harvests)
        assert buys == int(expected_buy(game, p)), d
    else:
        assert not harvests and not buys, f"free action inside the sub-decision {d!r}"
    dup = s.config["allow_duplicate_fields"]
    if d in ("plant", "plant_optional"):
        plants = {a.a for a in legal if a.kind == Kind.PLANT}
        assert plants == expected_fields_for(s, p, s.hands[p][0], dup)  # COM-1: the front card
        assert kinds[Kind.STOP_PLANTING] == (d == "plant_optional")  # BASE-5 / DUEL-4
    cards = {"plant_traded": s.to_plant[p], "leftovers": s.face_up, "plant_face_up": s.face_up}.get(d)
    if cards is not None:
        got = {(a.a, a.b) for a in legal if a.kind == Kind.PLANT_CARD}
        want = {(t, f) for t in set(cards) for f in expected_fields_for(s, p, t, dup)}
        assert got == want, d
    if d == "respond":  # TRADE-4: accept only holding the wanted types among one's tradable cards
        have = Counter(s.hands[p]) + (Counter(s.face_up) if p == s.active else Counter())
        able = all(have[t] >= c for t, c in Counter(s.o_want).items())
        assert kinds[Kind.ACCEPT] == int(able)
        assert kinds[Kind.DECLINE] == 1


CONFIGS = [("bohnanza", {"edition": ed, "num_players": n, "max_trade_rounds": 2,
                         "allow_duplicate_fields": dup})
           for ed, n in (("german", 3), ("german", 5), ("english", 3), ("english", 4), ("english", 7))
           for dup in (True, False)]
CONFIGS += [("bean_duel", {"allow_duplicate_fields": dup}) for dup in (True, False)]


@pytest.mark.parametrize("variant,config", CONFIGS,
                         ids=[f"{v}-{c.get('edition', '')}{c.get('num_players', 2)}-dup{c['allow_duplicate_fields']}"
                              for v, c in CONFIGS])
def test_com3_com6_com8_base9_legal_actions_match_an_independent_reading(variant, config):
    """COM-3 / COM-4 / COM-6 / COM-8 / BASE-2 / BASE-5 / BASE-9 / DUEL-2 / TRADE-4: at every decision
    point the planting, harvesting, buying and accepting actions are exactly those the rules allow."""
    for seed in range(6):
        game = new_game(variant, seed=seed, **config)
        rng = random.Random(seed)
        while not game.is_over:
            check_point(game)
            legal = game.legal_actions()
            # prefer free actions now and then, so fields empty and 3rd fields get bought
            free = [a for a in legal if a.kind in (Kind.HARVEST, Kind.BUY_FIELD)]
            pool = free if free and rng.random() < 0.2 else legal
            game.apply(pool[rng.randrange(len(pool))])
