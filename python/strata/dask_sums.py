"""NaN-skipping sums and means of Dask arrays of NumPy chunks, summed in double as Strata sums
float32, in one pass over each chunk: the values where they are not NaN added in double by the
ufunc's own reduction (no double copy of the chunk, no copy with the NaN replaced), and their
count as int32. Each chunk's partial result is those two arrays, reduced axes kept (length 1);
partials are added up the tree, and the last step divides (a mean) or not (a sum; 0 where
nothing counts, a mean NaN there), as Strata's reduce() does.

Dask's own nanmean(dtype=float64) makes a NaN-free copy of each chunk, sums it with a cast and
counts in double: about 1.75 times the work on a 100 MB chunk here. CuPy chunks keep Dask's own
(their ufuncs have no masked reduction). The functions pickle by value: a cluster whose workers
have no Strata computes them."""
import numpy as np


def usable(x):
    """Whether `x` (a Dask array) has NumPy chunks of a floating type."""
    return isinstance(getattr(x, "_meta", None), np.ndarray) and x.dtype.kind == "f"


def nan_sum_or_mean(x, axis, op):
    """Dask array `x` reduced over `axis` (a tuple) by "sum" or "mean", NaN skipped, as float64."""
    from dask.array.reductions import reduction
    return reduction(x, _partial, _finish if op == "mean" else _finish_sum, axis=axis, keepdims=False,
                     dtype=np.float64, combine=_combine, concatenate=False,
                     meta=np.empty((0,) * (x.ndim - len(axis)), dtype=np.float64))


def _functions():
    """The reduction's functions, made here so that they pickle by value (a closure is not
    importable): the workers need NumPy, not Strata."""
    def _partial(block, axis=None, keepdims=True, computing_meta=False, **_):
        if computing_meta:  # Dask asks what kind of array comes out
            return block
        counted = ~np.isnan(block)
        if isinstance(block, np.ndarray):
            total = np.add.reduce(block, axis=axis, where=counted, dtype=np.float64, keepdims=True)
        else:  # a chunk that is not NumPy where the array said it would be (CuPy read by a worker)
            total = np.where(counted, block, 0).sum(axis=axis, dtype=np.float64, keepdims=True)
        return {"total": total, "n": counted.sum(axis=axis, dtype=np.int32, keepdims=True)}

    def _leaves(parts):
        """The partials of a tree step: a dict, or lists of them nested one level per axis."""
        if isinstance(parts, dict):
            yield parts
            return
        for p in parts:
            yield from _leaves(p)

    def _added(parts):
        leaves = list(_leaves(parts))
        total, n = leaves[0]["total"].copy(), leaves[0]["n"].copy()
        for p in leaves[1:]:  # all of one shape: length 1 along the reduced axes
            total += p["total"]
            n += p["n"]
        return total, n

    def _combine(parts, axis=None, keepdims=True, computing_meta=False, **_):
        if computing_meta:
            return parts
        total, n = _added(parts)
        return {"total": total, "n": n}

    def _finish(parts, axis=None, keepdims=False, computing_meta=False, **_):
        if computing_meta:
            return parts
        total, n = _added(parts)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = total / n  # NaN where nothing counts
        return mean if keepdims else mean.squeeze(axis=axis)

    def _finish_sum(parts, axis=None, keepdims=False, computing_meta=False, **_):
        if computing_meta:
            return parts
        total, _n = _added(parts)
        return total if keepdims else total.squeeze(axis=axis)

    return _partial, _combine, _finish, _finish_sum


_partial, _combine, _finish, _finish_sum = _functions()
