"""Exact observation blocks on hand-made positions (INFO-1); raw values, before scaling to [0, 1]."""
from __future__ import annotations

from bean_env.cards import CODE
from bean_env.engine.positions import make_position
from bean_env.envs.obs import encoder_for


def block(game, name: str, seat: int):
    enc = encoder_for(game)
    start, stop = next((a, b) for n, a, b, _ in enc.layout() if n == name)
    return enc.encode_raw(game.state, seat)[start:stop], enc.ctx


def test_discard_runs_from_the_top_duel_5():
    """DUEL-5 takes matching cards from the top of the discard pile, so its order is observed."""
    game = make_position("bean_duel", phase="turn_up", hands=[["blue"], ["soy"]],
                         discard=["red", "blue", "chili", "chili", "stink"])
    runs, ctx = block(game, "discard_runs", 0)
    t = ctx.t
    expect = [("stink", 1), ("chili", 2), ("blue", 1), ("red", 1)]
    for k, (name, length) in enumerate(expect):
        row = runs[k * (t + 1):(k + 1) * (t + 1)]
        assert row[ctx.tslot[CODE[name]]] == 1 and row[t] == length and row[:t].sum() == 1
    assert not runs[len(expect) * (t + 1):].any()


def test_fields_coins_and_cards_to_plant_are_seat_relative_info_1():
    game = make_position("bohnanza", num_players=3, phase="plant_traded", active=1,
                         hands=[["blue"], ["soy"], ["red"]], fields=[[("chili", 4), None], [], [None, ("green", 2)]],
                         coins=[0, 2, 5], to_plant=[[], ["garden", "garden"], ["stink"]], nfields=[2, 3, 2])
    fields, ctx = block(game, "fields", 2)     # seen by seat 2: rows are seats 2, 0, 1
    t = ctx.t

    def cell(offset, field):                   # one-hot type, count, owned
        at = (offset * 3 + field) * (t + 2)
        return fields[at:at + t + 2]

    assert cell(0, 1)[ctx.tslot[CODE["green"]]] == 1 and cell(0, 1)[t] == 2 and cell(0, 1)[t + 1] == 1
    assert not cell(0, 0)[:t + 1].any() and cell(0, 0)[t + 1] == 1   # my empty field 1
    assert cell(1, 0)[ctx.tslot[CODE["chili"]]] == 1 and cell(1, 0)[t] == 4
    assert cell(1, 2)[t + 1] == 0               # seat 0 has no 3rd field
    assert cell(2, 2)[t + 1] == 1               # seat 1 has one
    coins, _ = block(game, "coins", 2)          # per seat offset: coins, then the stack per type
    assert coins[::t + 1].tolist() == [5, 0, 2]
    assert coins[1 + ctx.tslot[CODE["blue"]]] == 5 and coins[2 * (t + 1) + 1 + ctx.tslot[CODE["blue"]]] == 2
    to_plant, _ = block(game, "to_plant", 2)
    assert to_plant[ctx.tslot[CODE["stink"]]] == 1
    assert to_plant[2 * t + ctx.tslot[CODE["garden"]]] == 2


def test_trade_round_and_budget_left_trade_6():
    game = make_position("bohnanza", num_players=3, phase="trade", active=0, max_trade_rounds=3,
                         hands=[["blue"], ["soy"], ["red"]], face_up=["green", "stink"])
    state, _ = block(game, "trade_state", 0)
    assert state[0] == 1 and state[1] == 2     # round 1 of 3: 2 rounds left after this one
    assert state[4] == 1                        # the slot is mine (offset 0)
    face_up, ctx = block(game, "face_up", 1)
    assert face_up[ctx.tslot[CODE["green"]]] == 1 and face_up.sum() == 2


def test_split_names_every_block():
    game = make_position("bean_duel", phase="turn_up", hands=[["blue", "soy"], ["soy"]], coins=[3, 0])
    enc = encoder_for(game)
    parts = enc.split(enc.encode_raw(game.state, 0))
    assert list(parts) == [b.name for b in enc.blocks]
    assert sum(len(v) for v in parts.values()) == enc.size
    t = enc.ctx.t
    assert parts["coins"][::t + 1].tolist() == [3, 0] and parts["hand"][:t].sum() == 2
