"""The table as an RGB image (``rgb_array`` render mode), and the ``human`` mode's picture.

``render_rgb(game, viewer=None)`` draws the same table as ``bean_env.render`` (hands, fields, coins,
deck, discard pile, face-up / trade area, the offer, the mafia, text-card lines) with Pillow and returns
a ``(height, width, 3)`` ``uint8`` array. The size depends only on the variant and the player count, so
every frame of an episode has the same shape (video recorders need that). With ``viewer`` set, only
what that seat may know is drawn (its ``PlayerView``, INFO-3): other hands' unseen cards are backs.
Pillow is needed (``pip install pillow``; it comes with matplotlib); the engine does not import this.
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache

import numpy as np

from .cards import NAMES, TYPES
from .engine.game import Game
from .engine.views import UNKNOWN

WIDTH = 1024
CARD_W, CARD_H = 44, 60
HEAD_H, CENTER_H, SEAT_H, LINE_H = 30, 96, 92, 15
MAX_HAND = 15
FELT, PANEL, INK, GOLD = (47, 79, 47), (61, 99, 61), (244, 241, 232), (245, 197, 66)
BACK = (123, 91, 46)
COLOURS = ((107, 68, 35), (232, 211, 107), (59, 111, 182), (165, 42, 42), (217, 56, 30), (143, 163, 90),
           (122, 106, 58), (76, 175, 80), (46, 139, 87), (194, 178, 128), (240, 230, 140), (245, 245, 220),
           (192, 57, 43), (154, 205, 50), (93, 58, 26))


def _pil():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:  # pragma: no cover - Pillow ships with matplotlib in every extra
        raise ImportError("render_mode='rgb_array' needs Pillow: pip install pillow") from exc
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=4)
def _font(size: int):
    _, _, ImageFont = _pil()
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: one bitmap size
        return ImageFont.load_default()


def _extra_lines(game: Game) -> int:
    if game.variant == "hostile_takeover":
        return game.num_players + 1
    return 1 if hasattr(game.state, "treasury") else 0


def image_size(game: Game) -> tuple[int, int]:
    """``(height, width)`` of the images of this game (fixed for its variant and player count)."""
    n = game.num_players
    return HEAD_H + CENTER_H + n * SEAT_H + _extra_lines(game) * LINE_H + 8, WIDTH


def _ink(rgb) -> tuple:
    return (20, 20, 20) if sum(rgb) > 450 else INK


def _card(d, x: int, y: int, code: int, count: int | None = None, small: bool = False) -> None:
    w, h = (CARD_W * 3 // 4, CARD_H * 3 // 4) if small else (CARD_W, CARD_H)
    if code == UNKNOWN or code < 0:
        d.rounded_rectangle([x, y, x + w, y + h], 5, fill=BACK, outline=(59, 42, 18))
        d.text((x + w // 2 - (6 if count is not None else 0), y + h // 3), "?", fill=(233, 216, 166), font=_font(16),
               anchor="mm")
    else:
        fill = COLOURS[code]
        d.rounded_rectangle([x, y, x + w, y + h], 5, fill=fill, outline=(17, 17, 17))
        name = NAMES[code].replace("black_eyed", "b.eyed")[:7]
        d.text((x + w // 2, y + 9), name, fill=_ink(fill), font=_font(9), anchor="mm")
        if not small:
            meter = " ".join("-" if v is None else str(v) for v in TYPES[code].meter)
            d.text((x + w // 2, y + h - 8), meter, fill=_ink(fill), font=_font(8), anchor="mm")
    if count is not None:
        d.ellipse([x + w - 20, y + h // 2 - 9, x + w - 2, y + h // 2 + 9], fill=(17, 17, 17))
        d.text((x + w - 11, y + h // 2), str(count), fill=INK, font=_font(10), anchor="mm")


def _cards(d, x: int, y: int, codes, limit: int, small: bool = False) -> int:
    step = (CARD_W * 3 // 4 if small else CARD_W) + 4
    codes = list(codes)
    for c in codes[:limit]:
        _card(d, x, y, c, small=small)
        x += step
    if len(codes) > limit:
        d.text((x, y + 20), f"+{len(codes) - limit}", fill=INK, font=_font(12))
        x += 30
    return x


def render_rgb(game: Game, viewer: int | None = None) -> np.ndarray:
    """The table as a ``(height, width, 3)`` uint8 image; ``viewer``: draw only what that seat knows."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    if viewer is not None and not (isinstance(viewer, (int, np.integer)) and 0 <= viewer < game.num_players):
        raise ValueError(f"bad viewer {viewer!r}; allowed: None or 0..{game.num_players - 1}")
    Image, ImageDraw, _ = _pil()
    s = game.state if viewer is None else game.view(int(viewer)).state
    height, width = image_size(game)
    img = Image.new("RGB", (width, height), FELT)
    d = ImageDraw.Draw(img)
    # header
    d.rectangle([0, 0, width, HEAD_H], fill=(30, 51, 30))
    status = "game over" if s.over else f"decision '{s.decision}' of P{s.actor}"
    seen = "all cards" if viewer is None else f"seen by P{viewer}"
    d.text((8, HEAD_H // 2), f"{s.variant}  |  turn {s.turn}  |  active P{s.active}  |  {status}  |  {seen}",
           fill=INK, font=_font(14), anchor="lm")
    # centre: deck, discard, face-up cards, offer, mafia
    y = HEAD_H + 6
    d.rounded_rectangle([6, y, width - 6, y + CENTER_H - 10], 8, fill=PANEL)
    cy = y + 16
    d.text((14, y + 4), "deck", fill=INK, font=_font(10))
    _card(d, 14, cy, UNKNOWN, count=len(s.deck))
    d.text((66, y + 4), f"discard {len(s.discard)}", fill=INK, font=_font(10))
    if s.discard:
        _card(d, 66, cy, s.discard[-1])
    d.text((118, y + 4), f"run-outs {s.runouts}/{s.limit}", fill=INK, font=_font(10))
    d.text((200, y + 4), "trade area" if s.variant == "bohnanza" else "face up", fill=INK, font=_font(10))
    x = _cards(d, 200, cy, sorted(s.face_up), 8)
    if hasattr(s, "treasury"):
        x = max(x, 560)
        d.text((x, y + 4), f"mafia {len(s.treasury)} coins", fill=INK, font=_font(10))
        for b in range(len(s.btype)):
            if s.bcount[b]:
                _card(d, x, cy, s.btype[b], count=s.bcount[b])
            else:
                d.rounded_rectangle([x, cy, x + CARD_W, cy + CARD_H], 5, outline=INK)
            x += CARD_W + 6
    if s.o_prop >= 0:
        x = max(x + 10, 560)
        to = "all" if s.o_to >= s.n else f"P{s.o_to}"
        d.text((x, y + 4), f"offer P{s.o_prop} -> {to}: give / want", fill=GOLD, font=_font(10))
        hand = s.hands[s.o_prop]
        x = _cards(d, x, cy, [hand[i] for i in s.o_hand] + list(s.o_trade), 6, small=True)
        d.text((x, cy + 14), "for", fill=GOLD, font=_font(11))
        _cards(d, x + 24, cy, list(s.o_want), 5, small=True)
    # seats
    y += CENTER_H
    for p in range(s.n):
        box = [6, y, width - 6, y + SEAT_H - 6]
        d.rounded_rectangle(box, 8, fill=PANEL, outline=GOLD if p == s.active else None, width=3)
        mark = "  <- decides" if p == s.actor and not s.over else ""
        d.text((14, y + 4), f"P{p}  coins {len(s.coins[p])}  hand {len(s.hands[p])}{mark}", fill=INK, font=_font(12))
        x, cy = 14, y + 22
        for f in range(3):
            i = p * 3 + f
            if f >= s.nfields[p]:
                continue
            if s.fcount[i]:
                _card(d, x, cy, s.ftype[i], count=s.fcount[i])
            else:
                d.rounded_rectangle([x, cy, x + CARD_W, cy + CARD_H], 5, outline=INK)
                d.text((x + CARD_W // 2, cy + CARD_H // 2), "empty", fill=INK, font=_font(9), anchor="mm")
            x += CARD_W + 6
        x += 16
        x = _cards(d, x, cy, s.hands[p], MAX_HAND)
        if s.to_plant[p]:
            d.text((x + 8, y + 4), "to plant", fill=INK, font=_font(10))
            _cards(d, x + 8, cy + 8, sorted(s.to_plant[p]), 5, small=True)
        y += SEAT_H
    extra = game.rules.render_extra(s).strip()
    if extra:
        for k, line in enumerate(extra.splitlines()[:_extra_lines(game)]):
            d.text((12, y + k * LINE_H), " ".join(line.split()), fill=INK, font=_font(11))
    return np.asarray(img, dtype=np.uint8)


def has_display() -> bool:
    """Whether a picture window can be shown (an X/Wayland display, or macOS / Windows)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def show_human(owner, game: Game, viewer: int | None, text: str) -> None:
    """The ``human`` render mode of an env ``owner``: its ``HumanView`` (made at the first call) shows
    the picture where it can, else prints ``text``."""
    view = owner.__dict__.get("_human_view")
    if view is None:
        view = owner.__dict__["_human_view"] = HumanView()
    view.show(game, viewer, text)


_NO_WINDOW = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}


class HumanView:
    """The ``human`` render mode: a matplotlib window showing ``render_rgb`` where a display and
    matplotlib exist, else the text table printed (the fallback is decided once, at the first call)."""

    def __init__(self):
        self._window = None
        self._ok = None

    def show(self, game: Game, viewer: int | None, text: str) -> None:
        if self._ok is None:
            self._ok = has_display()
            if self._ok:
                try:
                    import matplotlib
                    import matplotlib.pyplot  # noqa: F401
                    backend = matplotlib.get_backend().lower()
                    # a file-only or inline backend cannot open a window: print the text instead
                    self._ok = backend not in _NO_WINDOW and not backend.startswith("module://")
                except ImportError:
                    self._ok = False
        if not self._ok:
            print(text)
            return
        import matplotlib.pyplot as plt
        frame = render_rgb(game, viewer)
        if self._window is None:
            plt.ion()
            fig, ax = plt.subplots(figsize=(frame.shape[1] / 100, frame.shape[0] / 100))
            ax.axis("off")
            self._window = (fig, ax.imshow(frame))
        else:
            self._window[1].set_data(frame)
        self._window[0].canvas.draw_idle()
        plt.pause(0.001)

    def close(self) -> None:
        if self._window is not None:
            import matplotlib.pyplot as plt
            plt.close(self._window[0])
            self._window = None
