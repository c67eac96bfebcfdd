"""The HTML replay viewer: per-seat frames (INFO-3), a self-contained page, the CLI flag, and the page
in a real headless Chromium (skipped where /usr/bin/chromium is absent; .ci/run installs it)."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess

import pytest

import bean_env
from bean_env.agents import make_agent
from bean_env.cli import main as cli_main
from bean_env.replay_html import frame, replay_data, replay_html, write_replay_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def played(variant, seed=2, **config):
    g = bean_env.new_game(variant, seed=seed, **config)
    agents = [make_agent("heuristic", seed=p) for p in range(g.num_players)]
    while not g.is_over:
        p = g.current_player
        g.apply(agents[p].act(g.view(p), g.legal_actions()))
    return g


@pytest.fixture(scope="module")
def trade_game():
    return played("bohnanza", seed=2, num_players=3, max_trade_rounds=1)


@pytest.mark.parametrize("variant,config", [("bohnanza", {"num_players": 3}), ("al_cabohne", {}),
                                            ("hostile_takeover", {"num_players": 3})])
def test_seat_frames_reveal_nothing_hidden_info_3(variant, config):
    """INFO-3: a seat's frame is unchanged when every card it cannot see is resampled."""
    g = bean_env.new_game(variant, seed=4, **config)
    r = random.Random(1)
    for k in range(150):
        if g.is_over:
            break
        if k % 10 == 0:
            for p in range(g.num_players):
                mine = frame(g, p)
                for _ in range(2):
                    assert frame(g.view(p).sample_game(r), p) == mine
        g.apply(r.choice(g.legal_actions()))


def test_replay_data_has_a_frame_per_step_and_perspective(trade_game):
    data = replay_data(trade_game.record())
    steps = len(trade_game.history) + 1
    assert set(data["frames"]) == {"open", "0", "1", "2"}
    assert all(len(f) == steps for f in data["frames"].values())
    assert data["result"]["scores"] == trade_game.scores()
    # a seat sees its own hand, the open view sees every hand
    last_open = data["frames"]["open"][10]
    assert all(c >= 0 for h in last_open["h"] for c in h)
    assert any(c == -1 for q in (0, 2) for c in data["frames"]["1"][10]["h"][q])
    assert data["frames"]["1"][10]["h"][1] == last_open["h"][1]


def test_page_is_self_contained(trade_game, tmp_path):
    page = replay_html(trade_game)
    without_data = re.sub(r'<script id="data".*?</script>', "", page, flags=re.S)
    for needle in ("src=", "href=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest"):
        assert needle not in without_data
    assert re.findall(r"https?://[^\"' ]+", without_data) == ["http://www.w3.org/2000/svg"]  # SVG namespace only
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
                      .group(1).replace("<\\/", "</"))
    assert data["variant"] == "bohnanza"
    with pytest.raises(ValueError, match="not a game record"):
        replay_html({"variant": "bohnanza"})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json: cannot read a game record"):
        replay_html(bad)
    with pytest.raises(ValueError, match="cannot read"):
        replay_html(tmp_path / "missing.json")


