"""Text rendering of a game (the ``ansi``/``human`` render modes and the CLI)."""
from __future__ import annotations

from .cards import NAMES


def _field_text(s, p: int) -> str:
    parts = []
    for f in range(s.nfields[p]):
        i = p * 3 + f
        parts.append(f"[{NAMES[s.ftype[i]]} x{s.fcount[i]}]" if s.fcount[i] else "[ empty ]")
    return " ".join(parts)


def render_game(game, last_actions: int = 6, viewer: int | None = None) -> str:
    """A readable table of hands, fields, coins, face-up cards and the last actions.

    With ``viewer`` set, other players' unseen hand cards are shown as ``?``.
    """
    s = game.state
    head = f"{s.variant} {s.config} | turn {s.turn} | deck {len(s.deck)} | discard {len(s.discard)}"
    head += f" (top {NAMES[s.discard[-1]]})" if s.discard else ""
    head += f" | run-outs {s.runouts}/{s.limit}"
    lines = [head]
    for p in range(s.n):
        mark = ">" if p == s.active else " "
        if viewer is None or viewer == p:
            hand = " ".join(NAMES[c] for c in s.hands[p]) or "-"
        else:
            bit = 1 << viewer
            hand = " ".join(NAMES[c] if s.known[p][i] & bit else "?" for i, c in enumerate(s.hands[p])) or "-"
        line = f"{mark}P{p} coins {len(s.coins[p]):2d} | fields {_field_text(s, p)} | hand {hand}"
        if s.to_plant[p]:
            line += " | to plant " + " ".join(NAMES[c] for c in sorted(s.to_plant[p]))
        lines.append(line)
    extra = game.rules.render_extra(s if viewer is None else game.rules.mask(s, viewer))
    if extra:
        lines.append(extra)
    if s.face_up:
        lines.append("face up: " + " ".join(NAMES[c] for c in sorted(s.face_up)))
    if s.o_prop >= 0:
        who = "all" if s.o_to >= s.n else f"P{s.o_to}"
        give = [NAMES[s.hands[s.o_prop][i]] for i in s.o_hand] + [NAMES[t] for t in s.o_trade]
        lines.append(f"offer P{s.o_prop} -> {who}: give {give or '-'} for {[NAMES[t] for t in s.o_want] or '-'}")
    if game.history:
        lines.append("last: " + "; ".join(str(a) for a in game.history[-last_actions:]))
    if s.over:
        lines.append(f"game over: scores {game.scores()} winners {game.winners()}")
    else:
        lines.append(f"decision '{s.decision}' of P{s.actor}")
    return "\n".join(lines)
