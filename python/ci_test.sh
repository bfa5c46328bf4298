#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the Python package against an mgblas build and run its tests on 1 and 2 ranks
# (host devices without a GPU; the GPU/CuPy tests then report "skipped").
#
#   bash python/ci_test.sh [BUILD_DIR]
#
# BUILD_DIR (or env MGBLAS_PY_BUILD_DIR; default build-shared, else build, beside this
# folder) is a configured and built mgblas tree, such as the shared host-only one that
# `bash .ci/mgblas.sh test` leaves in build-shared. It is installed into
# BUILD_DIR/python-prefix and the package is built against that with pip in the
# virtual environment BUILD_DIR/python-venv (Debian's python3 with its NumPy, SciPy,
# mpi4py and pytest; scikit-build-core and nanobind from PyPI). MGBLAS_PY_RANKS (default
# "1 2") lists the rank counts; MGBLAS_PY_TIMEOUT (default 600) bounds each pytest run
# in seconds, so a hang fails. Last, python/wheel_test.sh builds the wheel against the
# static tree (MGBLAS_BUILD_DIR, default build) and runs the eigen-solver example from a
# fresh virtual environment (MGBLAS_PY_WHEEL=0 skips it). Exits non-zero when anything
# fails or no test ran.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-${MGBLAS_PY_BUILD_DIR:-}}
if [ -z "$build" ]; then
  for b in "$root/build-shared" "$root/build"; do
    if [ -f "$b/CMakeCache.txt" ]; then build=$b; break; fi
  done
fi
if [ -z "$build" ] || [ ! -f "$build/CMakeCache.txt" ]; then
  echo "python/ci_test.sh: no mgblas build found (pass its directory, e.g. build-shared)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
cwd=$PWD
limit=${MGBLAS_PY_TIMEOUT:-600}
t0=$SECONDS
step() { echo "== python: $* ($((SECONDS - t0)) s)"; }

# --- 1. Debian packages (quiet when present) ----------------------------------------
packages=(python3-venv python3-dev python3-numpy python3-scipy python3-mpi4py python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  step "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# --- 2. the library, installed into a prefix -----------------------------------------
# (a package config with its Find modules; the build tree's own export lacks them)
prefix=$build/python-prefix
step "installing $build into $prefix"
cmake --build "$build" --target mgblas_libraries >/dev/null
cmake --install "$build" --prefix "$prefix" >"$build/python-install.log" 2>&1 ||
  { cat "$build/python-install.log"; exit 1; }
mgblas_dir=$(dirname "$(find "$prefix" -name mgblasConfig.cmake | head -n1)")
# The shared C library, for the surface test's C calls (python/tests/test_surface.py).
capi_lib=$(find "$prefix" -name 'libmgblas_capi.so' | head -n1)
if [ -n "$capi_lib" ]; then export MGBLAS_CAPI_LIB=$capi_lib; fi

# --- 3. the package ------------------------------------------------------------------
venv=$build/python-venv
python=/usr/bin/python3
if [ ! -x "$venv/bin/python" ]; then
  step "virtual environment $venv"
  "$python" -m venv --system-site-packages "$venv"
fi
step "pip: scikit-build-core, nanobind"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "scikit-build-core>=0.10" "nanobind>=2.0"
step "pip install ./python against $mgblas_dir"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation \
  --config-settings=cmake.define.mgblas_DIR="$mgblas_dir" \
  --config-settings=build-dir="$build/python-build" "$root/python" >"$build/python-pip.log" 2>&1 ||
  { cat "$build/python-pip.log"; exit 1; }

# --- 4. tests ------------------------------------------------------------------------
# Run from outside the source tree so that the installed package is imported.
cd "$build"
export OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mpi_flags=(--oversubscribe --bind-to none)
if [ "$(id -u)" = 0 ]; then mpi_flags+=(--allow-run-as-root); fi
pytest_args=(-q --color=no -p no:cacheprovider -rs "$root/python/tests")
rc=0
for ranks in ${MGBLAS_PY_RANKS:-1 2}; do
  step "pytest on $ranks rank(s)"
  r=0
  if [ "$ranks" = 1 ]; then
    timeout "$limit" "$venv/bin/python" -m pytest "${pytest_args[@]}" || r=$?
  else
    timeout "$limit" mpirun "${mpi_flags[@]}" -np "$ranks" \
      "$venv/bin/python" -m pytest "${pytest_args[@]}" || r=$?
  fi
  case $r in
    0) ;;
    5) echo "python/ci_test.sh: pytest collected no test on $ranks rank(s)" >&2; rc=1 ;;
    124) echo "python/ci_test.sh: pytest on $ranks rank(s) timed out after $limit s" >&2; rc=1 ;;
    *) echo "python/ci_test.sh: pytest on $ranks rank(s) failed (exit $r)" >&2; rc=1 ;;
  esac
done

# The example scripts, as a user launches them (they check their own results).
step "examples/python on 2 ranks"
for ex in symv_demo.py eigenvalues_demo.py; do
  timeout 120 mpirun "${mpi_flags[@]}" -np 2 -x MGBLAS_HOST_DEVICES=2 \
    "$venv/bin/python" "$root/examples/python/$ex" --n 600 ||
    { echo "python/ci_test.sh: examples/python/$ex failed" >&2; rc=1; }
done

# The wheel a user builds (`pip wheel ./python` against the static tree), installed into
# a fresh virtual environment that runs examples/python/eigenvalues_demo.py on 2 ranks.
if [ "${MGBLAS_PY_WHEEL:-1}" != 0 ]; then
  step "wheel (python/wheel_test.sh)"
  (cd "$cwd" && MGBLAS_PY_BUILD_PYTHON="$venv/bin/python" bash "$root/python/wheel_test.sh") ||
    { echo "python/ci_test.sh: the wheel test failed" >&2; rc=1; }
fi
step "done (exit $rc)"
exit "$rc"
