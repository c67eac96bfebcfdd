"""An agent that asks a language model: ``LLMAgent(complete)`` with any ``complete(prompt) -> str``.

The prompt is the variant's rules summary, the player's text observation (``bean_env.text``), the
numbered legal actions and the reply format. A reply that names no legal action is answered with the
parse error and the model is asked again (``retries`` times); after that, or if ``complete`` raises,
the ``fallback`` agent decides that step. After ``max_failures`` such failed decisions the model is not
asked again in this game. Every exchange is kept in ``transcript`` (and logged at DEBUG level on the
``bean_env.agents.llm`` logger). An offer line (``offer all give red want stink``) is composed into its
legal sub-decisions; the agent plays them one per ``act`` call without asking the model again.

Plugging in a client (see docs/agents.md):

    def complete(prompt: str) -> str:
        return client.chat.completions.create(model=..., messages=[{"role": "user", "content": prompt}]
                                              ).choices[0].message.content
    agent = make_agent("llm", complete=complete, seed=1)
"""
from __future__ import annotations

import importlib
import logging
import numbers
from typing import Any, Callable, Sequence, Union

from bean_env.engine.actions import Action
from bean_env.engine.views import PlayerView
from bean_env.text import ActionParseError, action_menu, observation_text, parse_actions
from bean_env.text.rules_summary import rules_summary

from .base import Agent, RandomAgent

log = logging.getLogger("bean_env.agents.llm")

Complete = Callable[[str], str]

REPLY_FORMAT = """\
Reply with exactly one line: the number of one legal action (e.g. `3`), or its text (e.g. `pass`).
Where offers are legal you may also write a whole offer on one line:
`offer all give red, blue want stink` (to one player: `offer player 2 ...`; give hand card 3: `#3`,
except where the legal actions list whole offers: then name given cards by type)."""


def _load(complete: Union[Complete, str]) -> Complete:
    if isinstance(complete, str):
        module, _, attr = complete.partition(":")
        if not attr:  # "package.module.function" (agent specs use ':' between options)
            module, _, attr = complete.rpartition(".")
        if not module or not attr:
            raise ValueError(f"bad complete {complete!r}; expected a callable or 'package.module:function'")
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        complete = obj
    if not callable(complete):
        raise ValueError(f"bad complete {complete!r}; expected a callable complete(prompt) -> str")
    return complete


def system_prompt(variant: str) -> str:
    """The fixed part of every prompt: role, rules summary, reply format."""
    return (f"You are playing the card game {variant} (Bohnanza family) as one player. "
            "Play to win.\n\nRules summary:\n" + rules_summary(variant) + "\n\n" + REPLY_FORMAT)


class LLMAgent(Agent):
    """Decides by asking ``complete(prompt) -> str``; see the module docstring."""

    name = "llm"

    def __init__(self, complete: Union[Complete, str, None] = None, seed: int | None = None,
                 retries: int = 2, fallback: Union[Agent, str] = "random", max_failures: int = 5,
                 system: str | None = None, last_actions: int = 8):
        if seed is not None and not isinstance(seed, bool) and isinstance(seed, numbers.Integral):
            seed = int(seed)  # numpy integers too
        super().__init__(seed)
        if complete is None:
            raise ValueError("LLMAgent needs complete=: a callable complete(prompt) -> str "
                             "or an import path 'package.module:function'")
        if not isinstance(retries, int) or retries < 0:
            raise ValueError(f"bad value {retries!r} for 'retries'; allowed: an int >= 0")
        if not isinstance(max_failures, int) or max_failures < 1:
            raise ValueError(f"bad value {max_failures!r} for 'max_failures'; allowed: an int >= 1")
        self.complete = _load(complete)
        self.retries = retries
        self.max_failures = max_failures
        self.system = system
        self.last_actions = last_actions
        if isinstance(fallback, str):
            if fallback == "random":
                fallback = RandomAgent(seed=self.rng.getrandbits(62))
            else:
                from .registry import make_agent
                fallback = make_agent(fallback, seed=self.rng.getrandbits(62))
        self.fallback = fallback
        self.transcript: list[dict] = []
        self.failures = 0
        self._plan: list[Action] = []

    def reset(self) -> None:
        self.transcript = []
        self.failures = 0
        self._plan = []
        self.fallback.reset()

    def prompt(self, view: PlayerView, legal: Sequence[Action]) -> str:
        head = self.system if self.system is not None else system_prompt(view.variant)
        return (head + "\n\nThe table now:\n" + observation_text(view, last_actions=self.last_actions)
                + "\n\nLegal actions:\n" + "\n".join(action_menu(view, legal))
                + "\n\nYour action:")

    def _record(self, view: PlayerView, **entry) -> None:
        entry = {"player": view.player, "turn": view.state.turn, "decision": view.decision, **entry}
        self.transcript.append(entry)
        log.debug("%s", entry)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        if self._plan:
            step = self._plan.pop(0)
            if step in legal:
                self._record(view, source="plan", action=str(step))
                return step
            self._plan = []
        if self.failures >= self.max_failures:
            return self._fallback(view, legal, "the model failed too often; fallback for the rest of the game")
        prompt = self.prompt(view, legal)
        for attempt in range(self.retries + 1):
            try:
                reply = self.complete(prompt)
            except Exception as e:  # a client error must not stop the game
                self._record(view, source="model", attempt=attempt, prompt=prompt, reply=None,
                             error=f"{type(e).__name__}: {e}")
                break
            try:
                if not isinstance(reply, str):
                    raise ActionParseError(repr(reply), f"the reply is a {type(reply).__name__}, not text", [])
                plan = parse_actions(_last_line(reply), view, legal)
            except ActionParseError as e:
                self._record(view, source="model", attempt=attempt, prompt=prompt, reply=reply, error=str(e))
                prompt = (prompt + f" {reply}\n\nThat reply was not accepted: {e}\n"
                          "Reply again with one legal action.\nYour action:")
                continue
            self._record(view, source="model", attempt=attempt, prompt=prompt, reply=reply,
                         action=str(plan[0]), plan=[str(a) for a in plan])
            self._plan = plan[1:]
            return plan[0]
        self.failures += 1
        return self._fallback(view, legal, f"failed decision {self.failures} of {self.max_failures}")

    def _fallback(self, view: PlayerView, legal: list[Action], why: str) -> Action:
        action = self.fallback.act(view, legal)
        self._record(view, source="fallback", action=str(action), note=why)
        return action

    def transcript_text(self, prompts: bool = False) -> str:
        """The transcript as readable lines (``prompts=True`` includes the full prompts)."""
        out = []
        for e in self.transcript:
            head = f"[P{e['player']} turn {e['turn']} {e['decision']}]"
            if prompts and e.get("prompt") and e.get("attempt") == 0:
                out.append(e["prompt"])
            if e["source"] == "model":
                line = f"{head} model replied {e.get('reply')!r}"
                line += f" -> {e['action']}" if "action" in e else f" -> rejected: {e['error']}"
            else:
                line = f"{head} {e['source']}: {e['action']}" + (f" ({e['note']})" if e.get("note") else "")
            out.append(line)
        return "\n".join(out)


def _last_line(reply: str) -> str:
    """The action line of a reply: a line starting ``action:`` if any, else the last non-empty line."""
    lines = [ln.strip() for ln in reply.strip().splitlines() if ln.strip()]
    for ln in lines:
        if ln.lower().startswith("action:"):
            return ln[7:].strip()
    return lines[-1] if lines else ""
