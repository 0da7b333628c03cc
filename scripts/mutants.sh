#!/usr/bin/env bash
# Deliberate bugs, one at a time: each is applied to the source (a small sed edit), the tests
# that should see it are rebuilt and run, and the source is restored. A mutant the tests pass
# with SURVIVED: a test is missing. Not part of CI (it rebuilds the library once per mutant);
# the last result is kept in docs/mutants.md.
# usage: scripts/mutants.sh [build-dir] [name...]   (default build; every mutant)
# Runs under Xvfb when there is no DISPLAY (the window and image tests need one).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${1:-$root/build}
shift || true
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
jobs=${JOBS:-2}

# name | file | sed expression(s), ';'-separated as sed takes them | tests (ctest names)
mutants=(
  "isel-off-by-one|core/src/variable.cpp|s/start = resolveIndex(\*i, n, ix.dim);/start = std::min(resolveIndex(*i, n, ix.dim) + 1, n - 1);/|tst_variable tst_dataarray tst_netcdf"
  "frame-x-y-swapped|core/src/view.cpp|s/    order.push_back(spec.xDim);/    order.insert(order.begin(), spec.xDim);/|tst_frameservice tst_viewroles"
  "colormap-index-plus-one|core/src/cpu/colormap.inc.h|s/idx\[i\] = static_cast<std::int32_t>(c);/idx[i] = static_cast<std::int32_t>(c < top ? c + 1 : c);/|tst_colormap tst_imagerender"
  "mean-counts-nan|core/src/cpu/kernels.h|s/            n += ok;/            n += 1;/;s/            c\[l\] += o0 + o1;/            c[l] += 2;/;s/        tc += o;/        tc += 1;/|tst_reduce"
  "april-has-31-days|core/src/cftime.cpp|s/{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}/{31, 28, 31, 31, 31, 30, 31, 31, 30, 31, 30, 31}/|tst_cftime"
  "csv-header-x-before-y|core/io/src/csv.cpp|s/for (const auto\& d : frame.dims()) header += field(d) + \",\";/for (auto d = frame.dims().rbegin(); d != frame.dims().rend(); ++d) header += field(*d) + \",\";/|tst_cli"
  "scale-factor-dropped|core/src/cf.cpp|s/    if (scale) e.scale = \*scale;/    (void)scale;/|tst_cfencoding tst_netcdf"
  "range-kept-across-files|app/gui/frame_service.cpp|/^    ranges_.clear();\$/d;s/if (k == key) return r;/if (k.variable == key.variable) return r;/|tst_frameservice"
)

if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
  exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp 2>/dev/null)
  xvfb_pid=$!
  read -r -t 30 number <&3 || { echo "mutants: Xvfb did not start" >&2; exit 1; }
  export DISPLAY=":$number"
  trap 'kill $xvfb_pid 2>/dev/null || true' EXIT
fi

wanted=("$@")
results=()
log=$(mktemp)
for m in "${mutants[@]}"; do
  IFS='|' read -r name file expr tests <<<"$m"
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
  src="$root/$file"
  cp "$src" "$src.orig"
  sed -i -e "$expr" "$src"
  if cmp -s "$src" "$src.orig"; then
    results+=("$name|NOT APPLIED (the sed edit matched nothing)|")
    mv "$src.orig" "$src"
    continue
  fi
  start=$SECONDS
  if ! cmake --build "$build" -j"$jobs" --target $tests >"$log" 2>&1; then
    verdict="killed (does not build)"
  else
    regex="^($(echo $tests | tr ' ' '|'))\$"
    if ctest --test-dir "$build" -R "$regex" --output-on-failure >"$log" 2>&1; then
      verdict="SURVIVED"
    else
      verdict="killed by $(sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([a-z_]*\) .*\*\*\*Failed.*/\1/p' "$log" | tr '\n' ' ')"
    fi
  fi
  mv "$src.orig" "$src"
  touch "$src" # rebuilt from the restored source next time
  results+=("$name|$verdict|$((SECONDS - start)) s")
  echo "mutants: $name: $verdict ($((SECONDS - start)) s)"
done
rm -f "$log"
# Back to the unmutated build of every target touched.
all_tests=$(for m in "${mutants[@]}"; do IFS='|' read -r _ _ _ t <<<"$m"; echo $t; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
cmake --build "$build" -j"$jobs" --target $all_tests >/dev/null 2>&1

echo
echo "| mutant | result | time |"
echo "| --- | --- | --- |"
survived=0
for r in "${results[@]}"; do
  IFS='|' read -r n v t <<<"$r"
  echo "| $n | $v | $t |"
  [[ "$v" == killed* ]] || survived=$((survived + 1))
done
echo
echo "mutants: ${#results[@]} run, $survived not killed"
[ "$survived" -eq 0 ]
