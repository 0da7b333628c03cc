#!/usr/bin/python3
"""cfgrib's view of GRIB files, as JSON on stdout, for tst_grib_oracle: for each file, the
datasets cfgrib.open_datasets makes (Debian's python3-cfgrib 0.9.10 with python3-eccodes), each
with its attributes, coordinates (times as seconds since 1970-01-01, steps as hours) and
variables (dims, shape, attributes and every value, NaN as null).

    grib_oracle.py FILE...
"""
import json
import math
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
import cfgrib  # noqa: E402


def plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(float(v)) else float(v)
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v.tolist()]
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def numbers(da):
    a = da.values
    if np.issubdtype(a.dtype, np.datetime64):
        a = a.astype("datetime64[s]").astype("int64").astype("float64")
    elif np.issubdtype(a.dtype, np.timedelta64):
        a = a.astype("timedelta64[s]").astype("int64") / 3600.0
    return [None if math.isnan(x) else float(x) for x in np.asarray(a, dtype="float64").ravel()]


def describe(ds):
    out = {"attrs": {k: plain(v) for k, v in ds.attrs.items() if k != "history"}, "coords": {}, "vars": {}}
    for name, c in ds.coords.items():
        out["coords"][name] = {"dims": list(c.dims), "values": numbers(c),
                               "attrs": {k: plain(v) for k, v in c.attrs.items()}}
    for name, v in ds.data_vars.items():
        out["vars"][name] = {"dims": list(v.dims), "shape": list(v.shape),
                             "attrs": {k: plain(x) for k, x in v.attrs.items()}, "values": numbers(v)}
    return out


def main():
    result = {}
    for path in sys.argv[1:]:
        refused = ""
        try:
            cfgrib.open_dataset(path, backend_kwargs={"indexpath": ""})
        except Exception as e:  # open_dataset refuses files that mix level types
            refused = str(e).splitlines()[0]
        result[path] = {"open_dataset_refused": refused,
                        "datasets": [describe(ds) for ds in cfgrib.open_datasets(path, backend_kwargs={"indexpath": ""})]}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
