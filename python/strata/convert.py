"""Between Strata's parts and xarray: a file read by Strata as an xarray Dataset (variables
as zero-copy views of Strata's buffers, coordinates on the host), and xarray objects (or bare
arrays) as a Strata Dataset held in memory."""
import builtins
import re

import numpy as np

from . import _strata

# CF attributes xarray moves to .encoding when it decodes (Strata decodes them the same way).
_ENCODING = ("_FillValue", "missing_value", "scale_factor", "add_offset", "coordinates")
_STRATA_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                  "float32", "float64")


def as_array(exported):
    """A Strata array as NumPy (host) or CuPy (CUDA), sharing its memory."""
    if exported.device == "host":
        return np.asarray(exported)
    import cupy
    return cupy.from_dlpack(exported)


def _attr_value(dtype, value):
    if dtype in ("char", "str"):
        return value
    arr = np.asarray(value, dtype=dtype)
    return arr[0] if arr.size == 1 else arr


def _attrs(items, encoding=None, move=()):
    attrs = {}
    for name, dtype, value in items:
        v = _attr_value(dtype, value)
        if name in move and encoding is not None:
            encoding[name] = v
        else:
            attrs[name] = v
    return attrs


_ISO = re.compile(r"^(-?\d+)-(\d+)-(\d+)(?:T(\d+):(\d+):(\d+(?:\.\d*)?))?$")


def _dates(iso, calendar):
    """Dates as xarray decodes them: datetime64[ns] for the standard calendars when they fit,
    else cftime objects."""
    if calendar in ("standard", "proleptic_gregorian"):
        try:
            values = np.array(iso, dtype="datetime64[ns]")
            first = min(iso) if iso else "1970"
            if calendar == "proleptic_gregorian" or first >= "1582-10-15":
                return values
        except (builtins.ValueError, OverflowError):
            pass
    import cftime
    out = []
    for text in iso:
        m = _ISO.match(text)
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        h = int(m.group(4) or 0)
        mi = int(m.group(5) or 0)
        s = float(m.group(6) or 0)
        out.append(cftime.datetime(y, mo, d, h, mi, int(s), int(round((s - int(s)) * 1e6)),
                                   calendar=calendar, has_year_zero=None))
    return np.array(out, dtype=object)


def _coordinate(c):
    import xarray as xr
    encoding = {}
    move = _ENCODING + (("units", "calendar") if c["time"] is not None else ())
    attrs = _attrs(c["attrs"], encoding, move)
    if c["time"] is not None:
        values = _dates(c["time"]["iso"], c["time"]["calendar"])
    else:
        values = np.asarray(c["values"], dtype=np.float64).astype(c["dtype"])
    var = xr.Variable(c["dims"], values.reshape(c["shape"]), attrs, encoding=encoding)
    if c["problem"] and " since " in str(attrs.get("units", "")) and np.isnan(values).any():
        var = _dates_with_gaps(var, c["problem"])
    return var


def _dates_with_gaps(var, problem):
    """A time coordinate with missing values, which Strata's reader leaves as numbers (its
    problem says why): decoded as xarray decodes it, NaT where a value is missing. Where
    xarray cannot decode it either, the numbers stay and the problem is told as a warning."""
    import warnings
    import xarray as xr
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NaN cast to NaT
            decoded = xr.decode_cf(xr.Dataset({"t": var}))["t"].variable.load()
    except Exception as e:
        warnings.warn(f"{problem}; left as numbers ({e})", RuntimeWarning, stacklevel=3)
        return var
    decoded.encoding.update(var.encoding)
    return decoded


def _to_xarray(parts):
    import xarray as xr
    coords = {c["name"]: _coordinate(c) for c in parts["coords"]}
    data_vars = {}
    for v in parts["variables"]:
        if v["name"] in coords:
            continue
        encoding = {}
        attrs = _attrs(v["attrs"], encoding, _ENCODING)
        data_vars[v["name"]] = xr.Variable(v["dims"], as_array(v["array"]), attrs, encoding=encoding)
    ds = xr.Dataset(data_vars, coords, attrs=_attrs(parts["attrs"]))
    ds.encoding["source"] = parts["path"]
    return ds


def _have_cupy():
    try:
        import cupy  # noqa: F401
        return True
    except ImportError:
        return False


def open(path, device=None, group=None):
    """Reads the file at `path` (netCDF, Zarr or GRIB; its `group` when given, as "/a/b" or
    "a/b") with Strata's reader into an xarray Dataset.

    Every numeric data variable is read whole and decoded (CF masking and packing) on `device`:
    "cuda" (or "cuda:N") gives CuPy arrays, "cpu" NumPy arrays; None: where Strata computes
    (the GPU when there is one and CuPy is installed). The arrays are views of Strata's buffers, without a copy;
    NumPy's are read-only. Coordinates are on the host (dates decoded as xarray does).
    Raises strata.NetcdfError (also an OSError) when the file cannot be read."""
    if device is None:
        device = "cuda" if _strata.compute_device() != "host" and _have_cupy() else "cpu"
    return _to_xarray(_strata._open(str(path), device, group or ""))


def derive(ds, statement):
    """The derived variable `statement` defines ("NAME = EXPR", or "NAME [units] = EXPR"),
    computed by Strata from the variables of `ds` (an xarray Dataset, strata.open's or any
    other): an xarray DataArray on the device of ds's arrays (CuPy or NumPy), with the
    coordinates of its dims. The expression language is the window's: + - * / ** comparisons
    & | ~ where() hypot() ... climatology/anomaly/std_anomaly(x, "month", 1991, 2020),
    rolling_mean/rolling_sum(x, "time", 30), diff(x, "time").
    Raises strata.ValueError naming the problem (with the column of a syntax error)."""
    import xarray as xr
    held, _, _ = _strata_dataset(ds)
    parts = _strata._derive(held, str(statement))
    coords = {}
    for c in parts["coords"]:
        coords[c["name"]] = ds.coords[c["name"]] if c["name"] in ds.coords else _coordinate(c)
    return xr.DataArray(as_array(parts["array"]), dims=parts["dims"], coords=coords,
                        attrs=_attrs(parts["attrs"]), name=parts["name"])


