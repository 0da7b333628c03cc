#!/usr/bin/env bash
# Deliberate bugs, one at a time: each is applied to the source (small sed edits), the tests
# that should see it are rebuilt and run, and the source is restored. A mutant the tests pass
# with SURVIVED: a test is missing. Not part of CI (it rebuilds the library once per mutant);
# the last result is kept in docs/mutants.md.
# usage: scripts/mutants.sh [build-dir] [name...]   (default build; every mutant)
# Runs under Xvfb when there is no DISPLAY (the window and image tests need one).
#
# Only a failing test kills a mutant. Each of a mutant's edits must change the file (an edit
# that matches nothing is reported, not run); a mutant that does not build is BROKEN, not
# killed; the tests must pass unmutated first (MUTANTS_NO_BASELINE=1 skips that run). The
# exit status is 0 only when every mutant run was killed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${1:-$root/build}
shift || true
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
jobs=${JOBS:-2}

# name | file | tests (ctest names) | sed edits, separated by ' @@ ' (each one must change the file)
mutants=(
  "isel-off-by-one|core/src/variable.cpp|tst_variable tst_dataarray tst_netcdf tst_mainwindow|s/start = resolveIndex(\*i, n, ix.dim);/start = std::min(resolveIndex(*i, n, ix.dim) + 1, n - 1);/"
  "frame-x-y-swapped|core/src/view.cpp|tst_frameservice tst_viewroles tst_mainwindow|s/    order.push_back(spec.xDim);/    order.insert(order.begin(), spec.xDim);/"
  "colormap-index-plus-one|core/src/cpu/colormap.inc.h|tst_colormap tst_imagerender|s/idx\[i\] = static_cast<std::int32_t>(c);/idx[i] = static_cast<std::int32_t>(c < top ? c + 1 : c);/"
  "mean-counts-nan|core/src/cpu/kernels.h|tst_reduce|s/            n += ok;/            n += 1;/ @@ s/            c\[l\] += o0 + o1;/            c[l] += 2;/ @@ s/        tc += o;/        tc += 1;/"
  "april-has-31-days|core/src/cftime.cpp|tst_cftime|s/{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}/{31, 28, 31, 31, 31, 30, 31, 31, 30, 31, 30, 31}/"
  "csv-header-x-before-y|core/io/src/csv.cpp|tst_cli|s/for (const auto\& d : frame.dims()) header += field(d) + \",\";/for (auto d = frame.dims().rbegin(); d != frame.dims().rend(); ++d) header += field(*d) + \",\";/"
  "scale-factor-dropped|core/src/cf.cpp|tst_cfencoding tst_netcdf|s/    if (scale) e.scale = \*scale;/    (void)scale;/"
  "reduce-dims-reversed|core/src/ops_reduce.cpp|tst_reduce|s/    Variable v(s.keptDims, s.keptShape, type/    Variable v(std::vector<std::string>(s.keptDims.rbegin(), s.keptDims.rend()), s.keptShape, type/"
  "range-kept-across-files|app/frames/range_book.cpp|tst_rangebook tst_frameservice|/^    variables_.clear();\$/d @@ s/if (k == key) return r;/if (k.variable == key.variable) return r;/"
)

fail() {
  echo "mutants: $*" >&2
  exit 2
}
field() { IFS='|' read -r f_name f_file f_tests f_edits <<<"$1"; }

wanted=("$@")
chosen=()
for m in "${mutants[@]}"; do
  field "$m"
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $f_name "* ]]; then continue; fi
  chosen+=("$m")
done
for w in "${wanted[@]}"; do
  printf '%s\n' "${mutants[@]}" | grep -q "^$w|" || fail "no mutant named '$w'"
