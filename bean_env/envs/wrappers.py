"""``OrderEnforcer``: PettingZoo's order checks for our AEC envs, without its per-access overhead.

PettingZoo's ``OrderEnforcingWrapper`` reaches every attribute of the wrapped env (``agent_selection``,
``rewards``, ``terminations``, ...) through ``__getattr__``, which Python calls only after a normal
lookup has failed, so each of the ~8 accesses of an ``agent_iter``/``last``/``step`` cycle pays for a
failed lookup and two Python calls. This wrapper gives the same checks with the same errors and
warnings (``AttributeError`` "<name> cannot be accessed before reset"; PettingZoo's ``EnvLogger``
errors for ``step``/``observe``/``render``/``state``/``agent_iter`` before ``reset``; its warning for
``step`` after every agent is done; the assertion that an ``agent_iter`` loop calls ``step``), but reads
the per-step attributes through properties and takes ``last()`` from the wrapped env in one call.
"""
from __future__ import annotations

from typing import Any

from pettingzoo.utils.env import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

#: attributes that exist only after ``reset()``
RESET_ATTRIBUTES = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection",
                              "num_agents", "agents"})


def _after_reset(name: str) -> property:
    """A read-only view of the wrapped env's ``name``, refused before ``reset()``."""
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    get.__name__ = name
    return property(get, doc=f"The wrapped env's ``{name}`` (after ``reset()``).")


class OrderEnforcer(BaseWrapper):
    """Refuses calls and attribute reads that come before ``reset()``, warns on ``step()`` after the
    episode ended, and checks that every ``agent_iter`` iteration calls ``step()``."""

    def __init__(self, env: AECEnv):
        if not isinstance(env, AECEnv):
            raise TypeError(f"OrderEnforcer wraps a PettingZoo AEC env, not {type(env).__name__}")
        self._has_reset = False
        self._has_updated = False
        super().__init__(env)

    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")
    agent_selection = _after_reset("agent_selection")
    agents = _after_reset("agents")
    _cumulative_rewards = _after_reset("_cumulative_rewards")

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self.env.agents)

    @property
    def possible_agents(self) -> list:
        return self.env.possible_agents

    def __getattr__(self, name: str) -> Any:
        # reached for names without a property here, or when a property above refused (before reset)
        if name in RESET_ATTRIBUTES and not self.__dict__.get("_has_reset", False):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    # -- the AEC API ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def render(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return self.env.render()

    def state(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return self.env.state()

    def agent_iter(self, max_iter: int = 2**63) -> "_CheckedAgents":
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedAgents(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _CheckedAgents:
    """The agents of an ``agent_iter`` loop; asserts that the loop body stepped (or reset) the env."""

    def __init__(self, wrapper: OrderEnforcer, max_iter: int):
        self.wrapper = wrapper
        self.env = wrapper.env
        self.left = max_iter

    def __iter__(self) -> "_CheckedAgents":
        return self

    def __next__(self) -> Any:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = self.wrapper
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection
