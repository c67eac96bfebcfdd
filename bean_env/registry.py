"""The agent registry: agent names to factories, and agent *specs* checked before anything is built.

    from bean_env.registry import make_agent, parse_spec, describe_agent
    agent = make_agent("mcts:simulations=50", seed=1)     # or make_agent("mcts", seed=1, simulations=50)
    parse_spec("mcts:sims=5")                              # ValueError listing mcts's options

Terms:
- *factory*: a callable ``factory(seed=None, **options) -> agent``, or an *entry point*: an import path
  ``"package.module:attribute"`` loaded only when first needed (as gymnasium's env entry points), so
  this module imports no agent code and optional dependencies (torch) load only for the agents that
  need them.
- *agent spec*: ``name`` or ``name:key=value[,key=value...]`` (``:`` also separates options, so
  ``mcts:simulations=50:rollout=heuristic`` works too). Values are read by the type of the factory's
  parameter (``int``, ``float``, ``bool``: ``1/0, yes/no, true/false, on/off``; ``none`` where ``None`` is
  allowed). ``seed=N`` in a spec fixes the agent's seed (it wins over the seed a caller passes).
- *options* of an agent: its factory's keyword parameters other than ``seed``, read from the
  signature (type annotations and defaults; importing the factory's module, never building an agent),
  plus allowed values given at registration (``choices``).

The built-in agents (``random``, ``heuristic``, ``mcts``, ``ppo``, ``llm``) are registered at the end of this
module as entry points into ``bean_env.agents`` (which re-exports this registry), so the envs can name
opponents without importing the agents package. This module sits beside the engine at the bottom of
the stack: it imports nothing of bean_env.
"""
from __future__ import annotations

import importlib
import inspect
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Sequence, Union

Factory = Union[Callable[..., Any], str]

AGENTS: dict[str, Factory] = {}          # name -> factory (a callable or a "module:attribute" entry point)
_DOCS: dict[str, str] = {}               # name -> one-line description
_CHOICES: dict[str, dict[str, tuple]] = {}   # name -> {option: allowed values}

_TRUE = ("1", "true", "yes", "on", "y", "t")
_FALSE = ("0", "false", "no", "off", "n", "f")
_NONE = ("none", "null")


def parse_bool(text: str | bool | int) -> bool:
    """``1/0``, ``yes/no``, ``true/false``, ``on/off`` (any case) as a bool; anything else is a ValueError."""
    if isinstance(text, bool):
        return text
    if isinstance(text, numbers.Integral) and int(text) in (0, 1):
        return bool(text)
    low = str(text).strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"not a yes/no value: {text!r}; allowed: 1/0, yes/no, true/false, on/off")


# -- registration -----------------------------------------------------------------------------------------
def register_agent(name: str, factory: Factory, replace: bool = False, doc: str | None = None,
                   choices: dict[str, Sequence] | None = None) -> None:
    """Register ``factory`` under ``name`` (``replace=True`` to overwrite a different factory).

    ``doc``: a one-line description for ``bean-env list``; ``choices``: allowed values of options whose
    type alone does not say them (``{"rollout": ("random", "heuristic")}``).
    """
    if not isinstance(name, str) or not name or any(c in name for c in ":,= "):
        raise ValueError(f"bad agent name {name!r}: a non-empty name without ':', ',', '=' or spaces")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError(f"bad factory {factory!r} for agent {name!r}: a callable or a 'module:attribute' path")
    if name in AGENTS and not replace and AGENTS[name] != factory:
        raise ValueError(f"agent {name!r} is already registered; pass replace=True to overwrite it")
    AGENTS[name] = factory
    if doc is not None:
        _DOCS[name] = doc
    if choices is not None:
        _CHOICES[name] = {k: tuple(v) for k, v in choices.items()}


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(AGENTS)


def agent_doc(name: str) -> str:
    """The one-line description given at registration ('' if none)."""
    return _DOCS.get(name, "")


def _unknown(name: str) -> ValueError:
    return ValueError(f"unknown agent {name!r}; allowed: {', '.join(agent_names())}")


def _load(factory: Factory) -> Callable[..., Any]:
    """The callable of a factory (imports an entry point's module)."""
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    return factory


def load_factory(name: str) -> Callable[..., Any]:
    """The factory callable of a registered agent."""
    if name not in AGENTS:
        raise _unknown(name)
    return _load(AGENTS[name])


# -- options ---------------------------------------------------------------------------------------------
_TYPES: dict[str, tuple] = {"int": (int,), "float": (float,), "bool": (bool,), "str": (str,),
                            "Path": (str,), "None": (type(None),)}