def _register_accessor():
    """ds.strata.derive("NAME = EXPR"): ds with the derived variable added."""
    try:
        import xarray as xr
    except ImportError:
        return

    class _StrataAccessor:
        def __init__(self, ds):
            self._ds = ds

        def derive(self, statement):
            """This Dataset with the derived variable `statement` defines (see strata.derive)."""
            da = derive(self._ds, statement)
            return self._ds.assign({da.name: da})

    import warnings
    with warnings.catch_warnings():  # registered once per process; a reload warns
        warnings.simplefilter("ignore")
        xr.register_dataset_accessor("strata")(_StrataAccessor)


# ---- xarray (or arrays) to Strata

def _host(values):
    if hasattr(values, "get") and not isinstance(values, np.ndarray):  # CuPy
        values = values.get()
    return np.asarray(values)


def _coordinate_parts(name, var):
    """A coordinate's parts for Strata: values as host doubles, dates as numbers with CF units."""
    values = _host(var.values)
    attrs = dict(var.attrs)
    dtype = "float64"
    if np.issubdtype(values.dtype, np.datetime64):
        # NaT becomes NaN: Strata then names the missing date (in the summary, and in the
        # error of what needs dates, as for a file's) rather than losing the coordinate.
        seconds = (values - np.datetime64("1970-01-01T00:00:00", "ns")) / np.timedelta64(1, "s")
        attrs.update(units="seconds since 1970-01-01", calendar="proleptic_gregorian")
        numbers = seconds.astype(np.float64)
    elif values.dtype == object and values.size and hasattr(values.flat[0], "calendar"):
        import cftime
        calendar = values.flat[0].calendar or "standard"
        units = "days since 1970-01-01"
        numbers = np.asarray(cftime.date2num(values.ravel(), units, calendar=calendar), dtype=np.float64)
        attrs.update(units=units, calendar=calendar)
    elif values.dtype.kind in "iuf":
        numbers = values.astype(np.float64)
        if str(values.dtype) in _STRATA_DTYPES:
            dtype = str(values.dtype)
    else:
        return None  # text coordinates: not labels Strata draws
    return {"name": str(name), "dims": [str(d) for d in var.dims], "shape": list(values.shape),
            "values": numbers.ravel().tolist(), "dtype": dtype, "attrs": attrs}


def _native(data):
    """`data` in the machine's byte order: a big-endian NumPy array is converted (a copy, the
    values unchanged); anything else is passed on as it is, without a copy."""
    if isinstance(data, np.ndarray) and not data.dtype.isnative:
        return data.astype(data.dtype.newbyteorder("="))
    return data


def _data_of(name, variable, dask):
    """A variable's data as Strata takes it: arrays as they are; a Dask array as a lazy
    variable computed box by box on the current Dask client."""
    from .dask_frames import computed_variable, is_dask_array
    if not is_dask_array(variable.data):
        return _native(variable.data)
    data, fetch = computed_variable(name, variable.dims, variable.data)
    if dask is not None:
        dask.append(fetch)
    return data


def _strata_dataset(obj, dims=None, name=None, dask=None):
    """A Strata Dataset (held in memory; no data copied, big-endian arrays aside) for an xarray
    DataArray or Dataset, or a bare array with `dims`; and the variable to show. Dask-backed
    variables are not computed: Strata asks Dask for each box it needs (dask_frames.py); their
    DaskFetch objects are appended to the list `dask` when one is given."""
    try:
        import xarray as xr
    except ImportError:
        xr = None
    if xr is not None and isinstance(obj, xr.DataArray):
        var = str(name or obj.name or "data")
        ds = obj.to_dataset(name=var)
        title = var
    elif xr is not None and isinstance(obj, xr.Dataset):
        ds, var = obj, None
        title = str(obj.encoding.get("source", "") or "Dataset").rsplit("/", 1)[-1]
    else:
        if dims is None:
            raise _strata.ValueError("a bare array needs dims=(...) naming its dimensions")
        var = str(name or "data")
        dims = [str(d) for d in dims]
        from .dask_frames import computed_variable, is_dask_array
        if is_dask_array(obj):
            data, fetch = computed_variable(var, dims, obj)
            if dask is not None:
                dask.append(fetch)
        else:
            data = _native(obj)
        held = _strata._make_dataset([(var, dims, data, {})], [], {}, var)
        return held, var, var
    variables = []
    for n, v in ds.data_vars.items():
        # A scalar with attributes says how the others lie (a grid mapping such as HEALPix's
        # crs, a UGRID mesh's topology): kept, as a file keeps it. Other scalars are not shown.
        said = v.ndim == 0 and bool(v.attrs)
        if (v.ndim == 0 and not said) or np.dtype(v.dtype).name not in _STRATA_DTYPES:  # ">f4" is a float32
            if var is not None and str(n) == var:
                pass  # the one asked for: its error says why
            else:
                continue
        variables.append((str(n), [str(d) for d in v.dims], _data_of(str(n), v.variable, dask), dict(v.attrs)))
    coords = [c for c in (_coordinate_parts(n, ds.coords[n].variable) for n in ds.coords) if c]
    held = _strata._make_dataset(variables, coords, dict(ds.attrs), title)
    return held, var, title
