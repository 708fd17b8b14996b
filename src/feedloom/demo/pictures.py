"""Pictures for the demo, drawn with Pillow when it seeds (nothing is downloaded):
avatars (a soft two-colour gradient with a mirrored pattern, like an identicon, so each
person is recognisable) and a few scenes for posts (a sunset over hills and water, hills
in the morning, a city at night)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
AVATAR_SIDE = 96
SCENE_SIZE = (1200, 800)

PALETTES: tuple[tuple[RGB, RGB, RGB], ...] = (
    ((255, 183, 77), (229, 57, 53), (255, 244, 229)),
    ((129, 199, 132), (0, 121, 107), (232, 245, 233)),
    ((100, 181, 246), (57, 73, 171), (227, 242, 253)),
    ((206, 147, 216), (123, 31, 162), (243, 229, 245)),
    ((255, 213, 79), (245, 124, 0), (255, 248, 225)),
    ((77, 208, 225), (0, 131, 143), (224, 247, 250)),
    ((240, 98, 146), (173, 20, 87), (252, 228, 236)),
    ((161, 136, 127), (78, 52, 46), (239, 235, 233)),
)


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def avatar(rng: random.Random) -> bytes:
    """A 96 px avatar: gradient, then a 5x5 pattern mirrored left to right."""
    light, dark, pale = rng.choice(PALETTES)
    image = _gradient((AVATAR_SIDE, AVATAR_SIDE), light, dark, rng.random() < 0.5)
    draw = ImageDraw.Draw(image)
    cell, margin = 14, (AVATAR_SIDE - 14 * 5) // 2
    for row in range(5):
        for column in range(3):
            if rng.random() < 0.5:
                continue
            for x in {column, 4 - column}:
                left, top = margin + x * cell, margin + row * cell
                draw.rounded_rectangle(
                    (left + 1, top + 1, left + cell - 1, top + cell - 1), radius=3, fill=pale
                )
    return png(image)


def scene(rng: random.Random, kind: str) -> bytes:
    return png(SCENES[kind](rng))


def _gradient(size: tuple[int, int], top: RGB, bottom: RGB, diagonal: bool = False) -> Image.Image:
    """Top to bottom (or corner to corner): a 2 px image stretched, which is cheap."""
    seed = Image.new("RGB", (2, 2), top)
    seed.putpixel((0, 1), bottom)
    seed.putpixel((1, 1), bottom)
    if diagonal:
        seed.putpixel((1, 0), bottom)
        seed.putpixel((0, 1), top)
    return seed.resize(size, Image.Resampling.BILINEAR, reducing_gap=None)


def _hills(draw: ImageDraw.ImageDraw, rng: random.Random, base: int, colour: RGB) -> None:
    width, height = SCENE_SIZE
    points = [(0, height)]
    for x in range(0, width + 100, 100):
        points.append((x, base + rng.randint(-60, 40)))
    points.append((width, height))
    draw.polygon(points, fill=colour)


def _sunset(rng: random.Random) -> Image.Image:
    width, height = SCENE_SIZE
    image = _gradient(SCENE_SIZE, (58, 46, 120), (255, 150, 70))
    sun_x, sun_y, radius = rng.randint(300, 900), rng.randint(430, 520), rng.randint(60, 90)
    draw = ImageDraw.Draw(image)
    draw.ellipse(
        (sun_x - radius, sun_y - radius, sun_x + radius, sun_y + radius), fill=(255, 220, 150)
    )
    _hills(draw, rng, 560, (70, 40, 90))
    draw.rectangle((0, 640, width, height), fill=(40, 30, 70))
    for y in range(650, height, 14):  # the sun on the water
        half = rng.randint(10, 70)
        draw.line((sun_x - half, y, sun_x + half, y), fill=(255, 190, 120), width=3)
    return image


def _morning_hills(rng: random.Random) -> Image.Image:
    image = _gradient(SCENE_SIZE, (200, 225, 240), (250, 240, 215))
    draw = ImageDraw.Draw(image)
    for base, colour in ((420, (150, 185, 160)), (520, (100, 150, 110)), (640, (55, 105, 70))):
        _hills(draw, rng, base, colour)
    return image


def _city_night(rng: random.Random) -> Image.Image:
    width, height = SCENE_SIZE
    image = _gradient(SCENE_SIZE, (10, 20, 60), (40, 60, 120))
    draw = ImageDraw.Draw(image)
    x = 0
    while x < width:
        tower_width, tower_height = rng.randint(60, 140), rng.randint(200, 520)
        shade = rng.randint(20, 45)
        draw.rectangle(
            (x, height - tower_height, x + tower_width, height), fill=(shade, shade, shade + 20)
        )
        for wy in range(height - tower_height + 16, height - 10, 26):
            for wx in range(x + 10, x + tower_width - 14, 20):
                if rng.random() < 0.45:
                    draw.rectangle((wx, wy, wx + 8, wy + 12), fill=(255, 214, 120))
        x += tower_width + rng.randint(4, 20)
    draw.ellipse((980, 80, 1060, 160), fill=(245, 245, 225))
    return image


SCENES: dict[str, Callable[[random.Random], Image.Image]] = {
    "sunset": _sunset,
    "hills": _morning_hills,
    "city": _city_night,
}
