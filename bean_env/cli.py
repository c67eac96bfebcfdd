"""The ``bean-env`` command.

    bean-env --version
    bean-env list                                   variants, rule and env options, env ids, agents
    bean-env rules [ID|VARIANT|SECTION]             the rules reference (docs/rules.md), e.g. TRADE-6
    bean-env play bean_duel --opponents heuristic   play in the terminal against agents
    bean-env tournament bohnanza heuristic random random random --games 40
    bean-env replay game.json [--render]            print a recorded game step by step
    bean-env bench [engine_speed|throughput] ...    run the benchmark scripts of a source checkout
    bean-env train ...                              self-play training (the ``training`` package)

Rule options are given as ``-o key=value`` (e.g. ``-o num_players=4 -o edition=english``); agents as
specs ``name[:key=value,...]`` (e.g. ``mcts:simulations=50,rollout=heuristic``), checked before any game
starts (``bean_env.registry``). Counts (``--games``, ``--deals``, ``--workers``) must be >= 1; yes/no
options take 1/0, yes/no, true/false, on/off. A closed pipe (``bean-env list | head``) ends quietly.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from . import implemented, new_game
from .engine.actions import Action
from .engine.config import OPTIONS
from .render import render_game

# numpy's OpenBLAS runs a thread per core for each matrix product; the ppo agent's one-row forward passes
# then took 5-20x longer on a busy machine (2-8 ms against 0.4 ms per 4-player bohnanza decision). The
# command's processes (and their workers) use one BLAS thread unless the variable is set. It only acts
# if numpy is not loaded yet, which nothing above does (tests/cli checks it).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


# -- list -------------------------------------------------------------------------------------------------
_ENV_OPTION_FALLBACK = {  # used where the env modules' docstrings have no ``name`` bullet
    "learner_seat": "the seat the learner plays: a seat number, or 'random' (drawn at every reset)",
    "opponents": "the other seats' policies: an agent name or spec ('mcts:simulations=20'), an object with "
                 ".act(view, legal) or a callable; one for all, a list or {seat: policy}; None: uniform random",
}


def _env_option_docs() -> tuple[list[tuple[str, Any, str]], list[tuple[str, Any, str]]]:
    """(name, default, doc) of the AEC env's and the single-agent env's own options (from their
    signatures; docs from the option bullets of the modules' docstrings)."""
    import inspect
    import re

    from .envs import aec, single_agent

    def docs_of(module) -> dict[str, str]:
        text = module.__doc__ or ""
        found = {}
        for m in re.finditer(r"^- ``(\w+)``[^:]*:\s*(.*?)(?=^\S|^- |\Z)", text, re.M | re.S):
            found[m.group(1)] = " ".join(m.group(2).replace("``", "").split())
        return found

    def options(cls, module, skip=()) -> list[tuple[str, Any, str]]:
        docs = {**_ENV_OPTION_FALLBACK, **docs_of(aec), **docs_of(module)}
        out = []
        for p in inspect.signature(cls.__init__).parameters.values():
            if p.name == "self" or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) or p.name in skip:
                continue
            out.append((p.name, None if p.default is p.empty else p.default, docs.get(p.name, "")))
        return out

    return (options(aec.BeanAECEnv, aec),
            options(single_agent.SingleAgentEnv, single_agent, skip=("variant",)))


