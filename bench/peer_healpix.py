#!/usr/bin/python3
"""The peer of bench_healpix: healpy (Debian's python3-healpy 1.16) projecting a whole-sky
HEALPix map (nest, random float32) onto a 1920-pixel-wide image, Mollweide (healpy's mollview
projector) and plate carrée (cartview's), the projection alone (no matplotlib figure), as
bench_healpix times Strata's. healpy has no Robinson. Median and best of 5 after one not timed.

    /usr/bin/python3 bench/peer_healpix.py [LEVEL ...]   (default 8 10)
"""
import sys
import time

import healpy
import numpy as np

levels = [int(a) for a in sys.argv[1:]] or [8, 10]
for level in levels:
    nside = 2 ** level
    m = np.random.default_rng(level).uniform(200, 320, 12 * nside * nside).astype(np.float32)
    for name, proj in (("Mollweide", healpy.projector.MollweideProj(xsize=1920)),
                       ("PlateCarree", healpy.projector.CartesianProj(xsize=1920, ysize=960))):
        f = lambda x, y, z: healpy.vec2pix(nside, x, y, z, nest=True)  # noqa: E731
        proj.projmap(m, f)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            proj.projmap(m, f)
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"healpy {name} level {level:2d} ({12 * nside * nside} cells): median {times[2] * 1e3:8.1f} ms"
              f"  best {times[0] * 1e3:8.1f} ms")
