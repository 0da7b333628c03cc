"""Isolines by contourpy (matplotlib's contour engine, mpl2014, quads with a missing corner left
out), for tst_contouroracle: prints {"levels": [{"level": L, "lines": [[x0, y0, x1, y1, ...],
...], "closed": [true, ...]}, ...]} in index space (x the column, y the row). A line is closed
as its codes say (CLOSEPOLY last), or when it ends where it began: mpl2014 leaves some loops
unmarked, their last point a few bits from their first. A line of two points (a level met at
one corner only) is not closed, whatever its code.

  contour_oracle.py raw FILE NY NX LEVEL...     FILE: NY*NX float64, row-major, NaN missing
  contour_oracle.py nc FILE VAR T LEVEL...      VAR[T, :, :] of a netCDF file, fill values masked
"""
import json
import sys

import contourpy
import numpy as np


def main(argv):
    kind, path = argv[1], argv[2]
    if kind == "raw":
        ny, nx = int(argv[3]), int(argv[4])
        z = np.fromfile(path, dtype="<f8").reshape(ny, nx)
        levels = [float(v) for v in argv[5:]]
    else:
        import netCDF4

        with netCDF4.Dataset(path) as ds:
            z = np.ma.filled(ds[argv[3]][int(argv[4])].astype("f8"), np.nan)
        levels = [float(v) for v in argv[5:]]
    gen = contourpy.contour_generator(z=np.ma.masked_invalid(z), name="mpl2014", corner_mask=False,
                                      line_type="SeparateCode")
    out = []
    for level in levels:
        lines, codes = gen.lines(level)
        out.append({"level": level, "lines": [line.ravel().tolist() for line in lines],
                    "closed": [bool(len(line) > 2 and (c[-1] == 79 or np.allclose(line[0], line[-1], rtol=0,
                                                                                   atol=1e-9)))
                               for line, c in zip(lines, codes)]})
    json.dump({"levels": out}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