done
[ ${#chosen[@]} -gt 0 ] || fail "no mutant chosen"
all_tests=$(for m in "${chosen[@]}"; do field "$m"; echo $f_tests; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
regexOf() { echo "^($(echo $1 | tr ' ' '|'))\$"; }

if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
  exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp 2>/dev/null)
  xvfb_pid=$!
  read -r -t 30 number <&3 || fail "Xvfb did not start"
  export DISPLAY=":$number"
fi
log=$(mktemp)
current="" # the source file being mutated: put back on any exit
cleanup() {
  if [ -n "$current" ] && [ -f "$current.orig" ]; then
    mv "$current.orig" "$current"
    touch "$current"
  fi
  rm -f "$log"
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null
  true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every test named must exist in the build, and pass before anything is mutated.
cmake --build "$build" -j"$jobs" --target $all_tests >"$log" 2>&1 || { tail -30 "$log"; fail "the unmutated tests do not build"; }
for t in $all_tests; do
  ctest --test-dir "$build" -N -R "^$t\$" | grep -q "Total Tests: 1" || fail "no test '$t' in $build"
done
if [ -z "${MUTANTS_NO_BASELINE:-}" ]; then
  echo "mutants: the unmutated tests first: $all_tests"
  ctest --test-dir "$build" -R "$(regexOf "$all_tests")" --output-on-failure >"$log" 2>&1 ||
    { grep -E "FAIL!|Failed|\*\*\*" "$log" | head -20; fail "the tests fail without a mutant: no verdict would mean anything"; }
fi

# The tests that failed in a ctest log, each with the QtTest functions that failed in it:
# "tst_a (fnA fnB), tst_b". ctest prints a test's output after its status line.
failedIn() {
  awk '
    match($0, /Test +#[0-9]+: [A-Za-z0-9_]+/) { t = substr($0, RSTART, RLENGTH); sub(/.*: /, "", t); cur = t }
    /^FAIL!  : / { f = $0; sub(/^FAIL!  : [A-Za-z0-9_]*::/, "", f); sub(/\(.*/, "", f);
                   if (index(" " fns[cur] " ", " " f " ") == 0) fns[cur] = fns[cur] (fns[cur] ? " " : "") f }
    /The following tests FAILED:/ { list = 1; next }
    list && match($0, /[0-9]+ - [A-Za-z0-9_]+/) { t = substr($0, RSTART, RLENGTH); sub(/.* - /, "", t);
                   out = out (out ? ", " : "") t (fns[t] ? " (" fns[t] ")" : "") }
    END { print out }' "$1"
}

results=()
for m in "${chosen[@]}"; do
  field "$m"
  src="$root/$f_file"
  [ -f "$src" ] || fail "$f_name: no file $f_file"
  cp "$src" "$src.orig"
  current=$src
  verdict=""
  IFS=$'\n' read -r -d '' -a edits < <(echo "$f_edits" | sed 's/ @@ /\n/g' && printf '\0')
  for e in "${edits[@]}"; do
    cp "$src" "$src.step"
    sed -i -e "$e" "$src"
    if cmp -s "$src" "$src.step"; then verdict="NOT APPLIED (this edit matched nothing: $e)"; fi
    rm -f "$src.step"
    [ -n "$verdict" ] && break
  done
  start=$SECONDS
  if [ -z "$verdict" ]; then
    if ! cmake --build "$build" -j"$jobs" --target $f_tests >"$log" 2>&1; then
      verdict="BROKEN (does not build: fix the edit)"
      grep -m5 "error" "$log" >&2
    elif ctest --test-dir "$build" -R "$(regexOf "$f_tests")" --no-tests=error --output-on-failure >"$log" 2>&1; then
      verdict="SURVIVED"
    else
      killers=$(failedIn "$log")
      if [ -n "$killers" ]; then verdict="killed by $killers"; else
        verdict="UNCLEAR (ctest failed, no test named)"
        tail -20 "$log" >&2
      fi
    fi
  fi
  mv "$src.orig" "$src"
  current=""
  touch "$src" # rebuilt from the restored source next time
  results+=("$f_name|$verdict|$((SECONDS - start)) s")
  echo "mutants: $f_name: $verdict ($((SECONDS - start)) s)"
done
# Back to the unmutated build of every target touched.
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
