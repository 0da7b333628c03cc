#!/usr/bin/python3
"""Cross-checks Strata's Zarr v3 fixtures with tensorstore (an independent v3 implementation), on
a machine where tensorstore is installed (the GPU machine):

1. every fixture tests/io/zarr_v3_stores.py writes (hand-made from the specification) is read
   with tensorstore and compared with the values it is meant to hold (<name>.bin);
2. tensorstore writes a v3 store (zstd, blosc, gzip, sharding with a CRC-32C index, transpose,
   big-endian, missing chunks as NaN), and Strata's command line exports each array as CSV,
   which must equal what tensorstore wrote.

    cross_check_tensorstore.py FIXTURES STRATA OUTDIR

FIXTURES: tests/data/zarr_v3 (committed), or a directory written by
`python3 tests/io/zarr_v3_stores.py FIXTURES` (made here when it is missing and numcodecs is
importable). STRATA: the strata binary (build/app/strata), whose
CSV export is read back; "python", Strata's Python module (importable: PYTHONPATH), whose
strata.open reads each array onto the GPU where CuPy is installed (else the host); or "-" to
skip step 2. Prints one line per check and exits 1 when any fails.
"""
import csv
import json
import os
import subprocess
import sys

import numpy as np

fixtures, strata, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


try:
    import tensorstore as ts
except ImportError as e:
    print("tensorstore is not installed here (%s): nothing checked" % e)
    sys.exit(2)

if not os.path.exists(os.path.join(fixtures, "manifest.json")):
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "..", "io", "zarr_v3_stores.py"), fixtures], check=True)

# 1. tensorstore reads the hand-made fixtures.
for case in json.load(open(os.path.join(fixtures, "manifest.json"))):
    store = os.path.join(fixtures, case["store"])
    node = os.path.join(store, case["variable"])
    if not os.path.exists(os.path.join(node, "zarr.json")):
        node = store  # a root array
    want = np.fromfile(os.path.join(fixtures, case["name"] + ".bin"), dtype=case["dtype"]).reshape(case["shape"])
    try:
        got = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": node}}, open=True).result().read().result()
        check(same(got, want), "tensorstore reads fixture %s as it is meant to hold" % case["name"])
    except Exception as e:  # noqa: BLE001 -- a fixture tensorstore refuses is a finding
        check(False, "tensorstore reads fixture %s: %s" % (case["name"], str(e)[:300]))

# 2. tensorstore writes, Strata reads.
if strata == "-":
    sys.exit(1 if failures else 0)
# One store per array: their lat/lon lengths differ, and one group's arrays share its dims (a
# reader keeps one length per dim, as xarray does).
def new_store(name):
    root = os.path.join(out, name + ".zarr")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "zarr.json"), "w") as f:
        json.dump({"zarr_format": 3, "node_type": "group", "attributes": {"title": "written by tensorstore"}}, f)
    return root


LE = {"name": "bytes", "configuration": {"endian": "little"}}
BE = {"name": "bytes", "configuration": {"endian": "big"}}
rng = np.random.default_rng(42)
arrays = {
    "ts_zstd": (rng.normal(280, 20, (11, 13)).astype("float32"), [4, 5], [LE, {"name": "zstd", "configuration": {"level": 3, "checksum": False}}], "NaN"),
    "ts_blosc_be_t": (rng.normal(0, 1e3, (7, 9)), [3, 4], [{"name": "transpose", "configuration": {"order": [1, 0]}}, BE,
                      {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 8, "blocksize": 0}}], "NaN"),
    "ts_shard": (rng.integers(-30000, 30000, (12, 10)).astype("int16"), [6, 10], [{"name": "sharding_indexed", "configuration": {
        "chunk_shape": [3, 5], "codecs": [LE, {"name": "gzip", "configuration": {"level": 5}}],
        "index_codecs": [LE, {"name": "crc32c"}]}}], -32768),
}
written = {}  # name: (its store, the values Strata must read: float64, NaN where never written)
for name, (data, chunks, codecs, fill) in arrays.items():
    root = new_store(name)
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": os.path.join(root, name)},
            "metadata": {"shape": list(data.shape), "data_type": str(data.dtype),
                         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
                         "chunk_key_encoding": {"name": "default"}, "fill_value": fill, "codecs": codecs,
                         "dimension_names": ["lat", "lon"]}}
    arr = ts.open(spec, create=True, delete_existing=True).result()
    expected = data.astype("float64")
    if name == "ts_zstd":  # the last chunk row is never written: NaN, the fill value
        arr[0:8, :].write(data[0:8, :]).result()
        expected[8:, :] = np.nan
    else:
        arr.write(data).result()
    written[name] = (root, expected)


def read_csv(name, root, shape):
    """The array as the command line exports it (None, and a failed check, when it cannot)."""
    csv_path = os.path.join(out, name + ".csv")
    run = subprocess.run([strata, root, "--var", name, "--y", "lat", "--x", "lon", "--export-csv", csv_path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        check(False, "strata exports %s written by tensorstore: %s" % (name, (run.stderr or run.stdout)[-300:]))
        return None
    got = np.full(shape, -1.0)
    seen = np.zeros(shape, dtype=bool)
    with open(csv_path) as f:
        rows = csv.reader(f)
        header = next(rows)
        iy, ix, iv = header.index("lat"), header.index("lon"), header.index(name)
        for r in rows:
            y, x = int(float(r[iy])), int(float(r[ix]))
            got[y, x] = float(r[iv]) if r[iv] != "" else np.nan
            seen[y, x] = True
    check(bool(seen.all()), "strata exports every cell of %s" % name)
    info = subprocess.run([strata, root, "--info"], capture_output=True, text=True)
    check(info.returncode == 0 and name in info.stdout, "strata --info lists %s in its store" % name)
    return got


def read_python(name, root, shape):
    """The array as strata.open gives it: onto the GPU as CuPy where CuPy is installed."""
    ds = st.open(root, device=device)
    check(list(ds.data_vars) == [name], "strata.open lists %s in its store" % name)
    if name not in ds.data_vars:
        return None
    v = ds[name]
    on_device = cupy is not None and isinstance(v.data, cupy.ndarray)
    check(v.dims == ("lat", "lon") and (on_device or device == "cpu"),
          "strata.open(device=%r) gives %s its dims%s" % (device, name, ", as CuPy" if on_device else ""))
    return (v.data.get() if on_device else np.asarray(v.data)).astype("float64")


if strata == "python":
    import strata as st
    try:
        import cupy
        device = "cuda"
    except ImportError:
        cupy, device = None, "cpu"
    read = read_python
else:
    read = read_csv
for name, (root, expected) in written.items():
    got = read(name, root, expected.shape)
    if got is not None:
        check(np.allclose(got, expected, rtol=1e-6, atol=0, equal_nan=True),
              "strata reads %s (%s) written by tensorstore" % (name, arrays[name][0].dtype))
sys.exit(1 if failures else 0)
