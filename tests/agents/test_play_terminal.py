"""Terminal play (``bean-env play``, ``bean_env.play``): commands, the screen, one-line offers with a free
undo and reasons, trade lines, the seed, ``--save`` and a quiet Ctrl-C; through scripted stdin, a
pseudo-terminal and a real terminal (tmux)."""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import bean_env
from bean_env.cards import NAMES, TYPES
from bean_env.cli import main
from bean_env.engine.actions import TEXT_NAMES, Kind
from bean_env.engine.game import replay
from bean_env.engine.positions import make_position
from bean_env.play import DECISIONS, TEXT_EFFECTS, PlaySession

REPO = Path(__file__).resolve().parents[2]


def _run(argv, stdin: str = ""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


class Scripted:
    """An opponent that accepts every offer it can and otherwise takes the first legal action."""

    def act(self, view, legal):
        return next((a for a in legal if a.kind == Kind.ACCEPT), legal[0])


def _session(game, script: str, seat: int = 0):
    out = io.StringIO()
    agents = {p: Scripted() for p in range(game.num_players) if p != seat}
    names = {p: "scripted" for p in agents}
    session = PlaySession(game, seat, agents, names, out, io.StringIO(script))
    return session, out


def _trade_position():
    return make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["red", "blue", "red"], ["soy", "chili"], ["green"]],
                         face_up=["stink", "garden"], seed=1)


def test_play_help_and_question_mark_list_the_commands():
    code, text = _run(["play", "bean_duel", "--seed", "3", "--opponents", "random"], "help\n?\nq\n")
    assert code == 1
    assert text.count("commands:") == 2
    assert "offer TARGET [give CARDS] [want CARDS]" in text and "undo" in text


