"""The batched steps of every kernel variant: forced moves and payments (``advance``), a step of chosen
slots (``step``) and their masks and observations (``observe``), each dispatching to the module that plays
the variant (``params[P_KERNEL]``: ``duel``, ``mafia``, ``bohnanza`` or ``takeover``, which provide
``legal``, ``apply``, ``pay`` and ``write_obs``; only ``bohnanza`` reads the extra array ``X``). One driver
rather than one per module: numba caches a function that calls the modules directly, not one that takes
their functions as arguments (that recompiles in every process)."""
from __future__ import annotations

import numpy as np

from ..._numba import njit
from . import bohnanza, duel, mafia, takeover
from .common import K_BOHNANZA, K_DUEL, K_TAKEOVER, OVER, P_ACTIONS, P_AUTO, P_KERNEL, finish_row, set_mask


@njit(cache=True)
def _legal(L, S, X, g, params, out, where):
    if params[P_KERNEL] == K_DUEL:
        return duel.legal(L, S, g, params, out, where)
    if params[P_KERNEL] == K_BOHNANZA:
        return bohnanza.legal(L, S, X, g, params, out, where)
    if params[P_KERNEL] == K_TAKEOVER:
        return takeover.legal(L, S, X, g, params, out, where)
    return mafia.legal(L, S, g, params, out, where)


@njit(cache=True)
def _apply(L, S, C, M, X, g, params, a):
    if params[P_KERNEL] == K_DUEL:
        duel.apply(L, S, C, M, g, params, a)
    elif params[P_KERNEL] == K_BOHNANZA:
        bohnanza.apply(L, S, C, M, X, g, params, a)
    elif params[P_KERNEL] == K_TAKEOVER:
        takeover.apply(L, S, C, M, X, g, params, a)
    else:
        mafia.apply(L, S, C, M, g, params, a)


@njit(cache=True)
def advance(L, S, C, M, X, g, params, bonus, legal, where, rewards):
    """Apply forced decisions (``params[P_AUTO]``), then add what game ``g`` pays now to ``rewards[g]``."""
    if params[P_AUTO]:
        while not S[g, OVER]:
            if _legal(L, S, X, g, params, legal, where) != 1:
                break
            _apply(L, S, C, M, X, g, params, legal[0])
    if params[P_KERNEL] == K_DUEL:
        duel.pay(S, g, params, bonus, rewards)
    elif params[P_KERNEL] == K_BOHNANZA:
        bohnanza.pay(S, g, params, bonus, rewards)
    elif params[P_KERNEL] == K_TAKEOVER:
        takeover.pay(S, g, params, bonus, rewards)
    else:
        mafia.pay(S, g, params, bonus, rewards)


@njit(cache=True)
def step(L, S, C, M, X, actions, slots, params, bonus, rewards, over):
    """Apply ``actions[g]`` in each game ``g`` of ``slots`` (legal, not checked) and the forced moves
    after it; ``rewards[g]`` gets what the step paid, ``over[g]`` whether the game ended."""
    legal = np.empty(params[P_ACTIONS], np.int64)
    where = np.empty(3, np.int64)
    for g in slots:
        _apply(L, S, C, M, X, g, params, actions[g])
        advance(L, S, C, M, X, g, params, bonus, legal, where, rewards)
        over[g] = S[g, OVER] != 0


@njit(cache=True)
def observe(L, S, C, X, slots, me, params, starts, scale, obs, masks, legal, where, with_obs):
    """Mask and (``with_obs``) observation of seat ``me[g]`` of each game ``g`` in ``slots``, into its
    rows of ``masks`` and ``obs`` (positions of the variant's ``PLACED`` blocks: ``starts``)."""
    for g in slots:
        if with_obs:
            row = obs[g]
            if params[P_KERNEL] == K_DUEL:
                duel.write_obs(L, S, C, g, params, me[g], row, starts)
            elif params[P_KERNEL] == K_BOHNANZA:
                bohnanza.write_obs(L, S, C, g, params, me[g], row, starts)
            elif params[P_KERNEL] == K_TAKEOVER:
                takeover.write_obs(L, S, C, g, params, me[g], row, starts)
            else:
                mafia.write_obs(L, S, C, g, params, me[g], row, starts)
            finish_row(row, scale)
        set_mask(masks, g, legal, _legal(L, S, X, g, params, legal, where))
