#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the mgblas wheel with `pip wheel ./python` against a static mgblas, check that it
# stands on its own, install it into a fresh virtual environment and run
# examples/python/eigenvalues_demo.py from there on 2 ranks.
#
#   bash python/wheel_test.sh [STATIC_BUILD_DIR]
#
# STATIC_BUILD_DIR (or env MGBLAS_PY_WHEEL_BUILD_DIR; default $MGBLAS_BUILD_DIR, else build
# beside this folder: the tree `bash .ci/mgblas.sh test` builds first) is a configured and
# built static mgblas (BUILD_SHARED_LIBS=OFF, CUDA on or off). It is installed into
# STATIC_BUILD_DIR/python-wheel/prefix, the wheel is built against that prefix into
# .../python-wheel/dist and the prefix is removed again. Without a static tree the wheel
# builds the library itself (MGBLAS_PYTHON_BUNDLED=ON, host engine: a full compile, in
# build-wheel beside this folder). MGBLAS_PY_BUILD_PYTHON names a Python that has
# scikit-build-core and nanobind (python/ci_test.sh passes its own); else a virtual
# environment is made for the build.
#
# The extension inside the wheel must need no libmgblas*.so and carry no RPATH into the
# build, the prefix or the sources (readelf), and every library it needs must be found
# (ldd). The wheel then goes into a new virtual environment (no system site packages;
# pip fetches NumPy), `import mgblas` must come from there, and the example runs under
# `mpirun -np 2` with MGBLAS_HOST_DEVICES=2 within MGBLAS_PY_TIMEOUT seconds (default
# 300). Exits non-zero when any of that fails.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=/usr/bin/python3
limit=${MGBLAS_PY_TIMEOUT:-300}
t0=$SECONDS
step() { echo "== wheel: $* ($((SECONDS - t0)) s)"; }
fail() { echo "python/wheel_test.sh: $*" >&2; exit 1; }

static=${1:-${MGBLAS_PY_WHEEL_BUILD_DIR:-${MGBLAS_BUILD_DIR:-$root/build}}}
if [ -f "$static/CMakeCache.txt" ] &&
   ! grep -Eqi '^BUILD_SHARED_LIBS:BOOL=(ON|TRUE|YES|Y|1)$' "$static/CMakeCache.txt"; then
  static=$(cd "$static" && pwd)
  work=$static/python-wheel
else
  echo "python/wheel_test.sh: no static mgblas build in $static; the wheel builds the library" >&2
  static=""
  work=$root/build-wheel
fi
mkdir -p "$work"
dist=$work/dist
rm -rf "$dist"

# --- 1. the library, installed into a prefix (static libraries, package config) --------
cmake_defs=()
prefix=""
if [ -n "$static" ]; then
  prefix=$work/prefix
  step "installing $static into $prefix"
  cmake --build "$static" --target mgblas_libraries >/dev/null
  rm -rf "$prefix"
  cmake --install "$static" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "cmake --install $static failed"; }
  config=$(find "$prefix" -name mgblasConfig.cmake | head -n1)
  [ -n "$config" ] || fail "no mgblasConfig.cmake under $prefix"
  if find "$prefix" -name 'libmgblas*.so*' | grep -q .; then
    fail "$static installs shared mgblas libraries; the wheel needs a static build"
  fi
  cmake_defs+=(--config-settings=cmake.define.mgblas_DIR="$(dirname "$config")")
else
  cmake_defs+=(--config-settings=cmake.define.MGBLAS_PYTHON_BUNDLED=ON
               --config-settings=cmake.define.MGBLAS_ENABLE_CUDA=OFF)
fi

# --- 2. pip wheel ./python ------------------------------------------------------------
bpy=${MGBLAS_PY_BUILD_PYTHON:-}
if [ -z "$bpy" ]; then
  bpy=$work/build-venv/bin/python
  if [ ! -x "$bpy" ]; then "$python" -m venv "$work/build-venv"; fi
  "$bpy" -m pip install -q --disable-pip-version-check "scikit-build-core>=0.10" "nanobind>=2.0"
fi
step "pip wheel ./python -w $dist"
"$bpy" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$dist" \
  "${cmake_defs[@]}" --config-settings=build-dir="$work/build" "$root/python" \
  >"$work/wheel.log" 2>&1 || { cat "$work/wheel.log"; fail "pip wheel ./python failed"; }
wheels=("$dist"/mgblas-*.whl)
if [ ! -f "${wheels[0]}" ] || [ ${#wheels[@]} != 1 ]; then fail "expected one mgblas wheel in $dist"; fi
wheel=${wheels[0]}
# The prefix goes: nothing may need it from here on.
if [ -n "$prefix" ]; then rm -rf "$prefix"; fi
step "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"

# --- 3. what the extension needs at run time --------------------------------------------
inspect=$work/inspect
rm -rf "$inspect"
"$python" -m zipfile -e "$wheel" "$inspect"
ext=$(find "$inspect/mgblas" -name '_mgblas*.so' | head -n1)
[ -n "$ext" ] || fail "no mgblas/_mgblas*.so in $(basename "$wheel")"
needed=$(readelf -d "$ext" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
rpath=$(readelf -d "$ext" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
echo "   needs: $(tr '\n' ' ' <<<"$needed")"
echo "   rpath: ${rpath:-(none)}"
if grep -q '^libmgblas' <<<"$needed"; then fail "the extension needs a shared mgblas"; fi
for dir in "$root" ${static:+"$static"} "$work"; do
  case ":$rpath:" in *"$dir"*) fail "the extension's RPATH points into $dir" ;; esac
done
if ldd "$ext" | grep -q 'not found'; then
  ldd "$ext"; fail "libraries of the extension not found"
fi

# --- 4. a fresh virtual environment, made after the wheel -------------------------------
venv=$work/venv
rm -rf "$venv"
step "fresh virtual environment $venv, pip install $(basename "$wheel")"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel" ||
  fail "pip install $(basename "$wheel") failed"
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cd "$run"   # away from the sources: import the installed package
where=$(timeout 60 "$venv/bin/python" -c 'import mgblas; print(mgblas.__file__)') ||
  fail "import mgblas failed in $venv"
case "$where" in "$venv"/*) ;; *) fail "import mgblas found $where, not the wheel in $venv" ;; esac
echo "   import mgblas: $where"

# --- 5. the eigen-solver example on 2 ranks ---------------------------------------------
export OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mpi_flags=(--oversubscribe --bind-to none)
if [ "$(id -u)" = 0 ]; then mpi_flags+=(--allow-run-as-root); fi
step "examples/python/eigenvalues_demo.py on 2 ranks from $venv"
r=0
timeout "$limit" mpirun "${mpi_flags[@]}" -np 2 -x MGBLAS_HOST_DEVICES=2 \
  "$venv/bin/python" "$root/examples/python/eigenvalues_demo.py" --n 600 || r=$?
case $r in
  0) ;;
  124) fail "eigenvalues_demo.py timed out after $limit s" ;;
  *) fail "eigenvalues_demo.py failed (exit $r)" ;;
esac
step "done"
