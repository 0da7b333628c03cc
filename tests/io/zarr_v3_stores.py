#!/usr/bin/python3
"""Writes small Zarr v3 stores by hand, from the specification (zarr.json written here, chunk
bytes serialised here, compression through Debian's numcodecs, CRC-32C and the sharding index
computed here), since Debian's zarr 2.13 cannot write v3. Beside each store, the values it was
made from are the oracle.

    zarr_v3_stores.py OUTDIR

OUTDIR/manifest.json lists the cases as zarr_stores.py does (with "format": 3).
"""
import itertools
import json
import os
import struct
import sys

import numcodecs
import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cases = []
rng = np.random.default_rng(3)
EMPTY = 2**64 - 1


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def encode(chunk, codecs):
    """Encodes one chunk (a full-shape ndarray) with a v3 codec list."""
    data = chunk
    for c in codecs:
        name, cfg = c["name"], c.get("configuration", {})
        if name == "transpose":
            data = data.transpose(cfg["order"])
        elif name == "bytes":
            order = ">" if cfg.get("endian") == "big" else "<"
            data = np.ascontiguousarray(data).astype(data.dtype.newbyteorder(order)).tobytes()
        elif name == "sharding_indexed":
            data = shard(data, cfg)
        elif name == "gzip":
            data = numcodecs.GZip(cfg["level"]).encode(data)
        elif name == "zstd":
            data = numcodecs.Zstd(cfg["level"]).encode(data)
        elif name == "blosc":
            shuffle = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[cfg["shuffle"]]
            typed = np.frombuffer(data, dtype="u%d" % cfg["typesize"]) if cfg["typesize"] in (1, 2, 4, 8) else data
            data = numcodecs.Blosc(cfg["cname"], cfg["clevel"], shuffle).encode(typed)
        elif name == "crc32c":
            data = bytes(data) + struct.pack("<I", crc32c(bytes(data)))
        else:
            raise ValueError(name)
    return bytes(data)


def shard(array, cfg):
    inner = cfg["chunk_shape"]
    grid = [s // c for s, c in zip(array.shape, inner)]
    index = np.full(grid + [2], EMPTY, dtype="<u8")
    at_start = cfg.get("index_location", "end") == "start"
    index_size = int(np.prod(grid)) * 16 + 4 * sum(c["name"] == "crc32c" for c in cfg["index_codecs"])
    body = b""
    offset = index_size if at_start else 0
    for pos in itertools.product(*[range(g) for g in grid]):
        sl = tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, inner))
        part = array[sl]
        if np.all(part == SKIP):  # an inner chunk left out: read as the fill value
            continue
        enc = encode(part, cfg["codecs"])
        index[pos] = (offset, len(enc))
        body += enc
        offset += len(enc)
    idx = encode(index, cfg["index_codecs"])
    assert len(idx) == index_size
    return idx + body if at_start else body + idx


SKIP = None  # the value an inner chunk holds only when it is to be left out of its shard


