"""Draw the app icons (PNG, standard library only): a card with a red diamond on the green felt.

    python scripts/make-icons.py    # writes src/diloti/server/static/icons/icon-{192,512}.png, maskable-512.png
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT, CARD, RED, EDGE = (31, 106, 69), (250, 248, 240), (200, 16, 46), (22, 77, 51)
OUT = Path(__file__).resolve().parent.parent / "src" / "diloti" / "server" / "static" / "icons"


def png(path: Path, size: int, pixels: list[bytes]) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in pixels)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def draw(size: int, safe: float) -> list[bytes]:
    """The card fills ``safe`` of the icon (maskable icons keep it inside the middle 80%)."""
    rows = []
    cw, ch = size * safe * 0.62, size * safe * 0.86
    x0, y0 = (size - cw) / 2, (size - ch) / 2
    r = cw * 0.09
    cx, cy, d = size / 2, size / 2, cw * 0.3
    for y in range(size):
        row = bytearray()
        for x in range(size):
            px, py = x + 0.5, y + 0.5
            colour = FELT
            inside = x0 <= px <= x0 + cw and y0 <= py <= y0 + ch
            if inside:
                # Rounded corners: outside the corner circles is felt.
                qx = min(px - x0, x0 + cw - px)
                qy = min(py - y0, y0 + ch - py)
                if qx < r and qy < r and (r - qx) ** 2 + (r - qy) ** 2 > r * r:
                    inside = False
            if inside:
                edge = min(px - x0, x0 + cw - px, py - y0, y0 + ch - py) < max(1.0, size / 128)
                colour = EDGE if edge else CARD
                if abs(px - cx) / (d * 0.75) + abs(py - cy) / d <= 1:
                    colour = RED
            row += bytes(colour)
        rows.append(bytes(row))
    return rows


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    png(OUT / "icon-192.png", 192, draw(192, 0.9))
    png(OUT / "icon-512.png", 512, draw(512, 0.9))
    png(OUT / "maskable-512.png", 512, draw(512, 0.72))
    print("written", *sorted(p.name for p in OUT.glob("*.png")))
