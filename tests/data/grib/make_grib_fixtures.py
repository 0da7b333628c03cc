#!/usr/bin/python3
"""Writes the GRIB fixtures of tests/data/grib from ecCodes' own samples, filled with analytic
fields through python3-eccodes (Debian). Deterministic: run it again and the bytes are the same.

    /usr/bin/python3 tests/data/grib/make_grib_fixtures.py [out_dir]

Each field is f(lat, lon) + a term per level, step, date and member, so that a value read at the
wrong place differs by far more than the packing's precision (16 bits over the field's range).
"""
import math
import os
import sys

import eccodes

SAMPLES = "/usr/share/eccodes/samples"
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def sample(name):
    with open(os.path.join(SAMPLES, name + ".tmpl"), "rb") as f:
        return eccodes.codes_new_from_message(f.read())


def field(lats, lons, base, wave):
    """base + a smooth pattern, in row-major order over (lat, lon)."""
    return [
        base + 10.0 * math.cos(math.radians(la)) * math.sin(math.radians(wave * lo)) + 0.05 * la
        for la in lats
        for lo in lons
    ]


def regular_ll(h, ni, nj, lat0, lon0, dlat, dlon):
    """A regular lat/lon grid scanning west to east, north to south."""
    eccodes.codes_set(h, "Ni", ni)
    eccodes.codes_set(h, "Nj", nj)
    eccodes.codes_set(h, "latitudeOfFirstGridPointInDegrees", lat0)
    eccodes.codes_set(h, "longitudeOfFirstGridPointInDegrees", lon0)
    eccodes.codes_set(h, "latitudeOfLastGridPointInDegrees", lat0 - (nj - 1) * dlat)
    eccodes.codes_set(h, "longitudeOfLastGridPointInDegrees", lon0 + (ni - 1) * dlon)
    eccodes.codes_set(h, "iDirectionIncrementInDegrees", dlon)
    eccodes.codes_set(h, "jDirectionIncrementInDegrees", dlat)
    lats = [lat0 - j * dlat for j in range(nj)]
    lons = [lon0 + i * dlon for i in range(ni)]
    return lats, lons


def write(out, h, keys, values):
    for k, v in keys:
        eccodes.codes_set(h, k, v)
    eccodes.codes_set_values(h, values)
    out.write(eccodes.codes_get_message(h))


def pressure_levels(path):
    """GRIB 2, regular_ll 12 x 7: t and z on 3 pressure levels, 2 dates, 2 steps, 3 members;
    t lacks (date 2, step 6, 500 hPa, member 2): that place reads as NaN."""
    with open(path, "wb") as out:
        for date, time in ((20240101, 0), (20240101, 1200)):
            for step in (0, 6):
                for level in (1000, 850, 500):
                    for number in (0, 1, 2):
                        for short, base, wave in (("t", 250.0, 1), ("z", 5000.0, 2)):
                            if (short, time, step, level, number) == ("t", 1200, 6, 500, 2):
                                continue
                            h = sample("regular_ll_pl_grib2")
                            eccodes.codes_set(h, "typeOfLevel", "isobaricInhPa")
                            eccodes.codes_set(h, "level", level)
                            lats, lons = regular_ll(h, 12, 7, 60.0, -10.0, 5.0, 2.5)
                            # an ensemble forecast: product template 1 carries the member
                            eccodes.codes_set(h, "productDefinitionTemplateNumber", 1)
                            eccodes.codes_set(h, "numberOfForecastsInEnsemble", 3)
                            eccodes.codes_set(h, "perturbationNumber", number)
                            extra = level / 100.0 + step + time / 1200.0 * 3 + number * 0.5
                            write(
                                out,
                                h,
                                [
                                    ("shortName", short),
                                    ("dataDate", date),
                                    ("dataTime", time),
                                    ("stepUnits", 1),
                                    ("step", step),
                                    ("bitsPerValue", 16),
                                ],
                                field(lats, lons, base + extra, wave),
                            )
                            eccodes.codes_release(h)


