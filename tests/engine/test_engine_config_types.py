"""Rule options are checked by type as well as value: numpy integers are whole numbers, while floats
and bools never pass for integers (a bad value raises ValueError naming it and changes nothing)."""
from __future__ import annotations

import numpy as np
import pytest

import bean_env


@pytest.mark.parametrize("variant, key, value", [
    ("bean_duel", "num_players", 2.0), ("bean_solitaire", "num_players", True),
    ("bohnanza", "num_players", 4.0), ("bohnanza", "max_trade_rounds", True),
    ("hostile_takeover", "num_players", np.float64(3)), ("al_cabohne", "num_players", "2"),
])
def test_non_integers_are_refused_for_whole_number_options(variant, key, value):
    with pytest.raises(ValueError, match=key):
        bean_env.new_game(variant, seed=1, **{key: value})


def test_numpy_integers_are_whole_numbers():
    game = bean_env.new_game("bohnanza", seed=np.int64(2), num_players=np.int64(3), max_trade_rounds=np.int32(1))
    assert game.num_players == 3 and type(game.state.config["num_players"]) is int
    game.to_json()  # the stored config holds plain ints
    assert bean_env.new_game("bean_duel", seed=1, num_players=np.int16(2)).num_players == 2
