#!/usr/bin/env bash
# The reliability checks of CI, beside the plain build and tests (.ci/run calls this):
#   asan  the whole test suite (the CPU path: CUDA and GUI off) built with AddressSanitizer and
#         UndefinedBehaviorSanitizer, run by ctest; any report fails the test that made it.
#   fuzz  a short run of the netCDF reader's fuzz target (FUZZ_SECONDS, default 90), then of the
#         mesh readers' (FUZZ_MESH_SECONDS, default 20; 0 skips it) and of the GRIB reader's
#         message index (FUZZ_GRIB_SECONDS, default 20; 0 skips it) and of the derived
#         variables' expression parser (FUZZ_EXPRESSION_SECONDS, default 20; 0 skips it); fails on a finding in
#         Strata's code (findings inside netCDF-C/HDF5/ecCodes are listed, see scripts/fuzz.sh).
#   alone each function of each app test in a process of its own (`tst_x fn`), so that no
#         test function passes only because an earlier one left the window or a file as it
#         needs; uses the build of `make test` (ALONE_BUILD, default build), under Xvfb.
#   asan-gui  on demand, not in CI: the app and render tests with the GUI built under the
#         sanitizers (build-asan-gui).
# usage: scripts/ci-extra.sh [asan|fuzz|alone|asan-gui|all]   (default all; build dirs build-ci-asan, build-ci-fuzz)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
what=${1:-all}
jobs=${JOBS:-$(nproc)}

# Configures BUILD with ASan and UBSan, CUDA off, the GUI as $2 (ON or OFF).
configureSanitized() {
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # -Og after every other flag: at -O3 under ASan+UBSan each reduction driver file took 3
  # minutes (35 s at -Og; the whole build, cold, 20 minutes against 5 on two cores), and the
  # sanitizers find as much without it. -g1: line tables, enough for the reports' stack traces.
  cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-g1 -DNDEBUG" \
    "-DCMAKE_CXX_COMPILE_OBJECT=<CMAKE_CXX_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -Og -o <OBJECT> -c <SOURCE>" \
    -DSTRATA_CUDA=OFF -DSTRATA_GUI="$2" -DSTRATA_BENCH=OFF -DSTRATA_SANITIZE=ON -DSTRATA_WERROR=ON >/dev/null
}

asan() {
  local build=${ASAN_BUILD:-$root/build-ci-asan}
  configureSanitized "$build" OFF
  cmake --build "$build" -j"$jobs"
  # Leaks netCDF-C and HDF5 keep for themselves are theirs; ours are reported. Impossible
  # requests return null as glibc's would (tests ask for 2^62 bytes to see OutOfMemoryError).
  sanitized() {
    ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
    LSAN_OPTIONS="suppressions=$root/tests/io/fuzz_lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" "$@"
  }
  sanitized ctest --test-dir "$build" --output-on-failure -j2
  # The reductions and the colour map are built twice, for AVX2 (what runs above, where the
  # processor has it) and for the baseline instruction set: the core tests again on the latter.
  echo "ci-extra: the core tests again on the baseline instruction set (STRATA_CPU_ISA=base)"
  STRATA_CPU_ISA=base sanitized ctest --test-dir "$build" -L core --output-on-failure -j2
}

# The window and the image view under the sanitizers: the app and render tests (GUI on, CUDA
# off), under Xvfb. Not part of CI (the GUI build under ASan takes about 20 minutes cold on two
# cores); run on demand, its last result in docs/reliability.md.
asanGui() {
  local build=${ASAN_GUI_BUILD:-$root/build-asan-gui}
  configureSanitized "$build" ON
  local tests
  tests=$(ctest --test-dir "$build" -N -L 'app|render|window' | sed -n 's/^ *Test *#[0-9]*: *//p' | grep '^tst_')
  cmake --build "$build" -j"$jobs" --target strata $tests
  # Leaks are not looked for here: Qt, fonts, the X connection, the GL drivers and the VTK
  # module (loaded once, kept for the process's life) hold memory to the end, and LeakSanitizer
  # reports what they point to as leaks (43 reports, none direct, on 2026-12-06). Memory errors
  # and undefined behaviour are.
  ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=0:detect_stack_use_after_return=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$root/scripts/run-tests.sh" "$build" -L 'app|render|window'
}

fuzz() {
  "$root/scripts/fuzz.sh" --ci "${FUZZ_SECONDS:-90}" "${FUZZ_BUILD:-$root/build-ci-fuzz}"
  if [ "${FUZZ_MESH_SECONDS:-20}" -gt 0 ]; then
    STRATA_FUZZ_TARGET=fuzz_mesh "$root/scripts/fuzz.sh" --ci "${FUZZ_MESH_SECONDS:-20}" \
      "${FUZZ_BUILD:-$root/build-ci-fuzz}"
  fi
  if [ "${FUZZ_GRIB_SECONDS:-20}" -gt 0 ]; then
    STRATA_FUZZ_TARGET=fuzz_grib "$root/scripts/fuzz.sh" --ci "${FUZZ_GRIB_SECONDS:-20}" \
      "${FUZZ_BUILD:-$root/build-ci-fuzz}"
  fi
  if [ "${FUZZ_EXPRESSION_SECONDS:-20}" -gt 0 ]; then
    STRATA_FUZZ_TARGET=fuzz_expression "$root/scripts/fuzz.sh" --ci "${FUZZ_EXPRESSION_SECONDS:-20}" \
      "${FUZZ_BUILD:-$root/build-ci-fuzz}"
  fi
}

alone() {
  local build=${ALONE_BUILD:-$root/build}
  local xvfb_pid=
  if [ -z "${DISPLAY:-}" ]; then
    exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp 2>/dev/null)
    xvfb_pid=$!
    local number
    read -r -t 30 number <&3 || { echo "ci-extra: Xvfb did not start" >&2; return 1; }
    export DISPLAY=":$number"
  fi
  local log failed=() runs=0
  log=$(mktemp)
  local names
  names=$(ctest --test-dir "$build" -N -L app | sed -n 's/^ *Test *#[0-9]*: *//p')
  for name in $names; do
    local exe="$build/tests/app/$name"
    # Only Qt Test executables can be run one function at a time; anything else labelled app
    # (a script, a Python suite) is a mistake in its label, and says so.
    [ -x "$exe" ] || { echo "ci-extra: $name is labelled app but is not a Qt test in $build/tests/app" >&2; failed+=("$name"); continue; }
    # -functions lists the test functions as name(); the test case's own init and cleanup
    # run around each of them anyway.
    for fn in $("$exe" -functions | sed -n 's/()$//p'); do
      case "$fn" in initTestCase | cleanupTestCase | init | cleanup) continue ;; esac
      runs=$((runs + 1))
      if timeout "${STRATA_TEST_TIMEOUT:-150}" "$exe" "$fn" >"$log" 2>&1; then
        echo "ci-extra: alone $name $fn passed"
      else
        echo "ci-extra: alone $name $fn FAILED"
        cat "$log"
        failed+=("$name $fn")
      fi
    done
  done
  rm -f "$log"
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
  echo "ci-extra: $runs app test functions run alone, ${#failed[@]} failed"
  [ ${#failed[@]} -eq 0 ] || { printf 'ci-extra: failed alone: %s\n' "${failed[@]}" >&2; return 1; }
}

case "$what" in
  asan) asan ;;
  fuzz) fuzz ;;
  alone) alone ;;
  asan-gui) asanGui ;;
  all) asan; fuzz; alone ;;
  *) echo "usage: $0 [asan|fuzz|alone|asan-gui|all]" >&2; exit 2 ;;
esac
