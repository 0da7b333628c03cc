"""Strata from Python: netCDF files read onto the GPU (or into NumPy) as xarray Datasets, and
the Strata window for xarray data held on the GPU or the host, without a copy.

    ds = strata.open("era5.nc", device="cuda")       # variables are CuPy arrays
    ds = xr.open_dataset("era5.nc", engine="strata")  # the same, through xarray
    view = strata.show(ds.t2m)                        # the Strata window, in this process
    view.update(ds.t2m * 2)                           # shows new data, keeping the view
    frame = view.frame()                              # the frame on screen (CuPy or NumPy)
"""
import os as _os
import sys as _sys

# The module holds Strata's libraries; libstrata_vtkviews.so (loaded when the window first
# draws through VTK) binds to them, so they are loaded into the global namespace.
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_flags | _os.RTLD_GLOBAL)
try:
    from . import _strata
finally:
    _sys.setdlopenflags(_flags)

_here = _os.path.dirname(_os.path.abspath(__file__))
if "STRATA_VTKVIEWS" not in _os.environ and _os.path.exists(_os.path.join(_here, "libstrata_vtkviews.so")):
    _os.environ["STRATA_VTKVIEWS"] = _os.path.join(_here, "libstrata_vtkviews.so")

from ._strata import (  # noqa: E402
    CancelledError,
    CudaError,
    DecodeError,
    Error,
    IndexError,
    IoError,
    NetcdfError,
    OutOfMemoryError,
    ValueError,
    compute_device,
    compute_reason,
    transfer_counters,
)
from .convert import _register_accessor, as_array, derive, open  # noqa: E402
from .backend import StrataBackend  # noqa: E402
from .show import View, show  # noqa: E402

if hasattr(_strata, "export_view"):  # a build with the window
    from ._strata import export_view  # noqa: E402, F401

_register_accessor()

__all__ = [
    "open", "derive", "show", "View", "StrataBackend", "as_array", "compute_device", "compute_reason",
    "transfer_counters", "Error", "ValueError", "IndexError", "DecodeError", "NetcdfError",
    "IoError", "CudaError", "OutOfMemoryError", "CancelledError",
] + (["export_view"] if hasattr(_strata, "export_view") else [])
