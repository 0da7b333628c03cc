#!/usr/bin/python3
"""Writes bench_grib's input: one GRIB 2 file of 1,000 simple-packed messages on a 0.25 degree
global grid (1440 x 721, `bits` bits a value: about 1 MB a message at 8), 10 parameters x 10
pressure levels x 10 steps, as a forecast on pressure levels is laid out. The values are a smooth
field with noise; each parameter's field is packed once and its header set per message.

    PYTHONPATH=~/.cache/strata/grib-oracle/usr/lib/python3/dist-packages \\
        /usr/bin/python3 bench/make_grib_bench.py OUT.grib2 [bits]
"""
import sys

import eccodes
import numpy as np

out_path = sys.argv[1]
bits = int(sys.argv[2]) if len(sys.argv) > 2 else 8
PARAMS = ["t", "u", "v", "z", "q", "r", "w", "vo", "d", "cc"]
LEVELS = [1000, 925, 850, 700, 500, 400, 300, 250, 200, 100]
STEPS = range(0, 60, 6)

with open("/usr/share/eccodes/samples/regular_ll_pl_grib2.tmpl", "rb") as f:
    sample = f.read()
lat = np.linspace(90, -90, 721)[:, None]
lon = np.linspace(0, 359.75, 1440)[None, :]
rng = np.random.default_rng(1)
with open(out_path, "wb") as out:
    for p, name in enumerate(PARAMS):
        h = eccodes.codes_new_from_message(sample)
        for k, v in [("Ni", 1440), ("Nj", 721), ("latitudeOfFirstGridPointInDegrees", 90.0),
                     ("longitudeOfFirstGridPointInDegrees", 0.0),
                     ("latitudeOfLastGridPointInDegrees", -90.0),
                     ("longitudeOfLastGridPointInDegrees", 359.75),
                     ("iDirectionIncrementInDegrees", 0.25), ("jDirectionIncrementInDegrees", 0.25),
                     ("shortName", name), ("dataDate", 20240601), ("stepUnits", 1),
                     ("bitsPerValue", bits)]:
            eccodes.codes_set(h, k, v)
        field = (10 * np.cos(np.radians(lat)) * np.sin(np.radians((p + 1) * lon))
                 + rng.normal(0, 0.5, (721, 1440)))
        eccodes.codes_set_values(h, field.ravel())
        for level in LEVELS:
            for step in STEPS:
                c = eccodes.codes_clone(h)
                eccodes.codes_set(c, "level", level)
                eccodes.codes_set(c, "step", step)
                out.write(eccodes.codes_get_message(c))
                eccodes.codes_release(c)
        eccodes.codes_release(h)
