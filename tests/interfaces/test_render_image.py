"""rgb_array rendering: image shape and dtype, fixed size per episode, per-seat images (INFO-3), and the
video recorders of gymnasium and SB3 (moviepy replaced by a stand-in that keeps the frames)."""
from __future__ import annotations

import random
import sys
import types

import numpy as np
import pytest

import bean_env
from bean_env.render_image import has_display, image_size, render_rgb, show_human

pytest.importorskip("PIL")

CASES = [("bohnanza", {"num_players": 5}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 3})]


@pytest.mark.parametrize("variant,config", CASES)
def test_image_shape_is_fixed_for_the_whole_game(variant, config):
    g = bean_env.new_game(variant, seed=3, **config)
    r = random.Random(0)
    shape = image_size(g) + (3,)
    frames = []
    k = 0
    while not g.is_over and k < 200:
        if k % 50 == 0:
            frames.append(render_rgb(g))
        g.apply(r.choice(g.legal_actions()))
        k += 1
    frames.append(render_rgb(g))
    for f in frames:
        assert f.shape == shape and f.dtype == np.uint8
    assert len({f.tobytes() for f in frames}) == len(frames)       # the picture follows the game
    assert len(np.unique(frames[0][::3, ::3].reshape(-1, 3), axis=0)) > 20   # cards drawn, not a blank canvas


@pytest.mark.parametrize("variant,config", [("bohnanza", {"num_players": 3}), ("hostile_takeover", {"num_players": 3})])
def test_seat_image_reveals_nothing_hidden_info_3(variant, config):
    """INFO-3: a seat's image is unchanged when every card it cannot see is resampled."""
    g = bean_env.new_game(variant, seed=5, **config)
    r = random.Random(2)
    for k in range(60):
        if k % 30 == 0:
            for p in range(g.num_players):
                mine = render_rgb(g, viewer=p)
                assert np.array_equal(render_rgb(g.view(p).sample_game(r), viewer=p), mine)
            assert not np.array_equal(render_rgb(g), render_rgb(g, viewer=0))
        g.apply(r.choice(g.legal_actions()))


def test_bad_arguments():
    g = bean_env.new_game("bean_duel", seed=1)
    with pytest.raises(ValueError, match="bad viewer"):
        render_rgb(g, viewer=2)
    with pytest.raises(TypeError):
        render_rgb("game")


def test_aec_env_rgb_array():
    env = bean_env.bohnanza_v1.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape[2] == 3
    assert "rgb_array" in env.metadata["render_modes"]
    seat_env = bean_env.bohnanza_v1.env(num_players=3, render_mode="rgb_array", render_seat=1)
    seat_env.reset(seed=1)
    assert seat_env.render().shape == frame.shape and not np.array_equal(seat_env.render(), frame)


@pytest.fixture
def fake_moviepy(monkeypatch):
    """A stand-in for moviepy's ImageSequenceClip that keeps the frames (moviepy is not a dependency)."""
    clips = []

    class ImageSequenceClip:
        def __init__(self, frames, fps=None, **kw):
            self.frames = [np.asarray(f) for f in frames]
            clips.append(self)

        def write_videofile(self, path, **kw):
            self.path = path

        def close(self):
            pass

    for name in ("moviepy", "moviepy.video", "moviepy.video.io"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    mod = types.ModuleType("moviepy.video.io.ImageSequenceClip")
    mod.ImageSequenceClip = ImageSequenceClip
    monkeypatch.setitem(sys.modules, "moviepy.video.io.ImageSequenceClip", mod)
    return clips


def _masked_random(env_like, rng):
    mask = env_like.action_masks()
    return int(rng.choice(np.flatnonzero(mask)))


def test_gymnasium_record_video_takes_the_frames(fake_moviepy, tmp_path):
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gymnasium.make("bean_env/BeanDuel-v1", render_mode="rgb_array"), str(tmp_path / "videos"),
                      episode_trigger=lambda e: True, disable_logger=True)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        env.step(_masked_random(env.unwrapped, rng))
    env.close()
    assert fake_moviepy and len(fake_moviepy[0].frames) == 13
    assert {f.shape for f in fake_moviepy[0].frames} == {fake_moviepy[0].frames[0].shape}


def test_sb3_vec_video_recorder_takes_the_frames(fake_moviepy, tmp_path):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import VecVideoRecorder

    venv = make_vec_env("bean_env/BeanDuel-v1", n_envs=2, seed=0, env_kwargs={"render_mode": "rgb_array"})
    rec = VecVideoRecorder(venv, str(tmp_path), record_video_trigger=lambda step: step == 0, video_length=8)
    rec.reset()
    rng = np.random.default_rng(1)
    for _ in range(10):
        masks = rec.env_method("action_masks")
        rec.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
    rec.close()
    frames = fake_moviepy[0].frames
    assert len(frames) == 9 and frames[0].ndim == 3 and frames[0].dtype == np.uint8


def test_human_mode_prints_text_without_a_display(monkeypatch, capsys):
    for var in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    if sys.platform in ("darwin", "win32"):
        pytest.skip("a display always exists here")
    assert not has_display()

    class Owner:
        pass

    g = bean_env.new_game("bean_duel", seed=1)
    show_human(Owner(), g, None, "TABLE TEXT")
    assert "TABLE TEXT" in capsys.readouterr().out


def test_human_mode_prints_text_with_a_file_only_backend(monkeypatch, capsys):
    """A display exists but matplotlib draws to files only (Agg): text, no window."""
    mpl = pytest.importorskip("matplotlib")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(mpl, "get_backend", lambda: "agg")

    class Owner:
        pass

    show_human(Owner(), bean_env.new_game("bean_duel", seed=1), None, "TABLE TEXT")
    assert "TABLE TEXT" in capsys.readouterr().out
