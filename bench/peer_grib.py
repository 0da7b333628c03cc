#!/usr/bin/python3
"""bench_grib's peer: cfgrib (with xarray) opening the same GRIB file, which indexes every
message (no index file kept), and reading one variable's values on the CPU.

    PYTHONPATH=~/.cache/strata/grib-oracle/usr/lib/python3/dist-packages \\
        /usr/bin/python3 bench/peer_grib.py FILE [reps]
"""
import sys
import time
import warnings

warnings.simplefilter("ignore")
import cfgrib  # noqa: E402

path = sys.argv[1]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
best = 1e30
for _ in range(reps):
    t0 = time.perf_counter()
    datasets = cfgrib.open_datasets(path, backend_kwargs={"indexpath": ""})
    best = min(best, time.perf_counter() - t0)
print(f"cfgrib open_datasets (index): best {best:.3f} s of {reps}")
var = next(iter(datasets[0].data_vars.values()))
t0 = time.perf_counter()
values = var.values
took = time.perf_counter() - t0
print(f"cfgrib decode '{var.name}': {values.size / 1e6:.0f} M values in {took:.3f} s "
      f"({values.size / took / 1e6:.0f} Mvalues/s)")
