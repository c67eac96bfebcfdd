"""Shared test helpers for every variant: card conservation, random play-outs, state digests.

Import them as ``from helpers import assert_conserved, random_playout`` (``tests/conftest.py`` puts
this folder on ``sys.path``).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import pathlib
import random
import sys
from collections import Counter

# The parts of a base state that a digest covers: everything a rules change could alter, and none of
# the bookkeeping a refactor might rename. Attributes a variant adds to its states (the mafia's bosses,
# ...) are covered too.
DIGEST_KEYS = ("decision", "actor", "active", "turn", "over", "runouts", "limit", "deck", "discard",
               "removed", "set_aside", "face_up", "hands", "known", "ftype", "fcount", "nfields", "coins",
               "to_plant", "ext")


def card_total(game) -> Counter:
    """All cards of ``game`` summed over the places its rules report (``rules.locations``)."""
    total = Counter()
    for place in game.rules.locations(game.state).values():
        total.update(place)
    return total


def assert_conserved(game, context: str = "") -> None:
    """Every card of the variant's deck is in exactly one place (the rules' ``locations``)."""
    total = card_total(game)
    expected = Counter(game.rules.composition())
    if total != expected:
        extra = total - expected
        missing = expected - total
        raise AssertionError(f"card conservation broken {context}: extra {dict(extra)}, missing {dict(missing)}"
                             f" at decision {game.decision!r}, history length {len(game.history)}")


def assert_well_formed(game) -> None:
    """Structural invariants of any state: field shape, hand/known alignment, legal list non-empty."""
    s = game.state
    for p in range(s.n):
        assert len(s.hands[p]) == len(s.known[p]), f"hand and known lists differ in length for seat {p}"
        assert s.nfields[p] in (1, 2, 3), f"seat {p} has {s.nfields[p]} fields"
        types = []
        for f in range(3):
            i = p * 3 + f
            if f >= s.nfields[p]:
                assert s.fcount[i] == 0, f"seat {p} has cards on field {f + 1} it does not own"
            if s.fcount[i] == 0:
                continue
            assert s.fcount[i] > 0 and s.ftype[i] >= 0, f"seat {p} field {f + 1} is malformed"
            types.append(s.ftype[i])
        if not getattr(game.rules, "allow_duplicates", True):
            assert len(types) == len(set(types)), f"seat {p} grows one type on two fields"
    if game.is_over:
        assert game.legal_actions() == [] and game.current_player == -1
    else:
        legal = game.legal_actions()
        assert legal, f"no legal action at decision {game.decision!r}"
        assert len(set(legal)) == len(legal), f"duplicate legal actions at {game.decision!r}"
        assert 0 <= game.current_player < s.n


def random_playout(game, rng: random.Random, max_steps: int | None = None, check=None) -> int:
    """Play uniformly random legal actions until the game is over or ``max_steps`` were taken.

    ``check(game)`` runs before the first action and after every action. Returns the steps taken.
    """
    steps = 0
    if check:
        check(game)
    while not game.is_over and not game.is_truncated and (max_steps is None or steps < max_steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1
        if check:
            check(game)
    return steps


def _base_keys() -> frozenset:
    from bean_env.engine.state import State
    return frozenset(State("base", {}, 0, 1).__dict__)


_BASE_KEYS = _base_keys()


def state_digest(game) -> str:
    """A short hash of the rules-relevant state (cards, fields, coins, decision point, and whatever a
    variant adds to the base state)."""
    d = game.state.to_dict()
    data = {k: d.get(k) for k in DIGEST_KEYS}
    data.update({k: v for k, v in d.items() if k not in _BASE_KEYS})
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def legal_strings(game) -> list[str]:
    """The sorted ``str()`` of the legal actions."""
    return sorted(str(a) for a in game.legal_actions())


def legal_set(game) -> set[str]:
    """The ``str()`` of the legal actions, as a set (for scenario assertions)."""
    return {str(a) for a in game.legal_actions()}


def play(game, *actions: str, well_formed: bool = False) -> None:
    """Apply actions given by their ``str()``, checking card conservation after each."""
    for a in actions:
        game.apply(a)
        assert_conserved(game, f"after {a!r}")
        if well_formed:
            assert_well_formed(game)


def names(cards) -> list[str]:
    """Type names of a list of type codes."""
    from bean_env.cards import NAMES
    return [NAMES[c] for c in cards]


def play_agents(game, agents) -> list:
    """Play ``agents`` (one per seat) until the game is over or truncated, asserting every action
    they return is legal (AGT-1); agents that follow the public history (``observe(view)``, e.g. ``ppo``)
    are shown their view at the start and after every action, as ``play_out`` does. Returns the game's
    history."""
    from bean_env.agents.base import show_views

    followers = [(q, a) for q, a in enumerate(agents) if hasattr(a, "observe")]
    show_views(game, followers)
    while not game.is_over and not game.is_truncated:
        seat = game.current_player
        legal = game.legal_actions()
        action = agents[seat].act(game.view(seat), legal)
        assert action in legal, (seat, action)
        game.apply(action)
        show_views(game, followers)
    return game.history


def defended_takeover(seed_from: int = 0):
    """A random 3-player hostile_takeover game right after a face-down defence card was laid (HT-12)."""
    from bean_env import new_game
    from bean_env.engine.actions import Kind

    for seed in range(seed_from, seed_from + 200):
        game, rng = new_game("hostile_takeover", seed=seed, num_players=3), random.Random(seed)
        while not game.is_over and not game.is_truncated and len(game.history) < 1500:
            legal = game.legal_actions()
            defends = [a for a in legal if a.kind == Kind.HT_DEFEND]
            if defends:
                game.apply(defends[0])
                return game
            game.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no defence in 200 random games")


def reachable_offers(game, stay_in_compose: bool = True) -> list[tuple]:
    """Every offer that can be submitted from the current ``compose`` point, one entry per distinct
    sub-decision sequence, as (remaining proposer hand, given trade-area types, wanted types)
    (TRADE-2; ``stay_in_compose``: also check that every step keeps composing)."""
    from bean_env.engine.actions import Kind

    s = game.state
    out = []
    for action in game.legal_actions():
        if action.kind == Kind.CANCEL:
            continue
        if action.kind == Kind.SUBMIT:
            rest = tuple(c for i, c in enumerate(s.hands[s.o_prop]) if i not in s.o_hand)
            out.append((rest, tuple(sorted(s.o_trade)), tuple(s.o_want)))
            continue
        child = game.clone()
        child.apply(action)
        assert not stay_in_compose or child.decision == "compose"
        out.extend(reachable_offers(child, stay_in_compose))
    return out


def run_notebook(path, workdir, timeout: int = 600):
    """Execute the notebook at ``path`` in ``workdir`` (skips without nbformat/nbclient); returns the
    executed notebook and the text of its outputs."""
    import pytest
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(workdir)}}).execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    return nb, text


def defence_twins(seed_from: int = 7):
    """(game, twin, defender): a hostile_takeover game right after a face-down defence (HT-12) and a
    copy that differs only in which text card was laid face down (INFO-3 tests)."""
    from bean_env.engine.actions import Action, Kind

    game = defended_takeover(seed_from)
    defender = next(a.a for a in reversed(game.history) if a.kind == Kind.HT_ATTACK)
    twin = game.clone()
    s = twin.state
    i = next(i for i, g in enumerate(s.guard) if g >= 0)
    swap = next(k for k, c in enumerate(s.tdeck) if c != s.guard[i])
    s.guard[i], s.tdeck[swap] = s.tdeck[swap], s.guard[i]
    twin.history[-1] = Action(Kind.HT_DEFEND, s.guard[i])
    return game, twin, defender


def memoryless_encoder(game):
    """A new observation encoder of the game's config that remembers nothing (every block is computed
    every time): the reference the encoders' memos are checked against."""
    from bean_env.envs.obs.common import common_blocks
    from bean_env.envs.obs.core import _SPECS, ObservationEncoder, make_context

    s = game.state
    ctx = make_context(s.variant, game.rules, s.n)
    ctx.remember = False
    spec = _SPECS[s.variant]
    return ObservationEncoder(ctx, common_blocks(ctx) + list(spec.blocks(ctx)), spec.history_blocks)


BENCHMARKS = pathlib.Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str):
    """The script ``benchmarks/<name>.py`` as a module (registered in ``sys.modules`` as an import would)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
