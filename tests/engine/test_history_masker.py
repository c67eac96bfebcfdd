"""INFO-3 / TRADE-2 / HT-12: a seat's views of one game share a ``HistoryMasker`` that masks the history
incrementally. At every step of random games of every variant, each seat's ``view.history`` equals an
independent statement of the masking rule, including views read after the game moved on."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.engine.actions import Action, Kind
from bean_env.engine.views import HIDDEN_PART, HistoryMasker, mask_history

VARIANTS = [("bohnanza", {"num_players": 4}), ("bohnanza", {"num_players": 3, "max_trade_rounds": 2}),
            ("bean_duel", {}), ("al_cabohne", {}), ("hostile_takeover", {"num_players": 3})]


def oracle(history: list, viewer: int, state) -> list:
    """The masking rule, action by action: a defence card is hidden from all but the seat attacked by the
    last attack before it (HT-12); a hand position given to an offer is hidden if that offer was
    cancelled, or if it is still being built by someone other than ``viewer`` (TRADE-2, INFO-3)."""
    out = []
    for i, a in enumerate(history):
        if a.kind == Kind.HT_DEFEND and a.a >= 0:
            attack = next(h for h in reversed(history[:i]) if h.kind == Kind.HT_ATTACK)
            out.append(a if attack.a == viewer else Action(a.kind, HIDDEN_PART, a.b))
        elif a.kind == Kind.GIVE_HAND and any(h.kind == Kind.OFFER for h in history[:i]):
            opened = max(k for k in range(i) if history[k].kind == Kind.OFFER)
            if any(h.kind in (Kind.SUBMIT, Kind.CANCEL) for h in history[opened:i]):
                out.append(a)  # not part of an offer being built (cannot happen; kept visible)
                continue
            ends = [h.kind for h in history[i:] if h.kind in (Kind.SUBMIT, Kind.CANCEL)]
            if ends:
                hidden = ends[0] == Kind.CANCEL
            else:
                hidden = not (state.decision == "compose" and state.o_prop == viewer)
            out.append(Action(Kind.GIVE_HAND, HIDDEN_PART, 0) if hidden else a)
        else:
            out.append(a)
    return out


@pytest.mark.parametrize("variant,config", VARIANTS, ids=[f"{v}-{c.get('num_players', '')}" for v, c in VARIANTS])
def test_info3_views_mask_the_history_incrementally_like_the_rule(variant, config):
    hidden = 0
    for seed in range(2):
        game, rng = new_game(variant, seed=seed, **config), random.Random(seed)
        old_views = []
        steps = 0
        while not game.is_over and not game.is_truncated and steps < 400:
            n = game.num_players
            for p in range(n):
                view = game.view(p)
                got = view.history
                assert got == oracle(game.history, p, view.state), f"seat {p} at step {steps}"
                hidden += sum(1 for a, b in zip(got, game.history) if a != b)
            if steps % 37 == 0:
                old_views.append((game.view(steps % n), len(game.history)))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            steps += 1
        for view, length in old_views:  # snapshots read after the game moved on
            assert view.history == oracle(game.history[:length], view.player, view.state)
    if variant in ("bohnanza", "hostile_takeover"):
        assert hidden, "no hidden part was met: the test did not exercise the masking"


def test_info3_masker_restarts_on_another_list_or_a_changed_last_entry():
    """Histories only grow (the contract); the masker checks the list's identity and its last scanned
    entry, and scans an older length on its own."""
    game, rng = new_game("bohnanza", seed=4, num_players=3), random.Random(4)
    for _ in range(120):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    masker = HistoryMasker(game.history, 1)
    history = list(game.history)
    assert masker.masked(history, len(history), game.state) == mask_history(history, 1, game.state)
    history[-1] = history[5]  # the last scanned entry replaced: the scan starts over
    assert masker.masked(history, len(history), game.state) == oracle(history, 1, game.state)
    other = game.history[:50]
    assert masker.masked(other, 50, game.state) == oracle(other, 1, game.state)
    assert masker.masked(other, 20, game.state) == oracle(other[:20], 1, game.state)  # an older length
