#!/usr/bin/env python3
"""Draw the picture the shipped catalog shows of the Kherjarala rock-cut board: the Mogol Putt'han board (the
Alquerque square of 5 by 5 points with a triangle on two opposite sides, as rules.txt defines it) as grooves
cut into a sandstone surface. It is a drawing made for this archive, not a photograph of the carving, and the
record's caption says so.

Uses only the standard library (the PNG is written by hand with zlib), and no randomness that is not seeded,
so the same file comes out every time:

    scripts/draw-board-image.py catalog/boards/kherjarala-rock-board/images/board-shape.png
"""

import math
import struct
import sys
import zlib

WIDTH, HEIGHT = 1280, 880
SPACING = 130  # pixels between neighbouring points
GROOVE = 9.0  # half-width of a carved line
PIT = 15.0  # radius of the pit at each point


def lattice_noise(seed, cell):
    """Smooth noise: random values on a coarse grid, interpolated (a cheap stand-in for weathered stone)."""
    state = seed
    cols, rows = WIDTH // cell + 2, HEIGHT // cell + 2
    grid = []
    for _ in range(rows * cols):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        grid.append(state / 0x7FFFFFFF)

    def at(x, y):
        gx, gy = x / cell, y / cell
        x0, y0 = int(gx), int(gy)
        fx, fy = gx - x0, gy - y0
        fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
        a = grid[y0 * cols + x0]
        b = grid[y0 * cols + x0 + 1]
        c = grid[(y0 + 1) * cols + x0]
        d = grid[(y0 + 1) * cols + x0 + 1]
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy

    return at


def board():
    """The points and lines of the board, in pixels: files a-e run left to right, ranks 1-5 bottom to top."""
    cx, cy = WIDTH / 2, HEIGHT / 2

    def p(file, rank):
        return (cx + (file - 2) * SPACING, cy - (rank - 2) * SPACING)

    points = [p(f, r) for f in range(5) for r in range(5)]
    lines = []
    for i in range(5):
        lines.append((p(0, i), p(4, i)))
        lines.append((p(i, 0), p(i, 4)))
    lines += [(p(0, 0), p(4, 4)), (p(0, 4), p(4, 0)), (p(0, 2), p(2, 4)), (p(2, 4), p(4, 2)),
              (p(4, 2), p(2, 0)), (p(2, 0), p(0, 2))]
    # A triangle on the west and east sides, its apex at the middle of the side: a crossbar one step out and a
    # base two steps out, each with three points, and the middle line through them.
    for side in (-1, 1):
        ax, ay = p(2 + 2 * side, 2)
        bar = [(ax + side * SPACING, ay + d * SPACING / 2) for d in (-1, 0, 1)]
        base = [(ax + side * 2 * SPACING, ay + d * SPACING) for d in (-1, 0, 1)]
        points += bar + base
        lines += [((ax, ay), base[0]), ((ax, ay), base[2]), ((ax, ay), base[1]), (bar[0], bar[2]),
                  (base[0], base[2])]
    return points, lines


def distance_to_segment(x, y, a, b):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def carving(points, lines):
    """How deep the carving is at each pixel, 0 (surface) to 1 (the bottom of a groove), with soft edges: each
    line and pit is measured only over the pixels near it."""
    cut = [0.0] * (WIDTH * HEIGHT)
    reach = int(max(GROOVE, PIT)) + 3

    def mark(x0, y0, x1, y1, distance):
        for y in range(max(0, int(y0) - reach), min(HEIGHT, int(y1) + reach + 1)):
            for x in range(max(0, int(x0) - reach), min(WIDTH, int(x1) + reach + 1)):
                value = max(0.0, min(1.0, 0.5 - distance(x, y) / 3.0))
                if value > cut[y * WIDTH + x]:
                    cut[y * WIDTH + x] = value

    for a, b in lines:
        xs, ys = sorted((a[0], b[0])), sorted((a[1], b[1]))
        mark(xs[0], ys[0], xs[1], ys[1], lambda x, y: distance_to_segment(x, y, a, b) - GROOVE)
    for px, py in points:
        mark(px, py, px, py, lambda x, y: math.hypot(x - px, y - py) - PIT)
    return cut


def draw(path):
    points, lines = board()
    carved = carving(points, lines)
    coarse, fine = lattice_noise(7, 160), lattice_noise(11, 23)
    rows = []
    for y in range(HEIGHT):
        row = bytearray([0])  # filter type 0 for every row; zlib still finds the smooth runs
        for x in range(WIDTH):
            stone = 0.75 * coarse(x, y) + 0.25 * fine(x, y)
            # Sandstone: a warm grey-ochre, lit from the upper left.
            light = 0.82 + 0.18 * stone - 0.06 * (x + y) / (WIDTH + HEIGHT)
            r, g, b = 176 * light, 150 * light, 118 * light
            cut = carved[y * WIDTH + x]
            if cut > 0:
                # The groove is in shadow, darker where it is deeper.
                shade = 1 - 0.45 * cut
                r, g, b = r * shade, g * shade, b * shade * 0.97
            row += bytes(int(max(0, min(255, round(v)))) for v in (r, g, b))
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as out:
        out.write(png)


if __name__ == "__main__":
    draw(sys.argv[1])