def write(name, data, chunks, codecs, fill, dtype_name, dims=None, attrs=None, keys=("default", "/"),
          missing=(), path=""):
    global SKIP
    store = os.path.join(out, name + ".zarr")
    node = os.path.join(store, path)
    os.makedirs(node, exist_ok=True)
    if path:
        with open(os.path.join(store, "zarr.json"), "w") as f:
            json.dump({"zarr_format": 3, "node_type": "group", "attributes": {"title": "v3 group"}}, f)
    fill_json = fill
    if isinstance(fill, float) and np.isnan(fill):
        fill_json = "NaN"
    meta = {"zarr_format": 3, "node_type": "array", "shape": list(data.shape), "data_type": dtype_name,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
            "chunk_key_encoding": {"name": keys[0], "configuration": {"separator": keys[1]}},
            "fill_value": fill_json, "codecs": codecs, "attributes": attrs or {}}
    if dims:
        meta["dimension_names"] = dims
    with open(os.path.join(node, "zarr.json"), "w") as f:
        json.dump(meta, f, indent=2)
    expected = data.copy()
    grid = [-(-s // c) for s, c in zip(data.shape, chunks)]
    for pos in itertools.product(*[range(g) for g in grid]):
        sl = tuple(slice(p * c, min((p + 1) * c, s)) for p, c, s in zip(pos, chunks, data.shape))
        if pos in missing:
            expected[sl] = fill
            continue
        full = np.full(chunks, fill, dtype=data.dtype)
        full[tuple(slice(0, s.stop - s.start) for s in sl)] = data[sl]
        key = (["c"] if keys[0] == "default" else []) + [str(p) for p in pos]
        rel = keys[1].join(key) if key else ("c" if keys[0] == "default" else "0")
        fpath = os.path.join(node, rel)
        os.makedirs(os.path.dirname(fpath), exist_ok=True)
        with open(fpath, "wb") as f:
            f.write(encode(full, codecs))
    native = expected.astype(expected.dtype.newbyteorder("="))
    native.tofile(os.path.join(out, name + ".bin"))
    cases.append({"name": name, "store": name + ".zarr", "variable": path or name, "format": 3,
                  "dtype": str(native.dtype), "shape": list(data.shape)})


LE = {"name": "bytes", "configuration": {"endian": "little"}}
BE = {"name": "bytes", "configuration": {"endian": "big"}}
f4 = rng.normal(0, 100, (10, 13)).astype("<f4")
write("v3_bytes", f4, (4, 5), [LE], 0.0, "float32", dims=["y", "x"], attrs={"units": "m"}, path="height")
write("v3_big_gzip", rng.integers(-30000, 30000, (9, 7)).astype("<i2"), (4, 4),
      [BE, {"name": "gzip", "configuration": {"level": 5}}], -1, "int16", dims=["a", "b"])
write("v3_transpose_zstd", rng.normal(0, 1, (7, 9)).astype("<f8"), (3, 4),
      [{"name": "transpose", "configuration": {"order": [1, 0]}}, LE,
       {"name": "zstd", "configuration": {"level": 3, "checksum": False}}], 0.0, "float64")
write("v3_transpose_3d", rng.integers(0, 2**32, (5, 6, 7), dtype=np.uint64).astype("<u4"), (2, 4, 3),
      [{"name": "transpose", "configuration": {"order": [2, 0, 1]}}, BE], 7, "uint32")
write("v3_blosc_crc", rng.normal(0, 1, (11, 8)).astype("<f4"), (4, 8),
      [LE, {"name": "blosc", "configuration": {"cname": "zstd", "clevel": 4, "shuffle": "bitshuffle",
                                               "typesize": 4, "blocksize": 0}},
       {"name": "crc32c"}], 0.0, "float32")
write("v3_v2_keys", rng.integers(-100, 100, (6, 6)).astype("<i8"), (4, 4), [LE], 0, "int64", keys=("v2", "."))
write("v3_missing_nan", rng.normal(0, 1, (8, 8)).astype("<f4"), (4, 4), [LE], float("nan"), "float32",
      missing={(1, 0), (1, 1)})
write("v3_scalar", np.array(2.5, dtype="<f8"), (), [LE], 0.0, "float64")
for loc in ["end", "start"]:
    cfg = {"chunk_shape": [2, 3], "codecs": [LE, {"name": "gzip", "configuration": {"level": 1}}],
           "index_codecs": [LE, {"name": "crc32c"}], "index_location": loc}
    data = rng.normal(0, 1, (10, 13)).astype("<f4")
    data[0:2, 3:6] = -5.0  # one inner chunk equal to the fill: left out of its shard
    SKIP = -5.0
    write("v3_shard_" + loc, data, (4, 6), [{"name": "sharding_indexed", "configuration": cfg}], -5.0,
          "float32", dims=["lat", "lon"], missing={(1, 1)})
    SKIP = None
# Time with CF units in a v3 store: dates are the oracle's (Python's datetime arithmetic).
import datetime
days = np.array([0, 31, 59, 365], dtype="<i4")
write("v3_time", days, (3,), [LE], 0, "int32", dims=["time"],
      attrs={"units": "days since 2000-01-01", "calendar": "standard"}, path="time")
with open(os.path.join(out, "v3_time.dates.json"), "w") as f:
    json.dump([(datetime.datetime(2000, 1, 1) + datetime.timedelta(days=int(d))).strftime("%Y-%m-%dT%H:%M:%S")
               for d in days], f)

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(cases, f, indent=1)