def test_play_prints_the_seed_and_a_screen_with_beanometers_words_and_card_labels():
    code, text = _run(["play", "bean_duel", "--seed", "3", "--opponents", "random"], "q\n")
    assert code == 1
    assert "seed 3 (play this deal again with --seed 3)" in text.splitlines()[1]
    game = bean_env.new_game("bean_duel", seed=3)
    for t in game.rules.composition():
        assert f"{NAMES[t]} " + "/".join("-" if m is None else str(m) for m in TYPES[t].meter) in text
    for needed in ("deck ", "discard ", "run-outs ", "coins", "fields", "your hand (front first): "):
        assert needed in text
    decision = re.search(r"decision '(\w+)': (.*)", text)
    assert decision and decision.group(2) == DECISIONS[decision.group(1)]
    menu = [line for line in text.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert menu and not any(re.search(r"\. plant field \d", line) for line in menu)
    assert any(re.search(r"\. (plant|discard) [a-z_]+ (on field \d|\(hand card \d+\))", line) or "discard" in line
               for line in menu)


def test_play_labels_hand_actions_with_card_names():
    game = make_position("bohnanza", phase="plant", num_players=3, active=0,
                         hands=[["chili", "red"], ["soy"], ["green"]], seed=2)
    session, out = _session(game, "1\n1\nq\n")
    session.run()
    text = out.getvalue()
    assert "1. plant chili on field 1" in text and "1. plant red on field 2" in text


def test_play_takeover_text_cards_are_shown_with_their_effects():
    """HT-2/TXT-*: the person's text cards are listed with what they do."""
    code, text = _run(["play", "hostile_takeover", "--seed", "4", "--opponents", "random"], "q\n")
    assert code == 1
    section = text.split("your text cards:")[1].splitlines()[1:]
    listed = [line.strip() for line in section if line.startswith("  ") and ": " in line
              and line.strip().split(": ")[0] in TEXT_NAMES]
    assert listed
    for line in listed:
        name, effect = line.split(": ", 1)
        code = TEXT_NAMES.index(name)
        assert effect == f"{TEXT_EFFECTS[code]} (TXT-{code + 1})"
    assert "your hand (no order)" in text


def test_play_one_line_offer_is_composed_through_the_sub_decisions_and_the_trade_is_reported():
    """TRADE-1/2/4, AGT-2: `offer 1 give red want soy` makes OFFER, GIVE_HAND, WANT, SUBMIT; P1
    accepts; a 'trade done' line names both sides."""
    game = _trade_position()
    start = len(game.history)
    session, out = _session(game, "offer 1 give red@3 want soy\nq\n")
    session.run()
    text = out.getvalue()
    assert "trade done: P0 gives red to P1 for soy" in text
    kinds = [a.kind for a in session.game.history[start:start + 4]]
    assert kinds == [Kind.OFFER, Kind.GIVE_HAND, Kind.WANT, Kind.SUBMIT]
    assert session.game.history[start + 1].a == 2  # hand card 3, as asked


@pytest.mark.parametrize("line,hand,trade", [
    ("offer 1 give stink want soy", [], ["stink"]),        # a plain name: the trade area's card first
    ("offer 1 give area:garden, 2 reds", [0, 2], ["garden"]),
    ("offer 1 give #2 and hand red", [0, 1], []),
    ("offer all give red@3", [2], []),
])
def test_play_offer_line_names_cards_by_type_position_or_place(line, hand, trade):
    """TRADE-1/2: which cards a one-line offer gives (hand positions and trade-area types)."""
    game = _trade_position()
    start = len(game.history)
    session, out = _session(game, f"{line}\nq\n")
    session.run()
    steps = session.game.history[start:]
    steps = steps[:[a.kind for a in steps].index(Kind.SUBMIT)]
    assert [a.a for a in steps if a.kind == Kind.GIVE_HAND] == hand, out.getvalue()[-600:]
    assert [NAMES[a.a] for a in steps if a.kind == Kind.GIVE_TRADE] == trade


@pytest.mark.parametrize("line,reason", [
    ("offer 1 give chili want soy", "you have no chili to give (your hand: red, blue, red)"),
    ("offer 1 give red,red,red want soy", "you have no more red to give"),
    ("offer 2 want green,green", "you may want at most 1 cards: no addressee has more tradable cards (TRADE-2)"),
    ("offer 1 give red@2", "hand card 2 is blue, not red"),
    ("offer 1 give nonsense", "unknown card 'nonsense'"),
    ("offer 0 give red", "you cannot offer to yourself"),
    ("offer 1 give area red", "the trade area has no red"),
    ("offer 1 give #9", "there is no hand card 9; your hand has 3 cards"),
    ("offer all", "an offer must give or want at least one card"),
])
def test_play_offer_errors_say_why_and_change_nothing(line, reason):
    game = _trade_position()
    before = game.to_json()
    session, out = _session(game, f"{line}\nq\n")
    session.run()
    assert f"offer not possible: {reason}" in out.getvalue()
    assert session.game.to_json() == before


def test_play_offer_by_a_passive_player_must_go_to_the_active_player():
    game = make_position("bohnanza", phase="trade", num_players=3, active=1,
                         hands=[["red"], ["soy", "chili"], ["green"]], face_up=["stink", "garden"], seed=1)
    game.apply("pass")  # the active player P1 passes: P2's slot, then P0's
    while game.current_player != 0:
        game.apply("pass")
    session, out = _session(game, "offer 2 give red\nq\n")
    session.run()
    assert "you may only offer to the active player P1 (TRADE-1)" in out.getvalue()


def test_play_undo_inside_composition_costs_nothing():
    """AGT-2: steps of an offer being built are taken back for free: the slot is not used up."""
    game = _trade_position()
    before = game.to_json()
    script = "offer to player 1\ngive red (hand card 1)\nwant soy\nundo\nundo\nundo\nundo\nq\n"
    session, out = _session(game, script)
    session.run()
    text = out.getvalue()
    assert text.count("undone: ") == 3
    assert "undone: want soy" in text and "undone: give red (hand card 1)" in text
    assert "undone: offer to player 1" in text and "nothing to undo" in text
    assert session.game.to_json() == before and session.game.decision == "offer"


def test_play_composition_steps_that_are_not_legal_say_why():
    game = _trade_position()
    session, out = _session(game, "offer to player 1\nwant soy\ngive hand card 1\nq\n")
    session.run()
    assert "why: give hand cards first" in out.getvalue()


def test_play_save_writes_a_replayable_record(tmp_path):
    path = tmp_path / "game.json"
    code, text = _run(["play", "bean_duel", "--seed", "5", "--opponents", "random", "--save", str(path)],
                      "1\n" * 3000)
    assert code == 0 and "game record saved to" in text
    record = json.loads(path.read_text())
    game = replay(record)
    assert game.is_over and f"scores {game.scores()}" in text
    # an abandoned game is saved too
    code, _ = _run(["play", "bean_duel", "--seed", "5", "--save", str(path)], "q\n")
    assert code == 1 and json.loads(path.read_text())["seed"] == 5


def test_play_ctrl_c_in_the_prompt_exits_quietly():
    class Interrupting(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    out = io.StringIO()
    code = main(["play", "bean_duel", "--seed", "2"], stdin=Interrupting(), stdout=out)
    assert code == 130 and out.getvalue().rstrip().endswith("interrupted: game abandoned")


def test_play_in_a_pseudo_terminal_survives_ctrl_c():
    """A real SIGINT from the terminal (Ctrl-C in a pty) ends the game without a traceback."""
    import pty
    import select
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal, Ctrl-C delivered as in a terminal
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # even when the test itself runs in the background
        os.execv(sys.executable, [sys.executable, "-m", "bean_env.cli", "play", "bean_duel", "--seed", "7",
                                  "--opponents", "random"])
    seen = b""
    deadline = time.time() + 60
    try:
        while b"your choice" not in seen and time.time() < deadline:
            if select.select([fd], [], [], 1)[0]:
                seen += os.read(fd, 65536)
        assert b"your choice" in seen
        os.write(fd, b"help\n")
        while b"commands:" not in seen and time.time() < deadline:
            if select.select([fd], [], [], 1)[0]:
                seen += os.read(fd, 65536)
        os.write(fd, b"\x03")
        while time.time() < deadline:
            if select.select([fd], [], [], 1)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
        while time.time() < deadline + 10:  # bounded: a game that ignored Ctrl-C fails the test, not hangs
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.2)
        assert done, "the game did not exit after Ctrl-C"
        pid = 0
    finally:
        os.close(fd)
        if pid:  # a failed wait above: never leave the game running behind the test
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    text = seen.decode(errors="replace")
    assert "commands:" in text and "interrupted: game abandoned" in text
    assert "Traceback" not in text and os.WEXITSTATUS(status) == 130


def _tmux_or_skip() -> str:
    tmux = shutil.which("tmux")
    if tmux:
        return tmux
    ci = REPO / ".ci" / "run"
    if ci.exists() and "tmux" in ci.read_text():
        pytest.skip("tmux is not installed here; .ci/run installs it")
    pytest.fail("tmux is needed for the real-terminal test (apt-get install -y tmux)")


def test_play_in_a_real_terminal_with_tmux():
    """The screen in a real terminal: scripted keys, the layout read back from the pane, Ctrl-C."""
    tmux = _tmux_or_skip()
    sock = f"bean-env-test-{uuid.uuid4().hex[:8]}"
    base = [tmux, "-L", sock]
    cmd = (f"{sys.executable} -m bean_env.cli play bohnanza -o num_players=3 --seed 11 --opponents random; "
           "echo EXIT=$?; sleep 60")

    def pane() -> str:
        return subprocess.run(base + ["capture-pane", "-p", "-J", "-S", "-200", "-t", "play"],
                              capture_output=True, text=True).stdout

    def wait_for(text: str, timeout: float = 60) -> str:
        end = time.time() + timeout
        while time.time() < end:
            screen = pane()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared:\n{pane()}")

    subprocess.run(base + ["new-session", "-d", "-s", "play", "-x", "140", "-y", "60", cmd], check=True,
                   cwd=REPO)
    try:
        screen = wait_for("your choice")
        for needed in ("seed 11 (play this deal again", "beanometers (cards for 1/2/3/4 coins):", "you are P0",
                       "run-outs 0 of 3",
                       "your hand (front first): 1:", "P1 random", "P2 random", "decision '"):
            assert needed in screen, needed
        subprocess.run(base + ["send-keys", "-t", "play", "?", "Enter"], check=True)
        screen = wait_for("commands:")
        subprocess.run(base + ["send-keys", "-t", "play", "1", "Enter"], check=True)
        time.sleep(0.5)
        subprocess.run(base + ["send-keys", "-t", "play", "C-c"], check=True)
        screen = wait_for("EXIT=")
        assert "interrupted: game abandoned" in screen and "EXIT=130" in screen
        assert "Traceback" not in screen
    finally:
        subprocess.run(base + ["kill-server"], capture_output=True)


def test_play_offer_line_with_whole_offer_actions():
    """With offer_actions=macro an offer line becomes the one OFFER_CARDS action, or says why not."""
    game = make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["red", "blue", "red"], ["soy", "chili"], ["green"]],
                         face_up=["stink", "garden"], seed=1, offer_actions="macro", max_offer_cards=2)
    start = len(game.history)
    session, out = _session(game, "offer 1 give red,red,blue want soy\noffer 1 give #1\noffer 1 give red want soy\nq\n")
    session.run()
    text = out.getvalue()
    assert "offer not possible: at most 2 cards on each side of an offer (max_offer_cards, TRADE-2)" in text
    assert "offer not possible: with whole-offer actions (offer_actions=macro) cards are named by type" in text
    assert session.game.history[start].kind == Kind.OFFER_CARDS
    assert "trade done: P0 gives red to P1 for soy" in text


