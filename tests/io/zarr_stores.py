#!/usr/bin/python3
"""Writes the Zarr v2 stores tst_zarr reads, with Debian's zarr 2.13, numcodecs and xarray, and
beside each the values zarr (or xarray) reads back from it: the test's independent oracle.

    zarr_stores.py OUTDIR

OUTDIR/manifest.json lists the cases: {"name", "store", "variable", "dtype", "shape"} with the
expected values of `variable` in OUTDIR/<name>.bin (C order, this machine's byte order, the
array's own type). xarray's decoded reading of the CF store goes to OUTDIR/cf.json.
"""
import json
import os
import sys

import numcodecs
import numpy as np
import xarray as xr
import zarr

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cases = []
rng = np.random.default_rng(20)


def values(dtype, shape):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "f":
        v = rng.normal(0, 1000, n)
    elif dt.kind == "b":
        v = rng.integers(0, 2, n)
    else:
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64)
    return v.astype(dt).reshape(shape)


def record(name, store, variable, path=None):
    """Reads the array back through zarr and keeps its values as the oracle."""
    arr = zarr.open(store, mode="r")
    if path:
        arr = arr[path]
    got = arr[...]
    native = got.astype(got.dtype.newbyteorder("="))
    if native.dtype.kind == "b":
        native = native.astype(np.uint8)
    native.tofile(os.path.join(out, name + ".bin"))
    cases.append({"name": name, "store": os.path.basename(store), "variable": variable,
                  "dtype": str(native.dtype), "shape": list(got.shape)})


def write(name, data, chunks, **kw):
    store = os.path.join(out, name + ".zarr")
    z = zarr.open(store, mode="w", shape=data.shape, chunks=chunks, dtype=data.dtype, **kw)
    z[...] = data
    record(name, store, name)
    return store


# Every compressor, on a float32 array whose chunks do not divide it (ragged edges).
B = numcodecs.Blosc
compressors = {
    "none": None,
    "blosc_lz4_shuffle": B(cname="lz4", clevel=5, shuffle=B.SHUFFLE),
    "blosc_zstd_bitshuffle": B(cname="zstd", clevel=3, shuffle=B.BITSHUFFLE),
    "blosc_zlib_noshuffle": B(cname="zlib", clevel=4, shuffle=B.NOSHUFFLE),
    "blosc_blosclz": B(cname="blosclz", clevel=5, shuffle=B.SHUFFLE),
    "zstd": numcodecs.Zstd(level=3),
    "zlib": numcodecs.Zlib(level=5),
    "gzip": numcodecs.GZip(level=5),
    "lz4": numcodecs.LZ4(),
}
for cname, comp in compressors.items():
    write("codec_" + cname, values("<f4", (13, 17)), (5, 6), compressor=comp)

# Every numeric dtype in both byte orders.
for kind in ["i1", "u1", "b1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8"]:
    orders = ["|"] if kind[1] == "1" else ["<", ">"]
    for o in orders:
        tag = {"<": "le", ">": "be", "|": "na"}[o]
        write("dtype_%s_%s" % (kind, tag), values(o + kind, (9, 11)), (4, 4), compressor=numcodecs.Zlib(1))

# Fortran order (uncompressed and compressed, one big-endian), 3-D ragged.
write("order_f_f8", values("<f8", (7, 9, 5)), (3, 4, 2), order="F", compressor=None)
write("order_f_i4_be", values(">i4", (7, 9, 5)), (3, 4, 2), order="F", compressor=B(cname="lz4"))
# '/' as the chunk key separator.
write("nested_keys", values("<i2", (10, 10)), (3, 4), dimension_separator="/")
# A 0-d array and a 1-D one.
write("scalar", np.array(3.25, dtype="<f8"), (), compressor=None)
write("line", values("<u2", (100,)), (7,))

# Missing chunks read as the fill value (a number, and NaN).
for name, fill in [("fill_number", -999.0), ("fill_nan", float("nan"))]:
    store = os.path.join(out, name + ".zarr")
    z = zarr.open(store, mode="w", shape=(10, 12), chunks=(4, 5), dtype="<f4", fill_value=fill,
                  compressor=numcodecs.Zstd())
    z[0:4, 0:5] = values("<f4", (4, 5))   # chunk 0.0 only
    z[8:10, 10:12] = values("<f4", (2, 2))  # the ragged corner chunk 2.2
    record(name, store, name)
