"""The OpenSpiel games (``bean_env.openspiel``): loading with parameters, OpenSpiel's random-simulation
test, tensors equal to the envs', strings without hidden cards (INFO-3), clone and serialisation, and
OpenSpiel algorithms (evaluate_bots with random bots; a few DQN episodes through rl_environment)."""
from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import bean_env  # noqa: E402
import bean_env.openspiel  # noqa: E402,F401  (registers the games)
from bean_env.openspiel.game import BeanState, _Engine  # noqa: E402

NAMES = ["python_bohnanza", "python_bean_duel", "python_al_cabohne", "python_bean_solitaire",
         "python_hostile_takeover"]


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_variant_is_registered_with_parameters():
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered
    g = pyspiel.load_game("python_bohnanza", {"num_players": 5, "edition": "english", "max_trade_rounds": 2})
    assert g.num_players() == 5 and g.config["edition"] == "english" and g.config["max_trade_rounds"] == 2
    assert pyspiel.load_game("python_bohnanza(num_players=3,max_offer_cards=2)").config["max_offer_cards"] == 2
    assert pyspiel.load_game("python_bohnanza").config["max_offer_cards"] is None
    assert pyspiel.load_game("python_bohnanza(trade_preset=learning)").config["proposals"] == "active_only"
    assert pyspiel.load_game("python_hostile_takeover", {"num_players": 2}).num_players() == 2
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game("python_bohnanza", {"num_players": 9})
    with pytest.raises(Exception, match="reward"):
        pyspiel.load_game("python_bean_duel", {"reward": "money"})


@pytest.mark.parametrize("name,params", [("python_bean_solitaire", {}), ("python_bean_duel", {})])
def test_openspiel_random_simulation_test(name, params):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name,params", [("python_al_cabohne", {}), ("python_hostile_takeover", {"num_players": 3}),
                                         ("python_bohnanza", {"num_players": 3, "trade_preset": "learning"}),
                                         ("python_bohnanza", {"num_players": 3})])
def test_openspiel_random_simulation_test_slow(name, params):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=1, serialize=True, verbose=False)


def test_chance_node_draws_a_deal():
    """The documented seeded alternative to per-shuffle chance nodes: one uniform draw among num_deals."""
    g = pyspiel.load_game("python_bean_duel", {"num_deals": 50, "seed_offset": 1000})
    s = g.new_initial_state()
    assert s.is_chance_node() and s.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 50 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    s.apply_action(7)
    assert s.game.seed == 1007
    same = bean_env.new_game("bean_duel", seed=1007)
    assert s.game.state.hands == same.state.hands
    assert s.observation_string(0) == s.observation_string(0) and "deal" not in s.observation_string(0)


def test_tensors_and_actions_equal_the_aec_env():
    """Deal i is the env's game of seed i; legal actions are the env's mask, tensors its observation."""
    g = pyspiel.load_game("python_bohnanza", {"num_players": 3, "max_trade_rounds": 1})
    s = g.new_initial_state()
    s.apply_action(7)
    env = bean_env.bohnanza_v1.env(num_players=3, max_trade_rounds=1, auto_forced=False)
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(250):
        p = s.current_player()
        obs = env.observe(env.agent_selection)
        assert env.agent_selection == f"player_{p}"
        assert list(np.flatnonzero(obs["action_mask"])) == s.legal_actions()
        assert np.array_equal(obs["observation"], np.asarray(s.observation_tensor(p), np.float32))
        assert np.array_equal(np.asarray(s.information_state_tensor(p)), np.asarray(s.observation_tensor(p)))
        a = int(rng.choice(s.legal_actions()))
        assert s.action_to_string(p, a) == str(s.game.legal_actions()[
            [g.catalogue.encode(x, p) for x in s.game.legal_actions()].index(a)])
        s.apply_action(a)
        env.step(a)


def _resampled(state, player, rng):
    other = BeanState(state.get_game())
    other._engine = _Engine(state.game.view(player).sample_game(rng), state.get_game().encoder)
    return other


@pytest.mark.parametrize("name,params", [("python_bohnanza", {"num_players": 3}),
                                         ("python_hostile_takeover", {"num_players": 3})])
def test_strings_reveal_nothing_hidden_info_3(name, params):
    """INFO-3: observation and information-state strings are unchanged when unseen cards are resampled."""
    g = pyspiel.load_game(name, params)
    rng = np.random.default_rng(3)
    r = random.Random(3)
    s = g.new_initial_state()
    for k in range(4):
        play_random(s, rng, 35)
        for p in range(g.num_players()):
            other = _resampled(s, p, r)
            assert other.observation_string(p) == s.observation_string(p)
            assert other.information_state_string(p) == s.information_state_string(p)
    assert "History: " in s.information_state_string(0)


def test_clone_serialise_pickle_play_on_identically():
    g = pyspiel.load_game("python_bean_duel")
    rng = np.random.default_rng(1)
    s = play_random(g.new_initial_state(), rng, 60)
    c = s.clone()
    text = pyspiel.serialize_game_and_state(g, s)
    g2, d = pyspiel.deserialize_game_and_state(text)
    p = pickle.loads(pickle.dumps(s))
    for other in (c, d, p):
        assert str(other) == str(s) and other.history() == s.history()
    moves = []
    for _ in range(40):
        a = int(rng.choice(s.legal_actions()))
        moves.append(a)
        s.apply_action(a)
    for other in (c, d, p):
        for a in moves:
            other.apply_action(a)
        assert str(other) == str(s) and other.observation_string(0) == s.observation_string(0)
    assert c.history() != play_random(c.clone(), rng, 5).history()  # a clone is independent


def test_returns_follow_the_env_rewards():
    for name, params in [("python_bean_solitaire", {}), ("python_bean_duel", {"reward": "score"})]:
        g = pyspiel.load_game(name, params)
        s = play_random(g.new_initial_state(), np.random.default_rng(2), 100_000)
        assert s.is_terminal()
        if name == "python_bean_solitaire":
            score = s.game.scores()[0]
            assert s.returns() == [1.0 if score > 0 else (0.0 if score == 0 else -1.0)]
        else:
            assert s.returns() == [float(x) for x in s.game.scores()]


def test_evaluate_bots_with_uniform_random_bots():
    from open_spiel.python.algorithms import evaluate_bots

    g = pyspiel.load_game("python_bean_duel")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(2)]
    rng = np.random.RandomState(0)
    results = [tuple(evaluate_bots.evaluate_bots(g.new_initial_state(), bots, rng)) for _ in range(3)]
    assert all(r in {(1.0, -1.0), (-1.0, 1.0), (0.5, 0.5)} for r in results)


@pytest.mark.slow
def test_dqn_through_rl_environment():
    """OpenSpiel's rl_environment and its PyTorch DQN run on a small configuration."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    g = pyspiel.load_game("python_bean_solitaire", {"num_deals": 10})
    env = rl_environment.Environment(g, seed=0)
    agent = dqn.DQN(player_id=0, state_representation_size=env.observation_spec()["info_state"][0],
                    num_actions=env.action_spec()["num_actions"], hidden_layers_sizes=[32],
                    replay_buffer_capacity=1000, batch_size=16, min_buffer_size_to_learn=32, learn_every=4)
    for _ in range(3):
        ts = env.reset()
        while not ts.last():
            ts = env.step([agent.step(ts).action])
        agent.step(ts)
        assert ts.rewards[0] in (-1.0, 0.0, 1.0)
    assert agent.loss is not None
