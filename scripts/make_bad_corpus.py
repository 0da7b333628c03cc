#!/usr/bin/python3
"""Writes tests/data/bad/: small hostile and odd netCDF files, each with a known outcome that
tests/io/tst_badfiles.cpp asserts (README.md there lists them). Deterministic: the random bytes
come from a fixed seed. Needs python3-netcdf4 (Debian's) and numpy.

    scripts/make_bad_corpus.py [output dir]   (default: tests/data/bad next to this script)
"""
import os
import random
import struct
import sys
import tempfile

import numpy as np
import netCDF4

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "bad")


def path(name):
    return os.path.join(OUT, name)


def write_bytes(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def read_bytes(name):
    with open(path(name), "rb") as f:
        return f.read()


# ---- classic headers written byte by byte (CDF-1 and CDF-5) ----------------------------------

def be(v, n):
    return v.to_bytes(n, "big")


def pad4(b):
    return b + b"\0" * ((4 - len(b) % 4) % 4)


def name5(n):
    raw = n.encode()
    return be(len(raw), 8) + pad4(raw)


def cdf5_overflow():
    """dims a = 2^40, b = 2^30 and a double variable over both: 2^73 bytes declared."""
    h = b"CDF\x05" + be(0, 8)
    h += be(0x0A, 4) + be(2, 8) + name5("a") + be(1 << 40, 8) + name5("b") + be(1 << 30, 8)
    h += be(0, 4) + be(0, 8)  # no global attributes
    h += be(0x0B, 4) + be(1, 8) + name5("v") + be(2, 8) + be(0, 8) + be(1, 8)
    h += be(0, 4) + be(0, 8) + be(6, 4) + be(0, 8) + be(200, 8)  # no atts, double, vsize, begin
    return h.ljust(200, b"\0")


def cdf5_huge_rank():
    """A variable declaring 3523215360 dims (netCDF-C would allocate 28 GB for their ids)."""
    h = b"CDF\x05" + be(0, 8)
    h += be(0x0A, 4) + be(1, 8) + name5("x") + be(4, 8)
    h += be(0, 4) + be(0, 8)
    h += be(0x0B, 4) + be(1, 8) + name5("v") + be(0xD2000000, 8) + be(0, 8) * 4
    return h


def cdf1_long_name():
    """A dim whose name is 300 bytes long (netCDF-C copies names into 257-byte buffers)."""
    long_name = b"d" * 300
    h = b"CDF\x01" + be(0, 4)
    h += be(0x0A, 4) + be(1, 4) + be(len(long_name), 4) + pad4(long_name) + be(3, 4)
    h += be(0, 4) + be(0, 4) + be(0, 4) + be(0, 4)  # no attributes, no variables
    return h


def cdf1_bad_dimid():
    """A variable using dim id 7 in a file that declares one dim."""
    h = b"CDF\x01" + be(0, 4)
    h += be(0x0A, 4) + be(1, 4) + be(1, 4) + pad4(b"x") + be(3, 4)
    h += be(0, 4) + be(0, 4)
    h += be(0x0B, 4) + be(1, 4) + be(1, 4) + pad4(b"v") + be(1, 4) + be(7, 4)
    h += be(0, 4) + be(0, 4) + be(5, 4) + be(12, 4) + be(64, 4)
    return h.ljust(76, b"\0")


# ---- files written through netCDF-C (python3-netcdf4) ----------------------------------------

def classic_base():
    """The source of the truncated copies: t(time=3, lat=4, lon=5) float, 240 data bytes."""
    with netCDF4.Dataset(path("_base_classic.nc"), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("time", None)
        ds.createDimension("lat", 4)
        ds.createDimension("lon", 5)
        t = ds.createVariable("t", "f4", ("time", "lat", "lon"))
        lat = ds.createVariable("lat", "f4", ("lat",))
        lat[:] = [-45, -15, 15, 45]
        t[:] = np.arange(60, dtype="f4").reshape(3, 4, 5)
    return read_bytes("_base_classic.nc")


def nc4_base():
    with netCDF4.Dataset(path("_base_nc4.nc"), "w", format="NETCDF4") as ds:
        ds.createDimension("x", 64)
        g = ds.createGroup("g")
        v = g.createVariable("v", "f8", ("x",), zlib=True)
        v[:] = np.linspace(0, 1, 64)
        v.units = "m"
    return read_bytes("_base_nc4.nc")


def overflow_nc4():
    with netCDF4.Dataset(path("overflow_nc4.nc"), "w", format="NETCDF4") as ds:
        ds.createDimension("a", 1 << 40)
        ds.createDimension("b", 1 << 30)
        ds.createVariable("v", "f8", ("a", "b"), chunksizes=(1, 1))


def zero_dims():
    with netCDF4.Dataset(path("zero_dims.nc"), "w", format="NETCDF4") as ds:
        # netCDF has no fixed dim of length 0 (0 means unlimited): two unlimited dims (netCDF-4
        # allows several), neither with a record written.
        ds.createDimension("empty", 0)
        ds.createDimension("time", None)
        ds.createDimension("x", 3)
        ds.createVariable("a", "f4", ("empty", "x"))
        ds.createVariable("b", "i2", ("time", "x"))
        x = ds.createVariable("x", "f8", ("x",))
        x[:] = [1, 2, 3]


def zero_records_classic():
    with netCDF4.Dataset(path("zero_records_classic.nc"), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("time", None)
        ds.createDimension("x", 2)
        ds.createVariable("r", "f4", ("time", "x"))
        t = ds.createVariable("time", "f8", ("time",))
        t.units = "days since 2000-01-01"


def packed(name, scale):
    """A short variable whose scale_factor is given by `scale` (text, or an array)."""
    with netCDF4.Dataset(path(name), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("x", 4)
        v = ds.createVariable("p", "i2", ("x",))
        v.set_auto_maskandscale(False)
        v[:] = np.array([100, 200, 300, 400], dtype="i2")
        v.setncattr("scale_factor", scale)


def fill_of_other_type(name, fill):
    """A short variable whose _FillValue is a double: written as `_FillValuX`, then renamed in the
    header bytes (netCDF-C refuses to write a _FillValue of another type than its variable)."""
    with netCDF4.Dataset(path(name), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("x", 4)
        v = ds.createVariable("s", "i2", ("x",), fill_value=False)
        v.set_auto_maskandscale(False)
        v[:] = np.array([1, -999, 3, -999], dtype="i2")
        v.setncattr("_FillValuX", np.float64(fill))
    data = read_bytes(name)
    assert data.count(b"_FillValuX") == 1
    write_bytes(name, data.replace(b"_FillValuX", b"_FillValue"))


def time_axis(name, units, calendar):
    with netCDF4.Dataset(path(name), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("time", 3)
        t = ds.createVariable("time", "f8", ("time",))
        t.units = units
        if calendar:
            t.calendar = calendar
        t[:] = [0, 1, 2]
        v = ds.createVariable("v", "f4", ("time",))
        v[:] = [1.5, 2.5, 3.5]


def odd_coordinates():
    with netCDF4.Dataset(path("coords_odd.nc"), "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("lat", 3)
        ds.createDimension("lon", 4)
        lat = ds.createVariable("lat", "f8", ("lat",))
        lat[:] = [0.0, np.nan, 2.0]
        lon = ds.createVariable("lon", "f8", ("lon",))
        lon[:] = [10.0, 30.0, 20.0, 0.0]  # not monotonic
        v = ds.createVariable("v", "f4", ("lat", "lon"))
        v[:] = np.arange(12, dtype="f4").reshape(3, 4)


def many_ranks():
    with netCDF4.Dataset(path("ranks.nc"), "w", format="NETCDF4") as ds:
        for n, size in zip("abcde", (2, 3, 1, 2, 2)):
            ds.createDimension(n, size)
        for i in range(9):
            ds.createDimension("o%d" % i, 1)
        s = ds.createVariable("s", "f8", ())
        s.assignValue(42.5)
        v1 = ds.createVariable("v1", "i4", ("b",))
        v1[:] = [7, 8, 9]
        v5 = ds.createVariable("v5", "f4", ("a", "b", "c", "d", "e"))
        v5[:] = np.arange(24, dtype="f4").reshape(2, 3, 1, 2, 2)
        v9 = ds.createVariable("v9", "f4", tuple("o%d" % i for i in range(9)))
        v9[:] = np.ones((1,) * 9, dtype="f4")


def strings_and_compounds():
    with netCDF4.Dataset(path("string_compound.nc"), "w", format="NETCDF4") as ds:
        ds.createDimension("n", 3)
        names = ds.createVariable("names", str, ("n",))
        names[:] = np.array(["alpha", "beta", "gamma"], dtype=object)
        pair = ds.createCompoundType(np.dtype([("a", "i4"), ("b", "f8")]), "pair_t")
        c = ds.createVariable("pairs", pair, ("n",))
        c[:] = np.array([(1, 0.5), (2, 1.5), (3, 2.5)], dtype=pair.dtype)
        w = ds.createVariable("w", "f4", ("n",))
        w[:] = [0.25, 0.5, 0.75]


def deep_groups(depth=50, name="deep_groups.nc"):
    with netCDF4.Dataset(path(name), "w", format="NETCDF4") as ds:
        ds.createDimension("x", 2)
        g = ds
        for level in range(1, depth + 1):
            g = g.createGroup("g%d" % level)
        leaf = g.createVariable("leaf", "f4", ("x",))  # the root's dim, seen 50 levels down
        leaf[:] = [float(depth), float(depth) + 0.5]


def unicode_names():
    with netCDF4.Dataset(path("names_unicode.nc"), "w", format="NETCDF4") as ds:
        ds.createDimension("время", 2)
        ds.createDimension("lat itude", 3)
        v = ds.createVariable("sea surface température", "f4", ("время", "lat itude"))
        v[:] = np.arange(6, dtype="f4").reshape(2, 3) / 4
        v.setncattr("long name", "température de surface (°C)")
        c = ds.createVariable("lat itude", "f8", ("lat itude",))
        c[:] = [-1.0, 0.0, 1.0]


def hdf5_crashers():
    """test_hgroups.nc with a few bytes changed: two crashes inside HDF5 1.10.8 that
    scripts/fuzz.sh found, each reduced to the fewest changed bytes that still crash."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "test_hgroups.nc")
    with open(src, "rb") as f:
        original = f.read()
    assert len(original) == 90645
    for name, patch in (
            # frees a wild pointer while iterating the root group's dense links (in nc_open)
            ("hdf5_crash_dense_links.nc", {46002: 0xB8}),
            # reads through a bad global-heap address while netCDF-C reads dimension scales
            ("hdf5_crash_global_heap.nc", {5119: 0xFF, 5120: 0xFF, 5121: 0xFF, 5122: 0xFF})):
        data = bytearray(original)
        for at, value in patch.items():
            assert data[at] == 0x00
            data[at] = value
        write_bytes(name, bytes(data))


def main():
    os.makedirs(OUT, exist_ok=True)
    rnd = random.Random(20261202)

    base = classic_base()
    header_end = base.find(struct.pack(">f", -45.0))  # lat's data follows the header
    assert header_end > 0
    for label, cut in (("magic", 4), ("header", header_end // 2), ("data", header_end + 40),
                       ("short1", len(base) - 1)):
        write_bytes("trunc_classic_%s.nc" % label, base[:cut])

    nc4 = nc4_base()
    for label, cut in (("sig", 8), ("superblock", 96), ("half", len(nc4) // 2), ("short1", len(nc4) - 1)):
        write_bytes("trunc_nc4_%s.nc" % label, nc4[:cut])

    write_bytes("random_after_cdf1.nc", b"CDF\x01" + bytes(rnd.getrandbits(8) for _ in range(1020)))
    write_bytes("random_after_hdf5.nc",
                b"\x89HDF\r\n\x1a\n" + bytes(rnd.getrandbits(8) for _ in range(2040)))

    write_bytes("overflow_cdf5.nc", cdf5_overflow())
    write_bytes("huge_rank_cdf5.nc", cdf5_huge_rank())
    write_bytes("long_name_cdf1.nc", cdf1_long_name())
    write_bytes("bad_dimid_cdf1.nc", cdf1_bad_dimid())
    overflow_nc4()
    zero_dims()
    zero_records_classic()
    packed("scale_text.nc", "0.01")
    packed("scale_array.nc", np.array([0.5, 2.0], dtype="f4"))
    fill_of_other_type("fill_double_on_short.nc", -999.0)
    fill_of_other_type("fill_unrepresentable.nc", 1.0e20)
    time_axis("calendar_unknown.nc", "days since 2000-01-01", "martian")
    time_axis("units_unparsable.nc", "days since the flood", None)
    odd_coordinates()
    many_ranks()
    strings_and_compounds()
    deep_groups()
    deep_groups(200, "deeper_groups.nc")  # past the 128 levels Strata reads
    unicode_names()
    hdf5_crashers()

    for scratch in ("_base_classic.nc", "_base_nc4.nc"):
        os.remove(path(scratch))
    total = sum(os.path.getsize(path(f)) for f in os.listdir(OUT) if f.endswith(".nc"))
    print("wrote %d files, %d bytes, in %s" % (len([f for f in os.listdir(OUT) if f.endswith(".nc")]),
                                               total, os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