def mixed(path):
    """GRIB 2, regular_ll 16 x 9 global-ish: 2t at 2 m (instant), t on 850 and 500 hPa and at the
    surface (instant), tp at the surface accumulated over 0-6 and 0-12 h. cfgrib's open_dataset
    refuses it (t has two level types); open_datasets splits it."""
    with open(path, "wb") as out:
        for step in (6, 12):
            h = sample("regular_ll_sfc_grib2")
            lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
            write(
                out,
                h,
                [("shortName", "2t"), ("dataDate", 20230615), ("dataTime", 600), ("step", step),
                 ("bitsPerValue", 16)],
                field(lats, lons, 280.0 + step, 1),
            )
            eccodes.codes_release(h)
            for level in (850, 500):
                h = sample("regular_ll_pl_grib2")
                eccodes.codes_set(h, "level", level)
                lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
                write(
                    out,
                    h,
                    [("shortName", "t"), ("dataDate", 20230615), ("dataTime", 600), ("step", step),
                     ("bitsPerValue", 16)],
                    field(lats, lons, 240.0 + level / 50.0 + step, 3),
                )
                eccodes.codes_release(h)
            h = sample("regular_ll_sfc_grib2")
            lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
            write(
                out,
                h,
                [("shortName", "t"), ("typeOfLevel", "surface"), ("dataDate", 20230615),
                 ("dataTime", 600), ("step", step), ("bitsPerValue", 16)],
                field(lats, lons, 285.0 + step, 2),
            )
            eccodes.codes_release(h)
            h = sample("regular_ll_sfc_grib2")
            lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
            eccodes.codes_set(h, "productDefinitionTemplateNumber", 8)  # over an interval
            eccodes.codes_set(h, "shortName", "tp")
            eccodes.codes_set(h, "stepRange", "0-%d" % step)
            vals = [max(0.0, v) for v in field(lats, lons, step * 0.001, 2)]
            write(
                out,
                h,
                [("dataDate", 20230615), ("dataTime", 600), ("bitsPerValue", 16)],
                [v * 0.001 for v in vals],
            )
            eccodes.codes_release(h)


def single_levels(path):
    """GRIB 2, regular_ll 16 x 9, ERA5's single levels: 2t and 2d at 2 m, 10u and 10v at 10 m,
    msl at mean sea level, on steps 0 and 6. The 2 m and 10 m fields are apart in cfgrib's
    datasets and in Strata's groups."""
    with open(path, "wb") as out:
        for step in (0, 6):
            for short, base, sample_name in (("2t", 280.0, "regular_ll_sfc_grib2"), ("2d", 270.0, "regular_ll_sfc_grib2"),
                                             ("10u", 5.0, "regular_ll_sfc_grib2"), ("10v", -3.0, "regular_ll_sfc_grib2"),
                                             ("msl", 101000.0, "regular_ll_sfc_grib2")):
                h = sample(sample_name)
                lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
                write(out, h, [("shortName", short), ("dataDate", 20190704), ("dataTime", 0),
                               ("step", step), ("bitsPerValue", 16)],
                      field(lats, lons, base + step, 1))
                eccodes.codes_release(h)


def gaussian(path):
    """GRIB 1, regular_gg N=32 (64 x 128): msl on 3 steps, one bitmap-masked point per field."""
    with open(path, "wb") as out:
        for step in (0, 3, 6):
            h = sample("regular_gg_sfc_grib1")  # N=32: 64 x 128, as the sample has it
            lats = sorted(eccodes.codes_get_array(h, "distinctLatitudes"), reverse=True)
            lons = [2.8125 * i for i in range(128)]
            values = field(lats, lons, 101300.0 + 10 * step, 2)
            eccodes.codes_set(h, "bitmapPresent", 1)
            eccodes.codes_set(h, "missingValue", 9999.0)
            values[5 + step] = 9999.0
            write(
                out,
                h,
                [("shortName", "msl"), ("dataDate", 20200229), ("dataTime", 1800), ("stepUnits", 1),
                 ("P1", step), ("bitsPerValue", 16)],
                values,
            )
            eccodes.codes_release(h)