# An integer fill, partly written.
store = os.path.join(out, "fill_int.zarr")
z = zarr.open(store, mode="w", shape=(9,), chunks=(4,), dtype="<i2", fill_value=-7)
z[0:4] = [1, 2, 3, 4]
record("fill_int", store, "fill_int")

# Filters xarray users set (delta, fixedscaleoffset, quantize, shuffle, astype, bitround).
write("filter_delta", np.cumsum(values("<i1", (50,)).astype("<i4")).astype("<i4"), (16,),
      filters=[numcodecs.Delta(dtype="<i4")], compressor=numcodecs.Zlib())
write("filter_fixedscaleoffset", (rng.normal(20, 5, (8, 9))).astype("<f8"), (3, 4),
      filters=[numcodecs.FixedScaleOffset(offset=20, scale=100, dtype="<f8", astype="<i4")],
      compressor=numcodecs.Blosc())
write("filter_quantize", values("<f4", (8, 9)), (4, 4),
      filters=[numcodecs.Quantize(digits=2, dtype="<f4")], compressor=numcodecs.Zstd())
write("filter_shuffle", values("<f8", (30,)), (8,), filters=[numcodecs.Shuffle(elementsize=8)],
      compressor=numcodecs.LZ4())
# 4-byte elements, 8 to a chunk: the byte planes are not square (with 8 of 8 bytes, shuffling
# twice is undoing it).
write("filter_shuffle_f4", values("<f4", (30,)), (8,), filters=[numcodecs.Shuffle(elementsize=4)],
      compressor=numcodecs.Zlib())
write("filter_astype", values("<f8", (12,)), (5,),
      filters=[numcodecs.AsType(encode_dtype="<f4", decode_dtype="<f8")], compressor=None)
# bitround keeps 7 of float32's 23 mantissa bits when writing; reading is the values as stored
# (the test checks they hold no more bits than that: the filter really ran).
write("filter_bitround", values("<f4", (11, 13)), (4, 5), filters=[numcodecs.BitRound(keepbits=7)],
      compressor=numcodecs.Zlib())
# A compressor Strata does not decode.
store = os.path.join(out, "codec_bz2.zarr")
z = zarr.open(store, mode="w", shape=(6,), chunks=(3,), dtype="<f4", compressor=numcodecs.BZ2())
z[...] = np.arange(6, dtype="<f4")

# An xarray dataset with CF encodings, written with to_zarr (consolidated), and a group.
time = np.array("2001-01-01", dtype="datetime64[ns]") + np.arange(6) * np.timedelta64(6, "h")
lat = np.linspace(-60, 60, 5)
lon = np.arange(0, 360, 45.0)
temp = (280 + rng.normal(0, 10, (6, 5, 8))).astype("<f4")
temp[1, 2, 3] = np.nan
ds = xr.Dataset({"temp": (("time", "lat", "lon"), temp, {"units": "K", "long_name": "air temperature"}),
                 "packed": (("time", "lat", "lon"), temp.astype("f8"))},
                coords={"time": time, "lat": ("lat", lat, {"units": "degrees_north"}),
                        "lon": ("lon", lon, {"units": "degrees_east"})},
                attrs={"title": "strata zarr test", "version": 3})
enc = {"packed": {"dtype": "i2", "scale_factor": 0.01, "add_offset": 280.0, "_FillValue": -32768},
       "time": {"units": "hours since 2001-01-01", "calendar": "proleptic_gregorian"}}
store = os.path.join(out, "cf.zarr")
ds.to_zarr(store, mode="w", encoding=enc, consolidated=True)
sub = xr.Dataset({"depth": (("z",), np.array([5.0, 10.0, 20.0]), {"units": "m"})})
sub.to_zarr(store, group="ocean", mode="a", consolidated=True)
back = xr.open_zarr(store, consolidated=True)
cf = {"time": [str(t) for t in np.datetime_as_string(back["time"].values, unit="s")],
      "lat": back["lat"].values.tolist(), "lon": back["lon"].values.tolist(),
      "temp": [None if np.isnan(x) else float(x) for x in back["temp"].values.ravel()],
      "packed": [None if np.isnan(x) else float(x) for x in back["packed"].values.ravel()],
      "packed_dtype": str(back["packed"].dtype),
      "depth": xr.open_zarr(store, group="ocean")["depth"].values.tolist()}
with open(os.path.join(out, "cf.json"), "w") as f:
    json.dump(cf, f)

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(cases, f, indent=1)
