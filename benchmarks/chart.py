"""The ratios chart, ``ratios.png``: wadlclient / lazr.restfulclient per workload.

One bar per row that has both medians, green where the row passes and red
where it misses, its ratio above it and its goal as a black tick; 1.0 as a
dotted line. Drawn with Pillow, about 0.15 s of CPU: matplotlib drew it, and
its import alone cost about 1 s, which every smoke run (inside ``make test``)
paid for a chart of bars, lines and labels.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.report import Row

if TYPE_CHECKING:
    from PIL.Image import Image
    from PIL.ImageFont import FreeTypeFont

__all__ = ["tick_step", "write_chart"]

WIDTH, HEIGHT = 1100, 605
#: The plot area's margins: left for the y labels, bottom for the slanted workload keys.
LEFT, RIGHT, TOP, BOTTOM = 85, 20, 45, 130
#: matplotlib's tab:green and tab:red, as the chart had.
PASS_COLOUR, MISS_COLOUR = "#2ca02c", "#d62728"
TITLE = "wadlclient vs lazr.restfulclient: ratio per workload (black tick = goal)"
Y_LABEL = "wadlclient / lazr.restfulclient (median; lower is better)"


def tick_step(top: float) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten): at most 6 steps up to ``top``."""
    raw = top / 6
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _turned(text: str, font: FreeTypeFont, angle: float) -> Image:
    """A mask of ``text`` turned ``angle`` degrees anticlockwise, to paste a colour through."""
    from PIL import Image, ImageDraw

    right, bottom = font.getbbox(text)[2:]
    mask = Image.new("L", (int(right) + 2, int(bottom) + 2), 0)
    ImageDraw.Draw(mask).text((1, 1), text, font=font, fill=255)
    return mask.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)


def write_chart(path: Path, rows: list[Row]) -> None:
    """Draw the chart of the rows that have a ratio to ``path``; nothing if none has one."""
    from PIL import Image, ImageDraw, ImageFont  # the bench extra's, imported when drawing

    plotted = [(row, ratio) for row in rows if (ratio := row.ratio()) is not None]
    if not plotted:
        return
    goals = [row.workload.goal for row, _ in plotted if row.workload.goal is not None]
    top = max([1.0, *goals, *(ratio for _, ratio in plotted)]) * 1.05
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = width / len(plotted)
    font, small = ImageFont.load_default(size=13), ImageFont.load_default(size=11)

    def y(value: float) -> float:
        return TOP + height * (1 - value / top)

    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    draw.text((LEFT + width / 2, 25), TITLE, font=ImageFont.load_default(size=15),
              fill="black", anchor="mm")  # fmt: skip
    label = _turned(Y_LABEL, font, 90)
    image.paste("black", (22 - label.width // 2, int(y(top / 2)) - label.height // 2), label)
    step = tick_step(top)
    for n in range(int(top / step) + 1):
        draw.line([(LEFT - 5, y(n * step)), (LEFT, y(n * step))], fill="black")
        draw.text((LEFT - 8, y(n * step)), f"{n * step:.2f}", font=font, fill="black", anchor="rm")
    for x in range(LEFT, LEFT + width, 5):
        draw.line([(x, y(1.0)), (min(x + 2, LEFT + width), y(1.0))], fill="grey")
    for index, (row, ratio) in enumerate(plotted):
        x = LEFT + slot * (index + 0.5)
        colour = PASS_COLOUR if row.verdict() == "PASS" else MISS_COLOUR
        draw.rectangle([x - slot * 0.3, y(ratio), x + slot * 0.3, y(0)], fill=colour)
        draw.text((x, y(ratio) - 2), f"{ratio:.2f}", font=small, fill="black", anchor="mb")
        if row.workload.goal is not None:
            goal = y(row.workload.goal)
            draw.line([(x - slot * 0.4, goal), (x + slot * 0.4, goal)], fill="black", width=3)
        key = _turned(row.workload.key, font, 30)
        image.paste("black", (int(x) - key.width, TOP + height + 6), key)
    draw.rectangle([LEFT, TOP, LEFT + width, TOP + height], outline="black")
    image.save(path, format="PNG")