def cmd_list(args, out: TextIO) -> int:
    from .envs.registration import aec_id, available_variants, gym_id
    from .registry import agent_doc, agent_names, agent_options

    envs = set(available_variants())
    print("variants, their rule options (-o key=value; yes/no options also take 1/0, yes/no, on/off) "
          "and env ids:", file=out)
    for v in implemented():
        print(f"\n  {v}:  (rules: bean-env rules {v})", file=out)
        if v in envs:
            print(f"    PettingZoo: pettingzoo.make(\"aec\", \"{aec_id(v)}\")   "
                  f"gymnasium: gymnasium.make(\"{gym_id(v)}\")", file=out)
        for o in OPTIONS.get(v, {}).values():
            print(f"    {o.name} = {o.default!r}   allowed: {o.allowed}", file=out)
            print(f"        {o.doc}", file=out)
    try:
        aec_opts, gym_opts = _env_option_docs()
    except ImportError as exc:  # pettingzoo/gymnasium missing: show the rest
        print(f"\nenv options: not available here ({exc})", file=out)
    else:
        print("\nenv options (besides the rule options), AEC env (pettingzoo):", file=out)
        for name, default, doc in aec_opts:
            print(f"    {name} = {default!r}   {doc}", file=out)
        print("single-agent env (gymnasium) also:", file=out)
        names = {n for n, _, _ in aec_opts}
        for name, default, doc in gym_opts:
            if name not in names:
                print(f"    {name} = {default!r}   {doc}", file=out)
    print("\nagents (a spec is a name or name:key=value,...; e.g. mcts:simulations=50,rollout=heuristic):",
          file=out)
    for name in agent_names():
        print(f"  {name}: {agent_doc(name)}", file=out)
        try:
            opts = agent_options(name)
        except ImportError as exc:
            print(f"    (options not available here: {exc})", file=out)
            continue
        if opts is None:
            print("    options: any keyword options", file=out)
        for o in (opts or {}).values():
            print(f"    {o.describe_long()}", file=out)
        if name == "ppo":
            print("    shipped policies (the agent picks the one trained for the table; others need checkpoint=):",
                  file=out)
            for line in _shipped_policy_lines():
                print(f"      {line}", file=out)
    return 0


def _shipped_policy_lines() -> list[str]:
    """One line per shipped policy: its variant and the rule options that name its table."""
    from .agents.ppo import shipped_configs, shipped_variants
    from .engine.config import validate

    lines = []
    for variant in shipped_variants():
        default = validate(variant, {})
        for config in shipped_configs(variant):
            named = {k: v for k, v in config.items() if k in ("num_players", "trade_preset", "edition")
                     and (k == "num_players" or v != default.get(k))}
            preset = validate(variant, dict(named))
            other = sorted(k for k in config if config[k] != preset.get(k))
            opts = ", ".join(f"{k}={v}" for k, v in named.items()) + (f", {', '.join(other)} changed" if other else "")
            lines.append(f"{variant} ({opts})")
    return lines


# -- play -------------------------------------------------------------------------------------------------
def cmd_play(args, out: TextIO, inp: TextIO) -> int:
    from .play import run_play
    return run_play(args, out, inp)


# -- rules ----------------------------------------------------------------------------------------------
def cmd_rules(args, out: TextIO) -> int:
    from .rules_doc import lookup

    print(lookup(args.topic), file=out)
    return 0


# -- replay -----------------------------------------------------------------------------------------------
def load_record(path: str) -> dict:
    """A game record from a file: ``game.record()`` JSON or ``game.to_json()`` output, checked by
    ``engine.loading`` (raises ``GameFileError`` naming the file and what is wrong)."""
    from .engine.loading import load_path
    return load_path(path).record()


