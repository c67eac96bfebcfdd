"""The fast paths of the hostile_takeover legal-action generator agree with the per-action generators
they replace: the active player's fused list (``turn_legal``) with ``starts`` + ``text_plays``, the
copy-prompt existence test (``attack_possible``) with ``attack_starts``, and the field mirrors
(``ftype``/``fcount``) they read with the piles. Random games with every text card dealt out, so
Mutabohne, Maechtige/Starke/Variable Uebernahme, the Jokerbohne and protection all occur."""
from __future__ import annotations

import random

import pytest
from takeover_util import deal_texts

from bean_env import Game, new_game
from bean_env.engine.state import EMPTY
from bean_env.engine.takeover.shared import END_TURN

PLAYERS = (2, 3, 4, 5)


def dealt_game(n: int, seed: int) -> Game:
    """A short game whose text deck is dealt out at random (many text-card situations)."""
    g = new_game("hostile_takeover", seed=seed, num_players=n, max_turns=30, max_actions_per_turn=6)
    deal_texts(g, random.Random(seed))
    return g


def check_mirrors(s) -> None:
    for i, pile in enumerate(s.piles):
        assert s.fcount[i] == len(pile) and s.ftype[i] == (pile[-1] if pile else EMPTY), f"field {i}"


@pytest.mark.parametrize("n", PLAYERS)
def test_ht4_ht11_fused_turn_list_equals_the_action_generators(n):
    """HT-4 (regular actions a-e and text cards at the active player's turn), HT-11/HT-13 (takeover
    starts, copying-round bans): the fused lists equal the per-action generators, in order."""
    turns = copies = 0
    for seed in range(6):
        g = dealt_game(n, seed)
        s, rules = g.state, g.rules
        rng = random.Random(seed)
        while not g.is_over and not g.is_truncated:
            check_mirrors(s)
            p = g.current_player
            if g.decision == "turn" and s.acts < rules.max_actions:
                expected = [END_TURN] + rules.starts(s, p) + rules.text_plays(s, p)
                assert g.legal_actions() == expected
                turns += 1
            if g.decision in ("turn", "copy"):
                for q in range(n):
                    assert rules.attack_possible(s, q) == bool(rules.attack_starts(s, q)), (q, s.cp_leader)
                copies += g.decision == "copy"
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        check_mirrors(s)
    assert turns > 100 and copies > 100


@pytest.mark.parametrize("n", PLAYERS)
def test_ht13_copy_prompt_only_with_something_to_decide(n):
    """HT-13: a passive player is asked in a copying round only when holding a text card or able to copy
    (a) plays: when holding any bean card, since whether one fits is hidden; b) to e): when a copy start
    exists, so the prompt offers more than passing)."""
    asked = 0
    for seed in range(6):
        g = dealt_game(n, seed)
        s, rules = g.state, g.rules
        rng = random.Random(seed)
        last = -1                    # who took the previous action (back at one's own prompt: no check)
        while not g.is_over and not g.is_truncated:
            q = g.current_player
            if g.decision == "copy" and not s.texts[q] and q != last:
                assert s.cp_quota > 0
                if s.cp_kind == "a":
                    assert s.hands[q]
                else:
                    assert rules.copy_starts(s, q) and len(g.legal_actions()) > 1
                    asked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            last = q
    assert asked > 20
