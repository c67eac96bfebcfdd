"""The self-play env: seat rotation, opponents from the pool, the learner's own rewards, exact masks."""
from __future__ import annotations

import numpy as np
import pytest

from bean_env.training.opponents import OpponentPool, parse_mix
from bean_env.training.selfplay_env import SelfPlayEnv


def run_episode(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        legal = env.aec.catalogue.encode_all(env.aec.game.legal_actions(), env.aec.game.current_player)
        assert sorted(np.flatnonzero(mask)) == sorted(legal)   # AGT-1: mask = engine legal set
        assert env.aec.agent_selection == env.learner
        obs, reward, term, trunc, info = env.step(rng.choice(np.flatnonzero(mask)))
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
        if term or trunc:
            return total, info, steps


def test_parse_mix():
    assert parse_mix("self:2,random:1,heuristic:1") == {"self": 0.5, "random": 0.25, "heuristic": 0.25}
    with pytest.raises(ValueError, match=r"bad opponent 'nobody' in the mix \(unknown agent 'nobody'"):
        parse_mix("nobody:1")
    with pytest.raises(ValueError, match="no positive weight"):
        parse_mix("random:0")


@pytest.mark.parametrize("variant,config", [("bean_duel", {}), ("bohnanza", {"num_players": 3}),
                                            ("bohnanza", {"num_players": 5, "max_trade_rounds": 1})])
def test_learner_gets_its_own_seat_reward(variant, config):
    """Each seat's reward goes to that seat only: the learner's episode return is the win reward
    (+1/k shared win, -1 otherwise) of the learner's seat, for 2..5 players; seats rotate."""
    pool = OpponentPool(parse_mix("random:1"), seed=3)
    env = SelfPlayEnv(variant, config, pool, seed=5)
    rng = np.random.default_rng(0)
    seats = []
    for _ in range(env.num_players + 1):
        total, info, _ = run_episode(env, rng)
        winners = env.aec.game.winners()
        seat = info["seat"]
        expected = 1.0 / len(winners) if seat in winners else -1.0
        assert total == pytest.approx(expected)
        assert info["win"] == (seat in winners)
        seats.append(seat)
    n = env.num_players
    assert seats[:n] == [(seats[0] + k) % n for k in range(n)]  # rotation over every seat


def test_solitaire_has_no_opponents():
    env = SelfPlayEnv("bean_solitaire", {}, OpponentPool(parse_mix("random:1")), seed=1)
    total, info, steps = run_episode(env, np.random.default_rng(1))
    assert info["opponents"] == [] and info["seat"] == 0 and steps > 5
    assert total in (-1.0, 0.0, 1.0)


def test_same_seed_same_episode():
    def trace(seed):
        env = SelfPlayEnv("bean_duel", {}, OpponentPool(parse_mix("random:1,heuristic:1"), seed=0), seed=0)
        total, info, steps = run_episode(env, np.random.default_rng(4), seed=seed)
        return total, info["scores"], steps, env.aec.game.history

    assert trace(9) == trace(9)


def test_snapshots_play_from_observations():
    from bean_env.agents.ppo import PolicyNet

    env = SelfPlayEnv("bean_duel", {}, OpponentPool(parse_mix("self:1"), seed=0), seed=2)
    obs_size, n = env.observation_space.shape[0], env.action_space.n
    rng = np.random.default_rng(0)
    layers = [(rng.normal(0, 0.1, (8, obs_size)), np.zeros(8)), (rng.normal(0, 0.1, (n, 8)), np.zeros(n))]
    env.add_snapshot(layers, "tanh", {"variant": "bean_duel"})
    assert env.snapshot_count() == 1
    _, info, _ = run_episode(env, rng)
    assert info["opponents"] == ["self"]


def test_random_opponent_draws_as_a_choice_of_the_legal_indices():
    """``RandomPlayer`` picks a position of the engine's legal list and encodes that action alone: the same
    draw and index as ``rng.choice(env.legal_indices())`` with the same generator, along a whole game."""
    import random

    from bean_env.training.opponents import RandomPlayer
    from bean_env.training.selfplay_env import make_aec

    aec = make_aec("bohnanza", num_players=4)
    aec.reset(seed=4)
    player, reference = RandomPlayer(9), random.Random(9)
    steps = 0
    while not any(aec.terminations.values()):
        agent = aec.agent_selection
        i = player.choose(aec, agent)
        assert i == reference.choice(aec.legal_indices())
        assert np.flatnonzero(aec.observe(agent)["action_mask"]).tolist().count(i) == 1
        aec.step(i)
        steps += 1
    assert steps > 300


@pytest.mark.parametrize("mix", ["random:1", "heuristic:1"])
def test_dense_episode_returns_include_what_the_game_pays_before_the_first_step(mix):
    """Under ``dense`` an episode's rewards add up to the learner's final score: the points every seat of
    ``hostile_takeover`` starts with (paid at the reset) and what opponents' moves pay before the learner's
    first decision come with the first step."""
    env = SelfPlayEnv("hostile_takeover", {"num_players": 3}, OpponentPool(parse_mix(mix), seed=1), seed=2,
                      reward_mode="dense")
    rng = np.random.default_rng(0)
    for _ in range(4):
        total, info, _ = run_episode(env, rng)
        assert total == pytest.approx(info["scores"][info["seat"]] / 100)


@pytest.mark.parametrize("variant,config,unit", [("hostile_takeover", {"num_players": 3}, 100),
                                                 ("bohnanza", {"num_players": 4}, 1)])
def test_relative_reward_pays_the_learner_its_score_minus_the_mean_of_the_others(variant, config, unit):
    """With ``relative_reward`` a dense episode's rewards add up to the learner's final score minus the
    mean final score of the other seats (each step's rewards made relative, the start included; a
    `hostile_takeover` score counts in hundredths)."""
    env = SelfPlayEnv(variant, config, OpponentPool(parse_mix("heuristic:1"), seed=1), seed=2,
                      reward_mode="dense", relative_reward=True)
    rng = np.random.default_rng(0)
    for _ in range(3):
        total, info, _ = run_episode(env, rng)
        scores, seat = info["scores"], info["seat"]
        others = [v for q, v in enumerate(scores) if q != seat]
        assert total == pytest.approx((scores[seat] - sum(others) / len(others)) / unit)


def test_gift_penalty_charges_every_card_the_learner_receives_for_nothing():
    """With ``gift_penalty`` p an episode's return is the env's own reward minus p times the cards the
    learner received in executed trades where it gave nothing, as the trade counter counts them from a
    replay of the game; the AEC env's rewards stay untouched. Random learners take many gifts."""
    from bean_env.engine.trade_stats import count_trades

    env = SelfPlayEnv("bohnanza", {"num_players": 4}, OpponentPool(parse_mix("heuristic:1"), seed=3), seed=5,
                      gift_penalty=0.5)
    rng = np.random.default_rng(0)
    charged = 0
    for _ in range(3):
        total, info, _ = run_episode(env, rng)
        assert env.aec.game.rules.events is None  # listening only while the env steps (not an agent's search)
        seat = info["seat"]
        winners = env.aec.game.winners()
        gift_cards = count_trades(env.aec.game.record()).seats[seat].gift_cards_received
        charged += gift_cards
        own = 1.0 / len(winners) if seat in winners else -1.0
        assert total == pytest.approx(own - 0.5 * gift_cards)
    assert charged > 0  # the test saw gifts


def test_trade_bonus_pays_every_trade_in_which_the_learner_gave_and_received_cards():
    """With ``trade_bonus`` b (and a gift penalty p) an episode's return is the env's own reward plus b
    times the learner's executed trades that were not gifts, minus p times its gift cards, as the trade
    counter counts them from a replay of the game."""
    from bean_env.engine.trade_stats import count_trades

    env = SelfPlayEnv("bohnanza", {"num_players": 4}, OpponentPool(parse_mix("heuristic:1"), seed=3), seed=5,
                      gift_penalty=0.5, trade_bonus=0.25)
    rng = np.random.default_rng(0)
    paid = 0
    for _ in range(3):
        total, info, _ = run_episode(env, rng)
        seat = info["seat"]
        winners = env.aec.game.winners()
        s = count_trades(env.aec.game.record()).seats[seat]
        two_way = s.trades - s.gifts_given - s.gifts_received
        paid += two_way
        own = 1.0 / len(winners) if seat in winners else -1.0
        assert total == pytest.approx(own + 0.25 * two_way - 0.5 * s.gift_cards_received)
    assert paid > 0  # the test saw two-way trades


@pytest.mark.parametrize("bad", [-1.0, float("nan")])
def test_gift_penalty_must_be_a_non_negative_number(bad):
    with pytest.raises(ValueError, match="gift_penalty must be a number >= 0"):
        SelfPlayEnv("bohnanza", {"num_players": 4}, gift_penalty=bad)
    with pytest.raises(ValueError, match="trade_bonus must be a number >= 0"):
        SelfPlayEnv("bohnanza", {"num_players": 4}, trade_bonus=bad)
