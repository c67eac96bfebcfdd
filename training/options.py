"""Command-line options from a dataclass of a trainer's arguments: one ``--kebab-case`` option per field,
its help the docstring written under the field (``Args`` of ``selfplay``, ``batched_ppo``, ``imitate``
and ``rllib.trainer``).
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
from dataclasses import dataclass
from typing import Optional


def hidden_widths(text: str) -> list[int]:
    """The hidden layer widths of ``--hidden`` (``"256,256"`` -> ``[256, 256]``); a ``ValueError`` names a
    value that is not one or more positive whole numbers separated by commas."""
    try:
        widths = [int(h) for h in str(text).split(",") if h.strip()]
    except ValueError:
        widths = []
    if not widths or min(widths) < 1:
        raise ValueError(f"bad value {text!r} for --hidden: expected positive whole numbers separated by commas, "
                         "e.g. 256,256")
    return widths


def agent_spec(flag: str, spec: str) -> str:
    """``spec``, an agent spec given as ``flag``, once the registry accepts it; a ``ValueError`` names the
    option and what the registry refused (unknown agent, option or value)."""
    from bean_env.registry import parse_spec

    try:
        parse_spec(spec)
    except ValueError as exc:
        raise ValueError(f"bad agent spec {spec!r} for {flag}: {exc}") from None
    return spec


@dataclass
class RunArgs:
    """The fields every trainer's ``Args`` starts with: the table it trains on, then the options of the
    run directory (``runs.Run``) it writes."""
    variant: str = "bean_duel"
    """variant to train on"""
    num_players: Optional[int] = None
    """number of players (default: the variant's default)"""
    rules: str = "{}"
    """other rule options of the variant as JSON, e.g. '{"trade_preset": "learning"}'"""
    out_dir: str = "runs"
    """folder of run directories"""
    run_name: Optional[str] = None
    """run directory name (default: one made of the trainer, the variant, the seed and the start time)"""
    resume: Optional[str] = None
    """run directory to continue from its latest checkpoint (options not given take the run's values)"""
    overwrite: bool = False
    """replace an existing run directory of the same name (default: refuse)"""
    time_limit: Optional[float] = None
    """stop after this many minutes of training, then checkpoint, evaluate and export as at the end"""
    export: Optional[str] = None
    """also write the final policy file pair here (e.g. agents/weights/bean_duel)"""
    torch_threads: int = 1
    """CPU threads of torch and of numpy's BLAS (threadpoolctl)"""


def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of the dataclass ``cls`` (and of the dataclasses it derives from),
    by field name."""
    docs: dict[str, str] = {}
    for klass in reversed([k for k in cls.__mro__ if dataclasses.is_dataclass(k)]):
        body = ast.parse(inspect.getsource(klass)).body[0].body
        for node, nxt in zip(body, body[1:]):
            if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
                docs[node.target.id] = str(nxt.value.value)
    return docs


def parse_bool(text: str) -> bool:
    """``true``/``false`` (also 1/0, yes/no, on/off) as an option value; an argparse error names the rest."""
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def add_arguments(parser: argparse.ArgumentParser, fields: type) -> argparse.ArgumentParser:
    """Add one ``--kebab-case`` option per field of the dataclass ``fields`` (int, float, str or bool,
    optional or not), defaulting to the field's default."""
    docs = field_docs(fields)
    for f in dataclasses.fields(fields):
        kind = {"int": int, "float": float, "str": str, "bool": parse_bool}[
            str(f.type).replace("Optional[", "").rstrip("]")]
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=f.default,
                            metavar="BOOL" if kind is parse_bool else kind.__name__.upper(),
                            help=f"{docs.get(f.name, '')} (default: {f.default})")
    return parser
