"""What an upload really is: decoded with Pillow, never trusted for what it claims.

`verified` opens the bytes (the header first, so a decompression bomb is refused from
its declared size before any pixel is decoded), requires the format the upload ticket
was issued for, applies the EXIF orientation, and re-encodes the pixels alone: EXIF
(GPS included), XMP, comments and text chunks do not survive. Runs in a thread: it is
CPU work.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from feedloom.domain.errors import InvalidInput

MAX_PIXELS = 40_000_000  # 40 MP: more than any phone camera, far below a bomb
FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}


@dataclass(frozen=True, slots=True)
class VerifiedImage:
    content: bytes
    extension: str  # jpg, png, webp or gif
    width: int
    height: int


def verified(content: bytes, expected_extension: str | None) -> VerifiedImage:
    """The image re-encoded without metadata; `expected_extension` None: any accepted type."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(content)) as image:
                return _checked(image, expected_extension)
        except (UnidentifiedImageError, Image.DecompressionBombError) as error:
            raise InvalidInput(_why(error)) from error
        except (Image.DecompressionBombWarning, OSError, SyntaxError, ValueError) as error:
            raise InvalidInput(f"the upload is not a readable image ({error})") from error


def _why(error: Exception) -> str:
    if isinstance(error, Image.DecompressionBombError):
        return f"images are limited to {MAX_PIXELS:,} pixels"
    return "the upload is not an image (JPEG, PNG, WebP or GIF)"


def _checked(image: Image.Image, expected_extension: str | None) -> VerifiedImage:
    extension = FORMATS.get(image.format or "")
    if extension is None:
        raise InvalidInput(f"{image.format} images are not accepted: JPEG, PNG, WebP or GIF")
    if expected_extension is not None and extension != expected_extension:
        raise InvalidInput(
            f"the upload is a {image.format} image, not the {expected_extension} "
            "its upload URL was issued for"
        )
    if image.width * image.height > MAX_PIXELS:
        raise InvalidInput(f"images are limited to {MAX_PIXELS:,} pixels")
    animated = getattr(image, "n_frames", 1) > 1
    out = io.BytesIO()
    if animated:  # keep the frames and their timing, drop the metadata
        _strip(image)
        image.save(out, format=image.format, save_all=True)
        width, height = image.size
    else:
        upright = ImageOps.exif_transpose(image)
        _strip(upright)
        width, height = upright.size
        upright.save(out, format=image.format, **_options(image.format or ""))
    return VerifiedImage(out.getvalue(), extension, width, height)


def _strip(image: Image.Image) -> None:
    """Savers fall back on `info` for metadata: leave them none (the ICC colour
    profile stays, it says how to show the pixels and nothing about the person)."""
    for key in list(image.info):
        if key not in ("icc_profile", "duration", "loop", "transparency", "background"):
            del image.info[key]


def _options(image_format: str) -> dict[str, object]:
    if image_format == "JPEG":
        return {"quality": 90, "optimize": True}
    if image_format == "WEBP":
        return {"quality": 90}
    return {}


@dataclass(frozen=True, slots=True)
class Resized:
    content: bytes  # WebP
    width: int
    height: int


def resized(content: bytes, widths: tuple[int, ...]) -> list[Resized]:
    """Smaller WebP copies of a verified image, one per width below its own; none for
    an animation (its original is served as it is)."""
    with Image.open(io.BytesIO(content)) as image:
        if getattr(image, "n_frames", 1) > 1:
            return []
        image.load()
        mode = "RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB"
        source = image.convert(mode)
    copies = []
    for width in sorted(w for w in widths if w < source.width):
        height = max(1, round(source.height * width / source.width))
        out = io.BytesIO()
        source.resize((width, height), Image.Resampling.LANCZOS).save(out, "WEBP", quality=80)
        copies.append(Resized(out.getvalue(), width, height))
    return copies