def cmd_replay(args, out: TextIO) -> int:
    from .engine.loading import GameFileError
    try:
        record = load_record(args.file)
    except GameFileError as exc:
        print(f"bean-env: error: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "html", None):
        from .replay_html import write_replay_html
        print(f"wrote {write_replay_html(record, args.html)}", file=out)
        return 0
    game = new_game(record["variant"], seed=record["seed"], **record.get("config", {}))
    print(f"{record['variant']} {record.get('config', {})} seed {record['seed']}: "
          f"{len(record['actions'])} actions", file=out)
    for i, a in enumerate(record["actions"], start=1):
        action = Action.from_json(a) if isinstance(a, list) else a
        if args.render:
            print("\n" + render_game(game), file=out)
        print(f"{i:5d}. player {game.current_player} [{game.decision}] {action}", file=out)
        game.apply(action)
    print("\n" + render_game(game), file=out)
    return 0


# -- bench and train ---------------------------------------------------------------------------------------
BENCH_SCRIPTS = ("engine_speed.py", "throughput.py")


def cmd_bench(args, out: TextIO) -> int:
    root = Path(__file__).resolve().parents[1] / "benchmarks"
    rest = list(args.bench_args)
    wanted = BENCH_SCRIPTS
    if rest and rest[0] in {n[:-3] for n in BENCH_SCRIPTS}:  # `bean-env bench throughput ...`: that one only
        wanted, rest = (rest[0] + ".py",), rest[1:]
    scripts = [root / name for name in wanted if (root / name).exists()]
    if not scripts:
        raise ValueError(f"no benchmark scripts ({', '.join(BENCH_SCRIPTS)}) in {root}; "
                         "run bean-env bench from a source checkout")
    code = 0
    for script in scripts:
        print(f"== {script.name}", file=out)
        out.flush()
        code = max(code, subprocess.call([sys.executable, str(script), *rest]))
    return code


def cmd_train(args, out: TextIO) -> int:
    try:
        from bean_env.training.cli import main as train_main
    except ImportError as exc:
        raise ValueError(f"training is not available ({exc}); "
                         "install the extra: pip install 'bean-env[train]'") from exc
    return int(train_main(list(args.train_args)) or 0)


# -- entry point -------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    from bean_env.agents.tournament import add_arguments

    parser = argparse.ArgumentParser(prog="bean-env", description="Bohnanza environments: play, "
                                     "tournaments, replays, rules, benchmarks and training.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub.add_parser("list", help="variants, rule options with allowed values, env ids and options, agents "
                   "and their options")
    p = sub.add_parser("rules", help="print the rules: one rule (e.g. TRADE-6), a variant's rules, or all")
    p.add_argument("topic", nargs="?", default=None, metavar="ID|VARIANT",
                   help="a rule ID such as TRADE-6, a variant such as bean_duel, a section ('Text cards'), a "
                        "rule family (TXT) or words of a rule title (jokerbohne); nothing for the index")
    p = sub.add_parser("play", help="play a game in the terminal against agents")
    p.add_argument("variant", nargs="?", default="bean_duel")
    p.add_argument("--opponents", nargs="*", default=[], metavar="AGENT",
                   help="agent specs for the other seats (default heuristic; the last one fills up)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, default=None, help="game seed (default random)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option")
    p.add_argument("--save", metavar="FILE", default=None, help="write the game record (JSON) to FILE at the end")
    p = sub.add_parser("tournament", help="a tournament with ratings and reports")
    add_arguments(p)
    p = sub.add_parser("replay", help="print a recorded game step by step")
    p.add_argument("file", help="a game record (JSON of game.record() or game.to_json())")
    p.add_argument("--render", action="store_true", help="show the table before every action")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML replay viewer to OUT instead")
    p = sub.add_parser("bench", help="run the benchmark scripts (benchmarks/engine_speed.py, throughput.py)")
    p.add_argument("bench_args", nargs=argparse.REMAINDER,
                   help="[engine_speed|throughput] then arguments passed to the script(s)")
    p = sub.add_parser("train", help="self-play training: 'train batched' (recommended on one machine), "
                       "'train rllib' (RLlib PPO, for clusters), or plain 'train' (SB3 MaskablePPO)", add_help=False)
    p.add_argument("train_args", nargs=argparse.REMAINDER, help="arguments of the training command")
    return parser


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("bean-env")
    except Exception:  # not installed (a bare checkout on sys.path)
        from . import __version__
        return __version__


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the command; ``| head`` and other closed pipes end it quietly."""
    try:
        return _main(argv, stdin, stdout)
    except BrokenPipeError:
        # the reader went away (`bean-env list | head`): no traceback; point the real stdout at
        # /dev/null so that Python's final flush does not fail again
        if stdout is None:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):
                pass
        return 0


def _main(argv: Sequence[str] | None, stdin: TextIO | None, stdout: TextIO | None) -> int:
    out = stdout or sys.stdout
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse leaves leading --options of REMAINDER arguments unparsed: hand them to `train`
        if args.command != "train":
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        args.train_args = unknown + list(args.train_args)
    try:
        if args.command == "list":
            return cmd_list(args, out)
        if args.command == "rules":
            return cmd_rules(args, out)
        if args.command == "play":
            return cmd_play(args, out, stdin or sys.stdin)
        if args.command == "tournament":
            from bean_env.agents.tournament import run_from_args
            run_from_args(args)
            return 0
        if args.command == "replay":
            return cmd_replay(args, out)
        if args.command == "bench":
            return cmd_bench(args, out)
        return cmd_train(args, out)
    except (ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
