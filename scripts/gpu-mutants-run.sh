#!/usr/bin/env bash
# Runs on the GPU machine, in the repository root of the copied working tree, with the bundle
# of CUDA twins from `scripts/mutants.sh --cuda-bundle DIR` carried along:
#   scripts/gpu-mutants-run.sh DIR [name...]      (default: every twin in DIR/twins.txt)
# Unpacks DIR/payload.tar.xz, runs the unmutated test executables (base/) and then each twin's,
# all with STRATA_REQUIRE_GPU=1 (a cuda row that would skip fails). A twin is killed when one
# of its tests fails (a FAIL! line); it survived when they all pass. Prints a table of
# killed/survived per twin (as docs/mutants.md keeps it) and writes logs under $OUT. Exits 0
# only when the unmutated tests pass and every twin run was killed.
set -uo pipefail
DIR=${1:?usage: gpu-mutants-run.sh DIR [name...]}
shift
OUT=${OUT:-/tmp/strata-out}
WORK=${WORK_DIR:-/tmp/strata-mutants}
mkdir -p "$OUT/mutants" "$WORK"
rm -rf "${WORK:?}"/*
tar -xJf "$DIR/payload.tar.xz" -C "$WORK" || { echo "gpu-mutants: cannot unpack $DIR/payload.tar.xz" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
export UDUNITS2_XML_PATH=$WORK/share/udunits/udunits2.xml
export STRATA_REQUIRE_GPU=1
echo "card: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

# Runs the tests of set `$1` (base or a twin); its own libraries first, then base's, then the others.
# Prints "" when all passed, else the failed tests with their functions: "tst_a (fnA fnB), tst_b",
# after "named:" when a test function failed, "unnamed:" when tests only crashed or timed out.
runSet() {
  local set=$1 failed="" named=unnamed t log fns rc
  shift
  for t in "$@"; do
    log=$OUT/mutants/$set.$t.log
    LD_LIBRARY_PATH=$WORK/$set/lib:$WORK/base/lib:$WORK/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
      timeout 600 "$WORK/$set/bin/$t" >"$log" 2>&1
    rc=$?
    fns=$(awk '/^FAIL!  : / { f = $0; sub(/^FAIL!  : [A-Za-z0-9_]*::/, "", f); sub(/\(.*/, "", f);
                              if (index(" " s " ", " " f " ") == 0) s = s (s ? " " : "") f } END { print s }' "$log")
    if [ -n "$fns" ]; then
      failed="${failed:+$failed, }$t ($fns)"
      named=named
    elif [ $rc -ne 0 ]; then
      failed="${failed:+$failed, }$t (exit status $rc, no function failed)"
    fi
  done
  [ -n "$failed" ] && echo "$named:$failed"
}

names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(cut -d'|' -f1 "$DIR/twins.txt")
allTests=$(cut -d'|' -f2 "$DIR/twins.txt" | tr ' ' '\n' | sort -u | tr '\n' ' ')
base=$(runSet base $allTests)
if [ -n "$base" ]; then
  echo "gpu-mutants: the unmutated tests fail: ${base#*:}; no verdict would mean anything" >&2
  exit 2
fi
echo "gpu-mutants: the unmutated tests pass: $allTests"

echo
echo "| mutant | result | time |"
echo "| --- | --- | --- |"
survived=0
for n in "${names[@]}"; do
  tests=$(awk -F'|' -v n="$n" '$1 == n {print $2}' "$DIR/twins.txt")
  if [ -z "$tests" ] || [ ! -d "$WORK/$n" ]; then
    echo "| $n | NOT IN THE BUNDLE | |"
    survived=$((survived + 1))
    continue
  fi
  start=$SECONDS
  failed=$(runSet "$n" $tests)
  if [[ -z $failed ]]; then
    verdict=SURVIVED
    survived=$((survived + 1))
  elif [[ $failed == unnamed:* ]]; then
    verdict="UNCLEAR (${failed#unnamed:})" # a crash or a hang: no test said what went wrong
    survived=$((survived + 1))
  else
    verdict="killed by ${failed#named:}"
  fi
  echo "| $n | $verdict | $((SECONDS - start)) s |"
done
echo
echo "gpu-mutants: ${#names[@]} run, $survived not killed (logs in $OUT/mutants)"
[ "$survived" -eq 0 ]
