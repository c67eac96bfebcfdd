"""Text rendering of a game (the ``ansi``/``human`` render modes, the CLI and terminal play).

``render_game(game)`` is the omniscient table; ``render_game(game, viewer=p)`` is what seat ``p`` may
read (INFO-1..3): it is drawn from the masked state (``rules.mask``) and the masked history
(``views.mask_history``), so a card the viewer cannot see is shown as ``?`` and never named.
"""
from __future__ import annotations

from .cards import NAMES
from .engine.state import State
from .engine.views import mask_history


def card_name(code: int) -> str:
    """A bean type's name, or ``?`` for a card the viewer cannot see."""
    return NAMES[code] if code >= 0 else "?"


def field_text(s: State, p: int) -> str:
    """Seat ``p``'s fields as ``[red x2] [ empty ]``."""
    parts = []
    for f in range(s.nfields[p]):
        i = p * 3 + f
        parts.append(f"[{NAMES[s.ftype[i]]} x{s.fcount[i]}]" if s.fcount[i] else "[ empty ]")
    return " ".join(parts)


def hand_text(s: State, p: int) -> str:
    """Seat ``p``'s hand as the state holds it (a masked state shows unseen cards as ``?``)."""
    return " ".join(card_name(c) for c in s.hands[p]) or "-"


def offer_text(s: State) -> str:
    """The offer being built or answered, e.g. ``offer P0 -> all: give ['red', '?'] for ['soy']``."""
    who = "all" if s.o_to >= s.n else f"P{s.o_to}"
    give = [card_name(s.hands[s.o_prop][i]) for i in s.o_hand] + [NAMES[t] for t in s.o_trade]
    return f"offer P{s.o_prop} -> {who}: give {give or '-'} for {[NAMES[t] for t in s.o_want] or '-'}"


# engine score units per coin: hostile_takeover scores in integer hundredths (HT-14)
_SCORE_UNITS = {"hostile_takeover": 100}


def score_texts(game) -> list[str]:
    """Each seat's score as coins: ``"3"``, or ``"16.00"`` where the engine counts hundredths."""
    unit = _SCORE_UNITS.get(game.variant, 1)
    if unit == 1:
        return [str(v) for v in game.scores()]
    return [f"{v / unit:.2f}" for v in game.scores()]


def scores_text(game) -> str:
    """The scores as coins: ``[3, 5]``, or with two decimals where the engine counts hundredths."""
    return "[" + ", ".join(score_texts(game)) + "]"


def visible_state(game, viewer: int | None) -> State:
    """The state as ``viewer`` may see it (the real state when ``viewer`` is None)."""
    return game.state if viewer is None else game.rules.mask(game.state, viewer)


def visible_history(game, viewer: int | None) -> list:
    """The actions so far as ``viewer`` may read them (all of them when ``viewer`` is None)."""
    return list(game.history) if viewer is None else mask_history(game.history, viewer, game.state)


def render_game(game, last_actions: int = 6, viewer: int | None = None) -> str:
    """A readable table of hands, fields, coins, face-up cards and the last actions.

    With ``viewer`` set, only what that seat may know is shown: others' unseen hand cards are ``?``
    (in `hostile_takeover`, whose hands are unordered, the known cards come first), hidden parts of
    actions are masked, and an offer's hand cards are ``?`` until it is submitted.
    """
    s = visible_state(game, viewer)
    head = f"{s.variant} {s.config} | turn {s.turn} | deck {len(s.deck)} | discard {len(s.discard)}"
    head += f" (top {NAMES[s.discard[-1]]})" if s.discard else ""
    head += f" | run-outs {s.runouts}/{s.limit}"
    lines = [head]
    for p in range(s.n):
        mark = ">" if p == s.active else " "
        line = f"{mark}P{p} coins {len(s.coins[p]):2d} | fields {field_text(s, p)} | hand {hand_text(s, p)}"
        if s.to_plant[p]:
            line += " | to plant " + " ".join(NAMES[c] for c in sorted(s.to_plant[p]))
        lines.append(line)
    extra = game.rules.render_extra(s)
    if extra:
        lines.append(extra)
    if s.face_up:
        lines.append("face up: " + " ".join(NAMES[c] for c in sorted(s.face_up)))
    if s.o_prop >= 0:
        lines.append(offer_text(s))
    if game.history and last_actions > 0:
        lines.append("last: " + "; ".join(str(a) for a in visible_history(game, viewer)[-last_actions:]))
    if s.over:
        lines.append(f"game over: scores {scores_text(game)} winners {game.winners()}")
    else:
        lines.append(f"decision '{s.decision}' of P{s.actor}")
    return "\n".join(lines)
