"""A file's variables as lazy xarray arrays whose regions Strata's readers read on demand: what
xr.open_dataset(path, engine="strata", chunks={...}) gives. Each Dask chunk is one region read
in the process that computes it (a Dask worker opens the file itself, from its path or URL, and
keeps it open for its next chunks); an array pickles as its path, variable name, shape, dtype
and device, never as values."""
import numpy as np

from . import _strata
from .convert import _ENCODING, _attrs, _coordinate, as_array

try:  # xarray is what this module serves; strata itself does not need it
    from xarray.backends import BackendArray
    from xarray.core import indexing
except ImportError:  # pragma: no cover
    BackendArray = object
    indexing = None


class RegionArray(BackendArray):
    """Variable `name` of the file at `path`, read region by region onto `device` ("cpu": NumPy,
    "cuda": CuPy) by Strata's reader, decoded as strata.open decodes."""

    def __init__(self, path, name, shape, dtype, device="cpu"):
        self.path = str(path)
        self.name = str(name)
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.device = device

    def __reduce__(self):  # what travels to a worker: where to read, never what was read
        return (RegionArray, (self.path, self.name, self.shape, self.dtype.str, self.device))

    def __getitem__(self, key):
        # Strata reads boxes with positive steps; xarray does the rest (negative steps, arrays of
        # indices) on what comes back.
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key):
        region, shape = [], []
        for k, n in zip(key, self.shape):
            if isinstance(k, slice):
                start, stop, step = k.indices(n)
                stop = max(stop, start)
                region.append((start, stop, step))
                shape.append(len(range(start, stop, step)))
            else:  # an integer: the dim goes
                i = int(k) + (n if int(k) < 0 else 0)
                region.append((i, i + 1, 1))
        values = as_array(_strata._read(self.path, self.name, region, self.device))
        return values.reshape(shape)

    def __repr__(self):
        return f"<strata.RegionArray {self.path}:{self.name} {self.shape} {self.dtype}>"


def open_lazy(path, device="cpu", group=None):
    """The Dataset of the file at `path` (of its `group`, when given) with every numeric data
    variable a lazy RegionArray (xarray chunks it with Dask when asked: chunks={} takes the
    file's own chunk shape), coordinates read whole on the host."""
    import xarray as xr
    parts = _strata._describe(str(path), group or "")
    coords = {c["name"]: _coordinate(c) for c in parts["coords"]}
    data_vars = {}
    for v in parts["variables"]:
        if v["name"] in coords:
            continue
        encoding = {}
        attrs = _attrs(v["attrs"], encoding, _ENCODING)
        if v["chunks"]:
            encoding["preferred_chunks"] = dict(zip(v["dims"], v["chunks"]))
            encoding["chunksizes"] = tuple(v["chunks"])
        array = RegionArray(parts["path"], v["read_as"], v["shape"], v["dtype"], device)
        data_vars[v["name"]] = xr.Variable(v["dims"], indexing.LazilyIndexedArray(array), attrs,
                                           encoding=encoding)
    ds = xr.Dataset(data_vars, coords, attrs=_attrs(parts["attrs"]))
    ds.encoding["source"] = parts["path"]
    return ds


def region_counters():
    """Region reads and file opens this process has made (a worker's, through client.run)."""
    return dict(_strata._region_counters())