@dataclass(frozen=True)
class AgentOption:
    """One keyword option of an agent factory."""

    name: str
    types: tuple[str, ...]       # annotation parts, e.g. ("int", "None"); () if unannotated
    default: Any
    choices: tuple = ()
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty

    def describe(self) -> str:
        """``simulations: int = 100`` or ``rollout: one of 'random', 'heuristic' = 'random'``."""
        kind = ("one of " + ", ".join(repr(c) for c in self.choices)) if self.choices else \
            (" or ".join(self.types) or "any")
        return f"{self.name}: {kind}" + ("" if self.required else f" = {self.default!r}")

    def describe_long(self) -> str:
        """``describe()`` plus the option's doc."""
        return self.describe() + (f"  ({self.doc})" if self.doc else "")

    def convert(self, agent: str, value: Any) -> Any:
        """``value`` (spec text or a Python value) as this option's type; a ValueError names what is wrong."""
        try:
            out = self._convert(value)
        except ValueError:
            raise ValueError(f"bad value {value!r} for option {self.name!r} of agent {agent!r}; "
                             f"allowed: {self.describe()}") from None
        if self.choices and out not in self.choices:
            raise ValueError(f"bad value {value!r} for option {self.name!r} of agent {agent!r}; "
                             f"allowed: {', '.join(repr(c) for c in self.choices)}")
        return out

    def _convert(self, value: Any) -> Any:
        types = set(self.types)
        known = types & set(_TYPES)
        if not types or known != types:          # unannotated, or a type we cannot check: pass it through
            return parse_value(value) if isinstance(value, str) and not types else value
        if isinstance(value, str):
            low = value.strip().lower()
            if "None" in types and low in _NONE:
                return None
            for t in ("bool", "int", "float"):
                if t in types:
                    try:
                        return parse_bool(value) if t == "bool" else (int(value) if t == "int" else float(value))
                    except ValueError:
                        pass
            if types & {"str", "Path"}:
                return value
            raise ValueError(value)
        if value is None:
            if "None" in types:
                return None
            raise ValueError(value)
        if "bool" in types and isinstance(value, bool):
            return value
        if isinstance(value, bool):
            raise ValueError(value)             # True is no number here
        if "int" in types and isinstance(value, numbers.Integral):
            return int(value)
        if "float" in types and isinstance(value, numbers.Real):
            return float(value)
        if types & {"str", "Path"} and (isinstance(value, str) or hasattr(value, "__fspath__")):
            return value
        raise ValueError(value)


def _annotation_parts(annotation: Any) -> tuple[str, ...]:
    if annotation is inspect.Parameter.empty:
        return ()
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    text = text.replace("typing.", "").replace("Optional[", "None | ").replace("Union[", "").replace("]", "")
    parts = (p.strip().rsplit(".", 1)[-1] for p in text.replace(",", "|").split("|"))
    return tuple(p if p != "NoneType" else "None" for p in parts if p)


def _option_docs(factory: Any) -> dict[str, str]:
    """Option docs from the factory's docstrings: phrases ````name``: text`` up to the next such phrase,
    a blank line or the end."""
    import re

    own_init = vars(factory).get("__init__") if isinstance(factory, type) else None
    text = "\n".join(inspect.cleandoc(d) for d in (getattr(factory, "__doc__", None),
                                                    getattr(own_init, "__doc__", None)) if d)
    found = {}
    for m in re.finditer(r"``(\w+)``:\s*(.*?)(?=[;,.]?\s*``\w+``:|\n\s*\n|\Z)", text, re.S):
        found.setdefault(m.group(1), " ".join(m.group(2).replace("``", "").split()).rstrip(";."))
    return found


def agent_options(name: str) -> dict[str, AgentOption] | None:
    """The keyword options of agent ``name`` from its factory's signature (``None``: it takes any ``**kw``)."""
    factory = load_factory(name)
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    choices = _CHOICES.get(name, {})
    docs = _option_docs(factory)
    out: dict[str, AgentOption] = {}
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            return None
        if p.name == "seed" or p.kind in (p.VAR_POSITIONAL, p.POSITIONAL_ONLY):
            continue
        types = _annotation_parts(p.annotation)
        if not types and p.default is not p.empty and p.default is not None:
            types = (type(p.default).__name__,)     # unannotated: the default's type
        out[p.name] = AgentOption(p.name, types, p.default, choices.get(p.name, ()), docs.get(p.name, ""))
    return out