def test_cli_replay_html(trade_game, tmp_path):
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps(trade_game.record()))
    out = tmp_path / "game.html"
    assert cli_main(["replay", str(rec), "--html", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    saved = tmp_path / "state.json"
    saved.write_text(trade_game.to_json())
    assert write_replay_html(saved, tmp_path / "b.html").stat().st_size > 1000


def chromium(tmp_path, url, *extra):
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--virtual-time-budget=2000"]
    done = subprocess.run([CHROMIUM, *flags, *extra, url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def seat_rows(dom: str, row: str) -> dict[int, list[str]]:
    """Per seat box, the data-type of each card in its ``row`` (hand, fields, toplant)."""
    out = {}
    for m in re.finditer(r'<div class="seat[^"]*" data-seat="(\d+)">(.*?)(?=<div class="seat|<ol id="log")', dom, re.S):
        part = re.search(rf'<div class="row {row}">(.*?)</div>', m.group(2), re.S)
        out[int(m.group(1))] = re.findall(r'data-type="([^"]+)"', part.group(1)) if part else []
    return out


@pytest.mark.skipif(CHROMIUM is None, reason="needs the chromium package (apt-get install chromium)")
def test_page_in_headless_chromium(trade_game, tmp_path):
    """Load the page, press next N times, read the DOM; a seat sees its own hand only (INFO-3)."""
    path = write_replay_html(trade_game, tmp_path / "game.html")
    clicks = next(i for i, a in enumerate(trade_game.history) if str(a) == "submit offer") + 1
    game = bean_env.new_game("bohnanza", seed=trade_game.seed, **trade_game.config)
    for a in trade_game.history[:clicks]:
        game.apply(a)
    dom = chromium(tmp_path, f"file://{path}#step=0&seat=1&clicks={clicks}", "--dump-dom")
    assert 'data-ready="1"' in dom                                  # the script ran to the end
    assert f"Step {clicks} of {len(trade_game.history)}" in dom
    assert 'id="offer"' in dom and "Offer by" in dom                # the submitted offer is shown
    hands = seat_rows(dom, "hand")
    view = game.view(1)
    assert hands[1] == view.hand
    for q in (0, 2):
        assert hands[q] == [name or "?" for name in view.known_hands[q]]
        assert "?" in hands[q]
    # everyone's perspective names every card
    dom_open = chromium(tmp_path, f"file://{path}#step={clicks}&seat=open", "--dump-dom")
    from bean_env.cards import NAMES
    assert seat_rows(dom_open, "hand") == {q: [NAMES[c] for c in game.state.hands[q]] for q in range(3)}
    # the last step shows the result
    dom_end = chromium(tmp_path, f"file://{path}#step={len(trade_game.history)}&seat=0", "--dump-dom")
    assert "Result: scores " + ", ".join(map(str, trade_game.scores())) in dom_end
    shot = tmp_path / "shot.png"
    chromium(tmp_path, f"file://{path}#step=0&seat=1&clicks={clicks}", f"--screenshot={shot}",
             "--window-size=1400,1000")
    Image = pytest.importorskip("PIL.Image")
    img = Image.open(shot).convert("RGB")
    assert img.size == (1400, 1000) and len(img.getcolors(1 << 20)) > 50   # a drawn table, not a blank page


@pytest.mark.skipif(CHROMIUM is None, reason="needs the chromium package (apt-get install chromium)")
@pytest.mark.parametrize("variant,config", [("al_cabohne", {}), ("hostile_takeover", {"num_players": 3})])
def test_other_variants_render_in_chromium(variant, config, tmp_path):
    g = played(variant, seed=1, **config)
    path = write_replay_html(g, tmp_path / "g.html")
    dom = chromium(tmp_path, f"file://{path}#step=30&seat=0&clicks=5", "--dump-dom")
    assert 'data-ready="1"' in dom and "Step 35 of" in dom
    if variant == "al_cabohne":
        assert 'id="mafia"' in dom and "Al Cabohne" in dom
    else:
        assert "text cards" in dom


def test_offer_being_built_hides_hand_positions_from_others():
    from bean_env.engine.positions import make_position
    from bean_env.text import parse_actions

    g = make_position("bohnanza", num_players=3, active=0, phase="trade",
                      hands=[["green", "red", "green"], ["stink", "soy"], ["blue"]],
                      fields=[[("red", 2)], [("soy", 1)], []], coins=[2, 0, 1], face_up=["red", "blue"], seed=1)
    for a in parse_actions("offer all give #2 want stink", g)[:2]:
        g.apply(a)
    assert frame(g, 1)["of"]["gh"] == [[-1, -1]]
    assert frame(g, 0)["of"]["gh"] == [[1, g.state.hands[0][1]]]


def test_takeover_scores_read_as_coins_with_two_decimals_ht_14():
    """HT-14: the engine counts hundredths of a coin; the table (render) and the replay page show coins
    with two decimals (`10.00`), as the tournament tables do; other variants keep whole coins."""
    g = bean_env.new_game("hostile_takeover", seed=2, num_players=2)
    r = random.Random(1)
    while not g.is_over:
        g.apply(r.choice(g.legal_actions()))
    coins = [f"{v / 100:.2f}" for v in g.scores()]
    assert any(v % 100 == 0 and v for v in g.scores())  # a whole number of coins still shows .00
    assert f"game over: scores [{', '.join(coins)}]" in g.render()
    result = replay_data(g.record())["result"]
    assert result["scores"] == g.scores() and result["score_text"] == coins
    assert "D.result.score_text.join" in replay_html(g.record())
    duel = played("bean_duel")
    assert replay_data(duel.record())["result"]["score_text"] == [str(v) for v in duel.scores()]
    assert f"game over: scores {duel.scores()}" in duel.render()
