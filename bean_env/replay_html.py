"""A recorded game as ONE self-contained HTML file that steps through it in a browser.

    from bean_env.replay_html import write_replay_html
    write_replay_html(game.record(), "game.html")      # or: bean-env replay game.json --html game.html

The page needs no network and loads nothing: the frames are embedded as JSON, the cards are drawn as
SVG by a small inline script. A *frame* is what one perspective sees after a number of actions; there
is one list of frames per seat, computed in Python from that seat's ``PlayerView`` (so a seat's
frames name only cards it could see, INFO-3), and one ``open`` list with every card (for review).
Controls: first / previous / next / last, a slider and a step box to jump, a seat selector, the arrow
keys. The URL hash ``#step=5&seat=1`` opens a step and perspective; ``clicks=N`` presses *next* N
times after loading (used by the browser tests).
"""
from __future__ import annotations

import html
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Union

from .cards import TYPES
from .engine.actions import Action, Kind
from .engine.game import Game, new_game
from .engine.views import mask_history
from .render import score_texts

# card colours per type code (fill, text)
COLOURS = ("#6b4423", "#e8d36b", "#3b6fb6", "#a52a2a", "#d9381e", "#8fa35a", "#7a6a3a", "#4caf50",
           "#2e8b57", "#c2b280", "#f0e68c", "#f5f5dc", "#c0392b", "#9acd32", "#5d3a1a")
TEXT_ON = ("#fff", "#222", "#fff", "#fff", "#fff", "#222", "#fff", "#222", "#fff", "#222", "#222", "#222",
           "#fff", "#222", "#fff")


def _record_of(source: Union[Game, dict, str, Path]) -> dict:
    if isinstance(source, Game):
        return source.record()
    if isinstance(source, (str, Path)):
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{source}: cannot read a game record: {exc}") from None
        saved_game = isinstance(data, dict) and str(data.get("format", "")).startswith("bean_env.game/")
        if saved_game and "actions" not in data:
            s = data["state"]
            return {"variant": s["variant"], "config": s["config"], "seed": s["seed"], "actions": data["history"]}
        source = data
    if not isinstance(source, dict) or not {"variant", "seed", "actions"} <= set(source):
        raise ValueError("not a game record: expected a Game, or a dict/JSON file with keys variant, config, "
                         "seed, actions (game.record()) or game.to_json() output")
    return source


def _last_text(history: list, seat: int, state) -> str:
    """The last action as ``seat`` may read it (``mask_history``, run only over the tail it depends on:
    the offer or takeover that a hidden part belongs to)."""
    if not history:
        return ""
    last = history[-1]
    if last.kind not in (Kind.GIVE_HAND, Kind.HT_DEFEND):
        return str(last)
    k = len(history) - 1
    while k > 0 and history[k].kind not in (Kind.OFFER, Kind.HT_ATTACK):
        k -= 1
    return str(mask_history(history[k:], seat, state)[-1])


def frame(game: Game, seat: int | None) -> dict:
    """What ``seat`` sees now (``None``: every card), as compact JSON-able data."""
    if seat is None:
        s = game.state
        last = str(game.history[-1]) if game.history else ""
    else:
        view = game.view(seat)
        s = view.state
        last = _last_text(game.history, seat, s)
    n = s.n
    offer = None
    if s.o_prop >= 0:
        hand = s.hands[s.o_prop]
        hidden = seat is not None and s.decision == "compose" and s.o_prop != seat  # positions not yet shown
        offer = {"from": s.o_prop, "to": s.o_to,
                 "gh": [[-1, -1] if hidden else [i, hand[i] if i < len(hand) else -1] for i in s.o_hand],
                 "gt": list(s.o_trade), "w": list(s.o_want), "pend": list(s.o_pending), "acc": list(s.o_accept)}
    mafia = None
    if hasattr(s, "treasury"):
        from .engine.mafia import BOSS_NAMES, THRESHOLDS
        mafia = {"b": [[s.btype[b] if s.bcount[b] else -1, s.bcount[b], BOSS_NAMES[b], THRESHOLDS[b]]
                       for b in range(len(s.btype))], "t": len(s.treasury)}
    return {
        "t": s.turn, "a": s.active, "x": s.actor, "d": s.decision, "o": s.over,
        "h": [list(h) for h in s.hands],
        "f": [[[s.ftype[p * 3 + f] if s.fcount[p * 3 + f] else -1, s.fcount[p * 3 + f]]
               for f in range(s.nfields[p])] for p in range(n)],
        "c": [len(c) for c in s.coins],
        "p": [sorted(c) for c in s.to_plant],
        "u": sorted(s.face_up),
        "dc": len(s.discard), "dt": s.discard[-1] if s.discard else -1,
        "k": len(s.deck), "r": s.runouts, "l": s.limit,
        "of": offer, "m": mafia, "e": game.rules.render_extra(s).strip(),
        "last": last,
    }


def replay_data(source: Union[Game, dict, str, Path]) -> dict:
    """Every frame of a recorded game for every perspective, plus what the page needs to draw cards."""
    record = _record_of(source)
    game = new_game(record["variant"], seed=record["seed"], **record.get("config", {}))
    n = game.num_players
    perspectives: dict[str, list] = {"open": []}
    perspectives.update({str(p): [] for p in range(n)})
    actors: list[int] = []

    def snap():
        perspectives["open"].append(frame(game, None))
        for p in range(n):
            perspectives[str(p)].append(frame(game, p))

    snap()
    for a in record["actions"]:
        action = Action.from_json(a) if isinstance(a, list) else a
        actors.append(game.current_player)
        game.apply(action)
        snap()
    result = None
    if game.is_over:
        result = {"scores": game.scores(), "score_text": score_texts(game), "winners": game.winners(),
                  "mafia": game.mafia_score(), "truncated": game.is_truncated}
    types = [{"name": t.name, "meter": list(t.meter), "count": t.count, "fill": COLOURS[i], "ink": TEXT_ON[i]}
             for i, t in enumerate(TYPES)]
    return {"variant": record["variant"], "config": game.config, "seed": record["seed"], "n": n,
            "types": types, "actors": actors, "frames": perspectives, "result": result}


def replay_html(source: Union[Game, dict, str, Path], title: str | None = None) -> str:
    """The self-contained HTML page of a recorded game (see the module docstring)."""
    data = replay_data(source)
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = title or f"bean_env replay: {data['variant']} seed {data['seed']}"
    return _page().replace("__TITLE__", html.escape(title)).replace("__DATA__", payload)


@lru_cache(maxsize=1)
def _page() -> str:
    """The page template (``bean_env/data/replay.html``: markup, style and the drawing script)."""
    return resources.files("bean_env").joinpath("data/replay.html").read_text(encoding="utf-8")


def write_replay_html(source: Union[Game, dict, str, Path], path: Union[str, Path],
                      title: str | None = None) -> Path:
    """Write the replay page of ``source`` (a Game, a record dict or a record/game JSON file) to ``path``."""
    out = Path(path)
    out.write_text(replay_html(source, title), encoding="utf-8")
    return out
