"""A minimal PNG decoder for tests (8-bit RGB/RGBA, non-interlaced — what vl-convert writes).

Kept here so the "not tofu" test needs no imaging library: zlib plus the five PNG filters.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import numpy.typing as npt

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 6: 4}


def _paeth_row(raw: bytearray, prev: bytes, bpp: int) -> None:
    for i in range(len(raw)):
        a = raw[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        raw[i] = (raw[i] + pred) & 0xFF


def _average_row(raw: bytearray, prev: bytes, bpp: int) -> None:
    for i in range(len(raw)):
        a = raw[i - bpp] if i >= bpp else 0
        raw[i] = (raw[i] + ((a + prev[i]) >> 1)) & 0xFF


def decode_png(data: bytes) -> npt.NDArray[np.uint8]:
    """Pixels as an (height, width, channels) uint8 array."""
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG")
    pos, idat = len(PNG_SIGNATURE), bytearray()
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in _CHANNELS or interlace:
                raise ValueError(f"unsupported PNG: depth={depth} color={color} interlace={interlace}")
            channels = _CHANNELS[color]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        row = bytearray(raw[start + 1 : start + 1 + stride])
        if ftype == 1:  # Sub: running sum per channel
            arr = np.frombuffer(bytes(row), dtype=np.uint8).reshape(-1, channels)
            row = bytearray(np.cumsum(arr, axis=0, dtype=np.uint8).tobytes())
        elif ftype == 2:  # Up
            row = bytearray((np.frombuffer(bytes(row), np.uint8) + np.frombuffer(prev, np.uint8)).tobytes())
        elif ftype == 3:
            _average_row(row, prev, channels)
        elif ftype == 4:
            _paeth_row(row, prev, channels)
        elif ftype != 0:
            raise ValueError(f"bad PNG filter {ftype}")
        out[y] = np.frombuffer(bytes(row), dtype=np.uint8)
        prev = bytes(row)
    return out.reshape(height, width, channels)


def ink(pixels: npt.NDArray[np.uint8], threshold: int = 128) -> npt.NDArray[np.bool_]:
    """Dark pixels (text and lines on the white background)."""
    rgb = pixels[..., :3].astype(np.int32)
    return np.asarray(rgb.mean(axis=2) < threshold)