def unsupported(path):
    """GRIB 2: two fields on a regular_ll grid and one on a spherical-harmonics grid that
    Strata does not read (skipped with a note)."""
    with open(path, "wb") as out:
        h = sample("regular_ll_sfc_grib2")
        lats, lons = regular_ll(h, 8, 5, 40.0, 0.0, 10.0, 10.0)
        write(out, h, [("shortName", "2t"), ("dataDate", 20220101), ("bitsPerValue", 12)],
              field(lats, lons, 270.0, 1))
        eccodes.codes_release(h)
        h = sample("sh_sfc_grib2")
        out.write(eccodes.codes_get_message(h))
        eccodes.codes_release(h)
        h = sample("regular_ll_sfc_grib2")
        regular_ll(h, 8, 5, 40.0, 0.0, 10.0, 10.0)
        write(out, h, [("shortName", "2t"), ("dataDate", 20220102), ("bitsPerValue", 12)],
              field(lats, lons, 275.0, 1))
        eccodes.codes_release(h)


def projected(path, name, keys):
    """GRIB 2 on a projected grid of 16 x 31 points (the sample's size) with `keys` setting its
    geometry: 2t at steps 0 and 12. cfgrib gives it (y, x) dims with 2-D latitude and longitude."""
    with open(path, "wb") as out:
        for step in (0, 12):
            h = sample(name)
            for k, v in keys:
                eccodes.codes_set(h, k, v)
            n = eccodes.codes_get(h, "numberOfPoints")
            ni = eccodes.codes_get(h, "Ni")
            values = [270.0 + step + 0.1 * (k % ni) + 0.05 * (k // ni) for k in range(n)]
            write(out, h, [("shortName", "2t"), ("dataDate", 20210301), ("step", step),
                           ("bitsPerValue", 16)], values)
            eccodes.codes_release(h)


def reduced(path, name, octahedral):
    """A reduced Gaussian grid N=32 of the sample `name`: as the sample has it (classic, 6114
    points), or `octahedral` (O32: 20 + 4 i points on the i-th row from a pole, 5248 points).
    t on 850 and 500 hPa at steps 0 and 6, each point f(ecCodes' latitude, longitude) =
    250 + 10 cos(lat) sin(3 lon) + 0.05 lat + level / 100 + step; one point per field
    missing (bitmap), the (7 + step)-th."""
    with open(path, "wb") as out:
        for level in (850, 500):
            for step in (0, 6):
                h = sample(name)
                if octahedral:
                    pl = [20 + 4 * i for i in range(32)]
                    eccodes.codes_set_array(h, "pl", pl + pl[::-1])
                    eccodes.codes_set(h, "longitudeOfLastGridPointInDegrees", 360.0 - 360.0 / pl[-1])
                lats = eccodes.codes_get_array(h, "latitudes")
                lons = eccodes.codes_get_array(h, "longitudes")
                values = [250.0 + 10.0 * math.cos(math.radians(la)) * math.sin(math.radians(3 * lo))
                          + 0.05 * la + level / 100.0 + step for la, lo in zip(lats, lons)]
                eccodes.codes_set(h, "bitmapPresent", 1)
                eccodes.codes_set(h, "missingValue", 9999.0)
                values[7 + step] = 9999.0
                write(out, h, [("shortName", "t"), ("typeOfLevel", "isobaricInhPa"), ("level", level),
                               ("dataDate", 20230715), ("dataTime", 600), ("stepUnits", 1),
                               ("step" if "grib2" in name else "P1", step), ("bitsPerValue", 16)], values)
                eccodes.codes_release(h)


def file_set(out_dir):
    """sets/: 2t on a regular_ll 12 x 7 grid, f = 280 + 10 cos(lat) sin(lon) + 0.05 lat + day +
    step / 10 (day: 1, 2 or 3 of March 2022), split into files by date (by_time_1/2: one day
    each, steps 0 and 6), by step (by_step_0/6: both days, one step each), and one file on
    another grid (other_grid: day 3, 8 x 5)."""
    os.makedirs(out_dir, exist_ok=True)

    def one(path, days, steps, ni=12, nj=7):
        with open(os.path.join(out_dir, path), "wb") as out:
            for day in days:
                for step in steps:
                    h = sample("regular_ll_sfc_grib2")
                    lats, lons = regular_ll(h, ni, nj, 60.0, 0.0, 360.0 / ni / 2, 360.0 / ni)
                    values = [280.0 + 10.0 * math.cos(math.radians(la)) * math.sin(math.radians(lo))
                              + 0.05 * la + day + step / 10.0 for la in lats for lo in lons]
                    write(out, h, [("shortName", "2t"), ("dataDate", 20220300 + day), ("dataTime", 0),
                                   ("stepUnits", 1), ("step", step), ("bitsPerValue", 16)], values)
                    eccodes.codes_release(h)

    one("by_time_1.grib2", [1], [0, 6])
    one("by_time_2.grib2", [2], [0, 6])
    one("by_step_0.grib2", [1, 2], [0])
    one("by_step_6.grib2", [1, 2], [6])
    one("other_grid.grib2", [3], [0, 6], 8, 5)


def simple_packing(path):
    """GRIB 2, regular_ll 37 x 23 (851 points, odd so that bitmaps end mid-byte): random fields
    (seeded) simple-packed at 0 (a constant field), 1, 7, 13, 16, 24 and 31 bits a value, one
    more repacked with a decimal scale of 2 (ecCodes then picks 14 bits), and a bitmap (about one point in five missing) at 7 and 24
    bits. For tst_grib_simple, which decodes them itself and compares with ecCodes."""
    import random
    rnd = random.Random(39)
    with open(path, "wb") as out:
        for k, (bits, decimal, holes) in enumerate([(0, 0, False), (1, 0, False), (7, 0, True), (13, 0, False),
                                                    (16, 0, False), (24, 0, True), (31, 0, False),
                                                    (16, 2, False)]):
            h = sample("regular_ll_sfc_grib2")
            regular_ll(h, 37, 23, 44.0, 0.0, 2.0, 2.0)
            if bits == 0:
                values = [287.25] * 851
            else:
                values = [rnd.uniform(-40.0, 60.0) * (k + 1) for _ in range(851)]
            if holes:
                eccodes.codes_set(h, "bitmapPresent", 1)
                eccodes.codes_set(h, "missingValue", 9999.0)
                for i in range(851):
                    if rnd.random() < 0.2:
                        values[i] = 9999.0
            eccodes.codes_set(h, "shortName", "2t")
            eccodes.codes_set(h, "dataDate", 20240101 + k)
            eccodes.codes_set(h, "bitsPerValue", bits)
            eccodes.codes_set_values(h, values)
            if decimal:
                eccodes.codes_set(h, "changeDecimalPrecision", decimal)
            out.write(eccodes.codes_get_message(h))
            eccodes.codes_release(h)


def packings(path):
    """GRIB 2, regular_ll 16 x 9: 2t on steps 0, 6, 12 and 18, each packed otherwise (complex
    packing with spatial differencing, as ICON and the GFS write; complex packing; CCSDS, as
    ECMWF's open data; JPEG 2000, as NCEP's): Strata's reader leaves them to ecCodes. (PNG
    packing is not here: Debian's ecCodes 2.28 fails an assertion writing it.)"""
    with open(path, "wb") as out:
        for step, packing in ((0, "grid_complex_spatial_differencing"), (6, "grid_complex"),
                              (12, "grid_ccsds"), (18, "grid_jpeg")):
            h = sample("regular_ll_sfc_grib2")
            lats, lons = regular_ll(h, 16, 9, 80.0, 0.0, 20.0, 22.5)
            for k, v in (("shortName", "2t"), ("dataDate", 20230115), ("dataTime", 1200), ("step", step)):
                eccodes.codes_set(h, k, v)
            values = field(lats, lons, 270.0 + step, 2)
            eccodes.codes_set(h, "bitsPerValue", 16)
            eccodes.codes_set_values(h, values)  # simple first: a new packing repacks what is there
            eccodes.codes_set(h, "packingType", packing)
            eccodes.codes_set_values(h, values)
            assert eccodes.codes_get(h, "packingType") == packing
            out.write(eccodes.codes_get_message(h))
            eccodes.codes_release(h)


def from_netcdf(path):
    """tests/data/hgt.nc converted to GRIB 2: HGT (time 21, lat 73, lon 144, 500 hPa, NCEP/NCAR
    reanalysis monthly means) as geopotential height `gh` on isobaricInhPa 500, one message a
    month (dataDate the first of the month its "months since 1958-1-1" names), rows north to
    south as GRIB scans them (the file's run south to north), 16 bits. A netCDF file's field read
    back through GRIB: the same values within the packing's precision."""
    import netCDF4
    with netCDF4.Dataset(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hgt.nc")) as f:
        hgt = f["HGT"][:].filled(float("nan"))
        months = [int(m) for m in f["time"][:]]
        lats = [float(x) for x in f["lat"][:]]
        lons = [float(x) for x in f["lon"][:]]
    assert lats[0] < lats[-1]  # south to north in the file
    with open(path, "wb") as out:
        for k, m in enumerate(months):
            h = sample("regular_ll_pl_grib2")
            regular_ll(h, len(lons), len(lats), lats[-1], lons[0], lats[1] - lats[0], lons[1] - lons[0])
            year, month = 1958 + m // 12, 1 + m % 12
            values = [float(v) for row in hgt[k][::-1] for v in row]
            write(out, h, [("shortName", "gh"), ("typeOfLevel", "isobaricInhPa"), ("level", 500),
                           ("dataDate", year * 10000 + month * 100 + 1), ("dataTime", 0), ("step", 0),
                           ("bitsPerValue", 16)], values)
            eccodes.codes_release(h)


ROTATED = [  # EURO-CORDEX's pole (39.25 N, 162 W), 0.44 degree cells
    ("latitudeOfSouthernPoleInDegrees", -39.25), ("longitudeOfSouthernPoleInDegrees", 18.0),
    ("latitudeOfFirstGridPointInDegrees", 6.6), ("longitudeOfFirstGridPointInDegrees", -4.4),
    ("latitudeOfLastGridPointInDegrees", 6.6 - 30 * 0.44),
    ("longitudeOfLastGridPointInDegrees", -4.4 + 15 * 0.44),
    ("iDirectionIncrementInDegrees", 0.44), ("jDirectionIncrementInDegrees", 0.44),
]
POLAR = [  # north polar stereographic, true at 60 N, 50 km cells from (30 N, 120 W)
    ("latitudeOfFirstGridPointInDegrees", 30.0), ("longitudeOfFirstGridPointInDegrees", 240.0),
    ("orientationOfTheGridInDegrees", 255.0), ("LaDInDegrees", 60.0),
    ("DxInMetres", 50000.0), ("DyInMetres", 50000.0), ("jScansPositively", 1),
]
LAMBERT = [  # Lambert conformal, secant at 30 and 60 N, 40 km cells from (25 N, 110 W)
    ("gridDefinitionTemplateNumber", 30), ("Nx", 16), ("Ny", 31),
    ("latitudeOfFirstGridPointInDegrees", 25.0), ("longitudeOfFirstGridPointInDegrees", 250.0),
    ("LaDInDegrees", 45.0), ("LoVInDegrees", 260.0), ("Latin1InDegrees", 30.0),
    ("Latin2InDegrees", 60.0), ("DxInMetres", 40000.0), ("DyInMetres", 40000.0),
    ("jScansPositively", 1),
]


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    pressure_levels(os.path.join(OUT, "pressure_levels.grib2"))
    mixed(os.path.join(OUT, "mixed.grib2"))
    single_levels(os.path.join(OUT, "single_levels.grib2"))
    gaussian(os.path.join(OUT, "gaussian.grib1"))
    unsupported(os.path.join(OUT, "unsupported_grid.grib2"))
    projected(os.path.join(OUT, "rotated_ll.grib2"), "rotated_ll_sfc_grib2", ROTATED)
    projected(os.path.join(OUT, "polar_stereographic.grib2"), "polar_stereographic_sfc_grib2", POLAR)
    projected(os.path.join(OUT, "lambert.grib2"), "regular_ll_sfc_grib2", LAMBERT)
    reduced(os.path.join(OUT, "reduced_gg.grib2"), "reduced_gg_pl_32_grib2", False)
    reduced(os.path.join(OUT, "octahedral.grib1"), "reduced_gg_pl_32_grib1", True)
    file_set(os.path.join(OUT, "sets"))
    simple_packing(os.path.join(OUT, "simple_packing.grib2"))
    packings(os.path.join(OUT, "packings.grib2"))
    from_netcdf(os.path.join(OUT, "hgt_from_netcdf.grib2"))