def describe_agent(name: str) -> str:
    """``mcts: <doc>; options: simulations: int = 100, ...`` for listings and error messages."""
    try:
        options = agent_options(name)
    except ImportError as exc:
        return f"{name}: {_DOCS.get(name, '')} (not importable here: {exc})".replace(":  (", ": (")
    if options is None:
        opts = "any keyword options"
    else:
        opts = "; ".join(o.describe() for o in options.values()) or "none"
    doc = _DOCS.get(name)
    return f"{name}{': ' + doc if doc else ''} (options: {opts})"


# -- specs ------------------------------------------------------------------------------------------------
def parse_value(text: str) -> Any:
    """Untyped spec text: ``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"`` -> True, ``"none"`` -> None, else text."""
    low = text.strip().lower()
    if low in ("true", "false", "yes", "no", "on", "off"):
        return parse_bool(low)
    if low in _NONE:
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:simulations=50,rollout=random"`` -> ``("mcts", {"simulations": "50", "rollout": "random"})``
    (values stay text; no check against the registry)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"bad agent spec {spec!r}: expected name[:key=value,...]")
    name, _, rest = spec.strip().partition(":")
    raw: dict[str, str] = {}
    last = None
    for part in rest.replace(",", ":").split(":") if rest else ():
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq and last is not None:      # "complete=pkg.mod:fn": a value holding ':' (an import path)
            raw[last] += ":" + part.strip()
            continue
        if not eq or not key:
            raise ValueError(f"bad agent spec {spec!r}: expected name[:key=value,...], got {part!r}")
        if key in raw:
            raise ValueError(f"bad agent spec {spec!r}: option {key!r} given twice")
        raw[key] = value.strip()
        last = key
    return name.strip(), raw


def check_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` of agent ``name`` converted to their types; a ValueError names an unknown agent, an
    unknown option (listing the allowed ones) or a bad value. ``seed`` is allowed and converted."""
    if name not in AGENTS:
        raise _unknown(name)
    allowed = agent_options(name)
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key == "seed":
            out[key] = AgentOption("seed", ("int", "None"), None).convert(name, value)
        elif allowed is None:
            out[key] = parse_value(value) if isinstance(value, str) else value
        elif key not in allowed:
            listed = "; ".join(o.describe() for o in allowed.values()) or "none"
            raise ValueError(f"unknown option {key!r} for agent {name!r}; allowed options: {listed}")
        else:
            out[key] = allowed[key].convert(name, value)
    if allowed is not None:
        missing = [o.name for o in allowed.values() if o.required and o.name not in out]
        if missing:
            raise ValueError(f"agent {name!r} needs the option(s) {', '.join(missing)}")
    return out


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A checked agent spec: ``"mcts:simulations=50"`` -> ``("mcts", {"simulations": 50})``."""
    name, raw = split_spec(spec)
    return name, check_options(name, raw)


def make_agent(spec: str, seed: int | None = None, **kw: Any) -> Any:
    """A new agent from a name or spec, options checked before anything is built; seeded with ``seed``
    unless the spec gives ``seed=``. ``kw`` adds options (the same option in the spec and ``kw`` is an error)."""
    name, raw = split_spec(spec)
    clash = set(raw) & set(kw)
    if clash:
        raise ValueError(f"option(s) {', '.join(sorted(clash))} given both in the spec {spec!r} and as keywords")
    options = check_options(name, {**raw, **kw})
    seed = options.pop("seed", seed)
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise ValueError(f"bad seed {seed!r} for agent {name!r}; allowed: a whole number or None")
        seed = int(seed)                 # numpy integers too
    return load_factory(name)(seed=seed, **options)


# -- the built-in agents (entry points; nothing is imported here) ---------------------------------------
register_agent("random", "bean_env.agents.base:RandomAgent", doc="uniform choice among the legal actions")
register_agent("heuristic", "bean_env.agents.heuristic:HeuristicAgent",
               doc="rule-based play per variant family: planting by beanometer value, trading, takeovers",
               choices={"trading": ("generous", "fair")})
register_agent("mcts", "bean_env.agents.mcts:MCTSAgent",
               doc="Monte Carlo tree search over sampled deals of the unseen cards",
               choices={"rollout": ("random", "heuristic")})
register_agent("ppo", "bean_env.agents.ppo:PPOAgent",
               doc="a trained policy network (needs torch: the train extra); default: the shipped policy")
register_agent("llm", "bean_env.agents.llm:LLMAgent",
               doc="asks a language model: complete=<callable prompt -> reply> (bean_env.text prompts)")