@pytest.mark.parametrize("choice,line", [("trade with player 2", "trade done: P0 gives red to P2 for soy"),
                                         ("end trading", None), ("cancel", None)])
def test_play_trade_line_only_for_a_trade_carried_out(choice, line):
    """TRADE-4/5: the 'trade done' line names the picked partner; no line when no trade happens."""
    game = make_position("bohnanza", phase="trade", num_players=3, active=0,
                         hands=[["red", "blue"], ["soy", "chili"], ["soy", "green"]],
                         face_up=["stink", "garden"], seed=3)
    session, out = _session(game, f"offer all give red want soy\n{choice}\nq\n")
    session.run()
    text = out.getvalue()
    assert "several players accepted your offer" in text
    if line:
        assert line in text and text.count("trade done") == 1
    else:
        assert "trade done" not in text


def test_play_takeover_scores_are_coins_with_two_decimals():
    """HT-14: the engine counts hundredths of a coin; the person reads coins."""
    code, text = _run(["play", "hostile_takeover", "--seed", "2", "--opponents", "random"], "1\n" * 4000)
    assert code == 0
    last = text.splitlines()[-1]
    assert re.match(r"scores \[\d+\.\d\d(, \d+\.\d\d)*\]: ", last), last


@pytest.mark.parametrize("variant,value", [("bean_duel", "1"), ("bohnanza", "on")])
def test_play_takes_the_variants_yes_no_options_as_1_0(tmp_path, variant, value):
    """`bean-env play VARIANT -o allow_duplicate_fields=1` (a yes/no option of the variant) starts the game
    with the option on, as `bean-env tournament` does; a bad value is refused naming the option."""
    path = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "bean_env.cli", "play", variant, "-o", f"allow_duplicate_fields={value}",
           "--seed", "3", "--opponents", "random", "--save", str(path)]
    done = subprocess.run(cmd, input="q\n", capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and "error" not in done.stderr, done.stderr
    assert f"{variant}: you are player 0" in done.stdout
    assert replay(json.loads(path.read_text())).state.config["allow_duplicate_fields"] is True
    bad = subprocess.run(cmd[:6] + ["allow_duplicate_fields=2"] + cmd[7:], input="q\n", capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode != 0 and "bad value '2' for option 'allow_duplicate_fields'" in bad.stdout + bad.stderr
