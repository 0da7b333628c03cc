# Sourced by scripts/mutants.sh --cuda-bundle DIR [name...]: builds the CUDA twins for the GPU
# machine. For each twin: its edits applied, its test executables built, copied with each
# Strata library that differs from the unmutated one into <twin>/, the source restored. The
# unmutated executables and libraries go to base/ (the runner checks they pass first), the
# other libraries they load once to lib/. All of it is packed as DIR/payload.tar.xz, with
# DIR/twins.txt (name|tests) for scripts/gpu-mutants-run.sh.
# Uses from mutants.sh: root, build, jobs, bundle, chosen, twinField, applyEdits, notApplied,
# current, restore, fail.
cudaBuild=${CUDA_BUILD_DIR:-$root/build-cuda}

# As scripts/gpu-check.sh configures it (sm_90, shared libraries, no GUI).
cmake -S "$root" -B "$cudaBuild" -DSTRATA_GUI=OFF -DBUILD_SHARED_LIBS=ON \
  -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" \
  -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null ||
  fail "could not configure $cudaBuild"

dirOf() { [ "$1" = cuda ] && echo "$cudaBuild" || echo "$build"; }
# The built executable of test `t` in the build of `where`.
exeOf() {
  local d
  d=$(dirOf "$1")
  for sub in core io render frames app; do
    [ -x "$d/tests/$sub/$2" ] && { echo "$d/tests/$sub/$2"; return 0; }
  done
  return 1
}
buildTests() { # where, tests...
  local where=$1
  shift
  cmake --build "$(dirOf "$where")" -j"$jobs" --target "$@" >"$blog" 2>&1
}
# The Strata shared libraries an executable loads (none for the GUI build's static ones).
strataLibs() { ldd "$1" | awk '/=> \// && $1 ~ /^libstrata_/ {print $3}'; }

stage=$(mktemp -d)
blog=$(mktemp)
trap 'restore; rm -rf "$stage" "$blog"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$stage/lib" "$stage/base/bin" "$stage/base/lib"

# The unmutated build of every test named, first: base/.
for m in "${chosen[@]}"; do
  twinField "$m"
  buildTests "$f_where" $f_tests || { tail -30 "$blog"; fail "the unmutated tests of $f_name do not build"; }
  for t in $f_tests; do
    e=$(exeOf "$f_where" "$t") || fail "$f_name: no executable $t in $(dirOf "$f_where")"
    cp "$e" "$stage/base/bin/"
    for l in $(strataLibs "$e"); do cp -L "$l" "$stage/base/lib/"; done
  done
done
# Every other library they load, as gpu-check.sh gathers them: not the C library's, the
# driver's, the loader or the C++ runtime (the machine has its own, newer).
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s|libz\.so|libstrata_)'
for e in "$stage"/base/bin/*; do
  ldd "$e" | awk '/=> \// {print $1, $3}' | while read -r name path; do
    if [[ ! $name =~ $skip ]]; then cp -L -n "$path" "$stage/lib/$name"; fi
  done
done
mkdir -p "$stage/share" && cp -r /usr/share/xml/udunits "$stage/share/udunits"

: >"$stage/twins.txt"
failed=0
for m in "${chosen[@]}"; do
  twinField "$m"
  src="$root/$f_file"
  [ -f "$src" ] || fail "$f_name: no file $f_file"
  cp "$src" "$src.orig"
  current=$src
  start=$SECONDS
  if ! applyEdits "$src" "$f_edits"; then
    echo "mutants: $f_name: $notApplied"
    failed=1
  elif ! buildTests "$f_where" $f_tests; then
    echo "mutants: $f_name: BROKEN (does not build: fix the edit)"
    grep -m5 "error" "$blog" >&2
    failed=1
  else
    mkdir -p "$stage/$f_name/bin" "$stage/$f_name/lib"
    for t in $f_tests; do
      e=$(exeOf "$f_where" "$t")
      cp "$e" "$stage/$f_name/bin/"
      # Only the libraries the edit changed travel again.
      for l in $(strataLibs "$e"); do
        cmp -s "$l" "$stage/base/lib/$(basename "$l")" || cp -L "$l" "$stage/$f_name/lib/"
      done
    done
    echo "$f_name|$f_tests" >>"$stage/twins.txt"
    echo "mutants: $f_name: built ($(ls "$stage/$f_name/lib" | tr '\n' ' ')$f_tests; $((SECONDS - start)) s)"
  fi
  restore
done
# Back to the unmutated build of every target touched.
for m in "${chosen[@]}"; do
  twinField "$m"
  buildTests "$f_where" $f_tests || echo "mutants: the unmutated $f_tests of $f_name did not rebuild" >&2
done

strip --strip-unneeded "$stage"/*/bin/* "$stage"/*/lib/libstrata_* 2>/dev/null
rm -rf "$bundle"
mkdir -p "$bundle"
cp "$stage/twins.txt" "$bundle/"
# Each twin's library is the unmutated one but for an object or two: a dictionary larger than
# two of them packs every copy after the first in a few MiB. (xz takes about 2 GiB to pack
# with it, 200 MiB to unpack.)
tar -C "$stage" --exclude ./twins.txt -cf - . | xz -T1 --lzma2=preset=6,dict=192MiB >"$bundle/payload.tar.xz" ||
  fail "could not pack $bundle/payload.tar.xz"
echo "mutants: bundle $(du -sh "$bundle" | cut -f1) in $bundle ($(wc -l <"$bundle/twins.txt") twins)"
size=$(du -sb "$bundle" | cut -f1)
if ((size > 60 * 1024 * 1024)); then
  echo "mutants: the bundle is over 60 MiB: it will not travel with the working tree" >&2
  failed=1
fi
exit $failed
