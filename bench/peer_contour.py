"""The peer of bench_contour: contourpy (matplotlib's contour engine, mpl2014, as
matplotlib.contour uses it) on the same 1440 x 721 field and the same 20 levels.

  peer_contour.py [--nlat N] [--nlon N] [--levels N] [--reps N]
"""
import argparse
import time

import numpy as np


def field(ny, nx):
    j, i = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    lat = np.deg2rad(-90 + 180.0 * j / (ny - 1))
    lon = np.deg2rad(360.0 * i / nx)
    z = 280 + 30 * np.cos(lat) + 6 * np.sin(3 * lon) * np.cos(2 * lat) + 0.5 * np.sin(37 * lon + 11 * lat)
    z = z.astype(np.float32)
    z[(np.abs(j - ny // 2) < 6) & (i % 97 < 12)] = np.nan
    return z


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nlat", type=int, default=721)
    p.add_argument("--nlon", type=int, default=1440)
    p.add_argument("--levels", type=int, default=20)
    p.add_argument("--reps", type=int, default=7)
    a = p.parse_args()
    import contourpy

    z = field(a.nlat, a.nlon)
    lo, hi = float(np.nanmin(z)), float(np.nanmax(z))
    levels = [lo + (hi - lo) * k / (a.levels + 1) for k in range(1, a.levels + 1)]
    best = 1e30
    for _ in range(a.reps):
        t0 = time.perf_counter()
        gen = contourpy.contour_generator(z=np.ma.masked_invalid(z), name="mpl2014", corner_mask=False,
                                          line_type="SeparateCode")
        lines = [gen.lines(v) for v in levels]
        best = min(best, time.perf_counter() - t0)
    n = sum(len(ls[0]) for ls in lines)
    points = sum(len(x) for ls in lines for x in ls[0])
    print(f"peer contourpy {contourpy.__version__} mpl2014: {n} lines, {points} points, {best * 1e3:.3f} ms best of "
          f"{a.reps}")


if __name__ == "__main__":
    main()
