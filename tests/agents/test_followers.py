"""Agents that follow the public history (``observe(view)``, like ``ppo``) see every action in every loop
that plays games: ``play_out`` (tournaments, training evaluation) and terminal play."""
from __future__ import annotations

import io

import bean_env.agents as agents_pkg
from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.agents.base import RandomAgent, play_out


class Follower(RandomAgent):
    """A random agent that records the length of the history of every view it is shown."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.seen: list[int] = []

    def observe(self, view) -> None:
        self.seen.append(len(view.history))


def test_play_out_shows_every_action_to_followers():
    game = new_game("bohnanza", seed=4, num_players=3, trade_preset="learning")
    players = [Follower(1), make_agent("random", seed=2), Follower(3)]
    steps = play_out(game, players)
    assert game.is_over and steps == len(game.history)
    for follower in (players[0], players[2]):
        assert follower.seen == list(range(len(game.history) + 1))  # the start, then after each action


def test_play_out_stops_at_max_steps():
    game = new_game("bean_duel", seed=1)
    follower = Follower(1)
    assert play_out(game, [follower, make_agent("random", seed=1)], max_steps=7) == 7
    assert follower.seen == list(range(8))


def test_tournament_games_show_followers_every_action(monkeypatch):
    from bean_env.agents import tournament

    made: list[Follower] = []

    def fake_make_agent(name, seed=None, **kw):
        made.append(Follower(seed))
        return made[-1]

    monkeypatch.setattr(agents_pkg, "make_agent", fake_make_agent)
    task = tournament.schedule("bean_duel", tournament.make_entries(["random", "random"]),
                               deals=1, seed=2, config={})[0]
    result = tournament.play_game(task)
    assert result["steps"] > 0 and made
    for follower in made:
        assert follower.seen == list(range(result["steps"] + 1))


def test_terminal_play_shows_agents_every_action():
    from bean_env.play import PlaySession

    game = new_game("bean_duel", seed=3)
    follower = Follower(5)
    session = PlaySession(game, 0, {1: follower}, {1: "follower"}, io.StringIO(), io.StringIO("quit\n"))
    session.run()
    # the person quit at their first decision: the follower saw the start and every action before it
    assert follower.seen == list(range(len(session.game.history) + 1))
