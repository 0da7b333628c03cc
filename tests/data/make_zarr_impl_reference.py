#!/usr/bin/python3
"""Writes zarr_impl/astronaut.u1, the values the zarr_implementations stores were made from.

    make_zarr_impl_reference.py REFERENCE_PNG

REFERENCE_PNG is data/reference_image.png of github.com/zarr-developers/zarr_implementations
(blob 4459f766a50b4ec8e099e1e8239ae76878c15cde): scikit-image's astronaut(), saved losslessly
by that project's generate_reference_image.py; its stores were written from the same array.
The output is that array, 512 x 512 x 3 uint8 in C order (row, column, RGB), with no header.

The PNG is decoded here, with zlib and numpy, so that no image library is needed. As a check,
zarr-python then reads zarr_impl/z5py.zr/blosc (it cannot read the gzip store, whose chunks
are zlib streams) and must find the same values.
"""
import os
import struct
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(data):
    """An 8-bit RGB, non-interlaced PNG as a (height, width, 3) uint8 array."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if (depth, colour, interlace) != (8, 2, 0):
        raise ValueError("only 8-bit RGB without interlacing is decoded here")
    raw = zlib.decompress(idat)
    stride, bpp = width * 3, 3
    rows, prior = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prior[i]
            upleft = prior[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, upleft)) & 0xFF
            elif kind != 0:
                raise ValueError("unknown PNG filter %d" % kind)
        rows.append(bytes(line))
        prior = line
    return np.frombuffer(b"".join(rows), np.uint8).reshape(height, width, 3)


def main():
    with open(sys.argv[1], "rb") as f:
        image = decode_png(f.read())
    assert image.shape == (512, 512, 3)
    out = os.path.join(HERE, "zarr_impl", "astronaut.u1")
    image.tofile(out)
    store = os.path.join(HERE, "zarr_impl", "z5py.zr", "blosc")
    if os.path.isdir(store):
        import zarr

        if not np.array_equal(zarr.open(store, mode="r")[...], image):
            sys.exit("zarr-python reads other values from " + store)
    print("wrote", out)


if __name__ == "__main__":
    main()
