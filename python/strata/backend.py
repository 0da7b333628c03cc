"""xarray's backend for Strata's reader: xr.open_dataset(path, engine="strata", device="cuda").

Without chunks, every numeric variable is read whole onto `device` (CuPy or NumPy arrays, as
strata.open reads them). With chunks=... (or lazy=True), variables are lazy: xarray makes them
Dask arrays whose chunks Strata's reader reads in the process that computes them (lazy.py), so
that nothing large goes through the client.

Registered through the package's entry point (group xarray.backends); engine=StrataBackend
works as well where the entry point is not installed."""
import os
import sys

from xarray.backends import BackendEntrypoint

from .convert import open as _open


def _chunks_asked():
    """Whether the xr.open_dataset (or open_mfdataset) that called this backend was given
    chunks: xarray chunks what its backend returns and does not tell the backend, so its
    argument is looked up in its frame. False when the backend is called some other way."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "open_dataset" and frame.f_globals.get("__name__") == "xarray.backends.api":
            return frame.f_locals.get("chunks") is not None
        frame = frame.f_back
    return False


class StrataBackend(BackendEntrypoint):
    description = "Strata's reader (netCDF, Zarr, GRIB): variables decoded on the GPU (CuPy) or the host (NumPy)"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "device", "lazy", "group")

    def open_dataset(self, filename_or_obj, *, drop_variables=None, device=None, lazy=None, group=None):
        path = os.fspath(filename_or_obj)
        if lazy is None:
            lazy = _chunks_asked()
        if lazy:
            from .lazy import open_lazy
            ds = open_lazy(path, device or "cpu", group)  # chunks on the workers' host unless asked
        else:
            ds = _open(path, device=device, group=group)
        if drop_variables:
            ds = ds.drop_vars(drop_variables, errors="ignore")
        return ds

    def guess_can_open(self, filename_or_obj):
        try:
            ext = os.path.splitext(os.fspath(filename_or_obj))[1]
        except TypeError:
            return False
        return ext.lower() in (".nc", ".nc4", ".cdf", ".netcdf", ".grib", ".grib1", ".grib2", ".grb", ".grb2")
