#!/bin/sh
# The GPU machine's half of issue 20, from the repository root after `cmake --build build`:
# the cuda rows of the chunk-aligned load, the tensorstore cross-check of the Zarr v3 fixtures
# (and of a store tensorstore writes, read back by build/app/strata), and the Zarr benchmark
# side by side with its Python peers. Each step says what it is; the script goes on after a
# failure and exits non-zero when any step failed.
#
#   sh tests/zarr/gpu_checks.sh [FIXTURES]
#
# FIXTURES: the v3 fixtures (default tests/zarr/v3_fixtures); where numcodecs is missing on the
# GPU machine, write them beforehand on a machine that has it (they travel with the tree):
#   python3 tests/io/zarr_v3_stores.py tests/zarr/v3_fixtures
status=0
fixtures=${1:-tests/zarr/v3_fixtures}
step() { echo "== $*"; "$@" || { echo "== FAILED: $*"; status=1; }; }
step env STRATA_REQUIRE_GPU=1 build/tests/io/tst_zarr_load
step env STRATA_REQUIRE_GPU=1 build/tests/core/tst_loadplan
step python3 tests/zarr/cross_check_tensorstore.py "$fixtures" build/app/strata /tmp/strata-xcheck
[ -d /tmp/strata-z.zarr ] || step python3 bench/make_zarr_store.py /tmp/strata-z.zarr
step build/bench/bench_zarr /tmp/strata-z.zarr --var data
step python3 bench/peer_zarr.py /tmp/strata-z.zarr --var data
exit $status
