"""QR codes for the printed links and the seat pages, encoded by zxing-cpp.

A digital round pack prints a code on every slip and scorepad: about 5,000 for 1,000 tables.
Pure Python encoders spend ~10 ms a code choosing the mask (reportlab's widget and segno alike,
measured in bench/bench_printing.py); zxing-cpp's C++ encoder makes the same standard code,
mask chosen by the standard's penalty rules, in well under a millisecond."""

from __future__ import annotations

from functools import lru_cache

import zxingcpp

#: zxing-cpp's bitmap has a byte a module, 0 for dark and 255 for light.
_AS_DIGITS = bytes.maketrans(b"\x00\xff", b"10")


@lru_cache(maxsize=8192)
def qr_rows(url: str) -> tuple[str, ...]:
    """``url``'s QR code as rows of "1" (dark) and "0" (light) modules, without the quiet zone,
    error correction level M (it survives a crease or a coffee ring). Cached: a reprinted pack
    does not encode its links again."""
    code = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = code.to_image(scale=1, add_quiet_zones=False)
    size = image.shape[1]
    pixels = memoryview(image).tobytes()  # type: ignore[arg-type]  # the stubs miss its buffer protocol
    digits = pixels.translate(_AS_DIGITS).decode("ascii")
    return tuple(digits[start:start + size] for start in range(0, len(digits), size))


@lru_cache(maxsize=2048)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The same code as :func:`qr_rows`, a row of booleans (True for dark) per module row."""
    return tuple(tuple(digit == "1" for digit in row) for row in qr_rows(url))
