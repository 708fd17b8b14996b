"""Real image bytes for upload tests, made with Pillow."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def image_bytes(width: int = 64, height: int = 48, fmt: str = "PNG", **options: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 80, 40)).save(out, format=fmt, **options)
    return out.getvalue()


def png(width: int = 64, height: int = 48) -> bytes:
    return image_bytes(width, height)


def jpeg_with_location() -> bytes:
    """A JPEG whose EXIF names a camera and a GPS position."""
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # Make
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}  # GPS IFD
    return image_bytes(32, 16, "JPEG", exif=exif.tobytes())


def png_claiming(width: int, height: int) -> bytes:
    """A 1x1 PNG whose header claims another size (a decompression bomb's trick)."""
    data = bytearray(png(1, 1))
    ihdr = 8 + 8  # signature, then length + "IHDR"
    data[ihdr : ihdr + 8] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr - 4 : ihdr + 13]))
    data[ihdr + 13 : ihdr + 17] = struct.pack(">I", crc)
    return bytes(data)


def sunset(width: int, height: int) -> bytes:
    """A PNG with an evening-sky gradient: something worth looking at in screenshots."""
    sky = Image.linear_gradient("L").resize((width, height))
    top, bottom = (
        Image.new("RGB", (width, height), (46, 58, 140)),
        Image.new("RGB", (width, height), (250, 140, 60)),
    )
    out = io.BytesIO()
    Image.composite(bottom, top, sky).save(out, format="PNG")
    return out.getvalue()
