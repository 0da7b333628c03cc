"""xarray's backend for Strata's reader: xr.open_dataset(path, engine="strata", device="cuda").

Registered through the package's entry point (group xarray.backends); engine=StrataBackend
works as well where the entry point is not installed."""
import os

from xarray.backends import BackendEntrypoint

from .convert import open as _open


class StrataBackend(BackendEntrypoint):
    description = "Strata's netCDF reader: variables decoded on the GPU (CuPy) or the host (NumPy)"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "device")

    def open_dataset(self, filename_or_obj, *, drop_variables=None, device=None):
        ds = _open(os.fspath(filename_or_obj), device=device)
        if drop_variables:
            ds = ds.drop_vars(drop_variables, errors="ignore")
        return ds

    def guess_can_open(self, filename_or_obj):
        try:
            ext = os.path.splitext(os.fspath(filename_or_obj))[1]
        except TypeError:
            return False
        return ext in (".nc", ".nc4", ".cdf", ".netcdf")
