#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Set up, build and run mgblas on a fresh Debian 12 machine (CUDA toolkit optional,
# GPU optional).
#
#   bash .ci/mgblas.sh demo    install what is missing, build, run the distributed demo
#   bash .ci/mgblas.sh test    install what is missing, build, run the whole test suite
#
# Environment: MGBLAS_BUILD_DIR (default build), MGBLAS_CUDA_ARCH (default: the GPU's
# own architecture when one is visible, 90 under CI, else "80;90"), MGBLAS_RANKS (demo
# ranks, default 2), CI=true narrows the compiled kernel instances (MGBLAS_INSTANCES=ci).
set -euo pipefail

mode=${1:-}
case "$mode" in demo|test) ;; *) echo "usage: $0 demo|test [extra demo arguments]" >&2; exit 2 ;; esac
shift || true
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MGBLAS_BUILD_DIR:-$root/build}

# --- 1. packages (idempotent; silent when everything is there) -----------------------
# gfortran: the Fortran module and its example (built when CMake finds a Fortran compiler).
# libscalapack-openmpi-dev: tests only (tests/dist/test_scalapack_2d compares with it).
packages=(cmake ninja-build g++ gfortran pkg-config python3 libopenmpi-dev openmpi-bin
          libhwloc-dev libopenblas-dev liblapacke-dev libgtest-dev libcli11-dev
          nlohmann-json3-dev libscalapack-openmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if command -v apt-get >/dev/null; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "== installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  else
    echo "== missing packages (${missing[*]}) and no apt-get: install them by hand" >&2
  fi
fi

# --- 2. configure --------------------------------------------------------------------
nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
if [ -n "$nvcc" ]; then
  arch=${MGBLAS_CUDA_ARCH:-}
  if [ -z "$arch" ] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '.')
  fi
  if [ -z "$arch" ] && [ "${CI:-}" = true ]; then arch=90; fi
  if [ -z "$arch" ]; then arch="80;90"; fi
  cmake_args+=(-DMGBLAS_ENABLE_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_ARCHITECTURES=$arch")
  # The GPU machines pin the host compiler nvcc supports there.
  if [ -z "${CUDAHOSTCXX:-}" ] && [ -x /opt/gcc/bin/g++ ]; then
    cmake_args+=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
  fi
else
  cmake_args+=(-DMGBLAS_ENABLE_CUDA=OFF)
fi
if [ "${CI:-}" = true ]; then cmake_args+=(-DMGBLAS_INSTANCES=ci); fi
echo "== configuring in $build"
mkdir -p "$build"
cmake -S "$root" -B "$build" "${cmake_args[@]}" >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }

# --- 3. build ------------------------------------------------------------------------
echo "== building ($(nproc) cores)"
cmake --build "$build" -j "$(nproc)"

# --- 4. run --------------------------------------------------------------------------
export NCCL_NVLS_ENABLE=0   # NVLink multicast stays off on shared machines
if [ "$mode" = test ]; then
  rc=0
  (cd "$build" && ctest --output-on-failure -j "$(nproc)") || rc=$?
  # The shared-library build (BUILD_SHARED_LIBS=ON, host engine, libraries only) through
  # the same install test: find_package(mgblas) and pkg-config consumers.
  shared=${build}-shared
  echo "== shared libraries in $shared"
  cmake -S "$root" -B "$shared" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DMGBLAS_ENABLE_CUDA=OFF -DMGBLAS_BUILD_EXAMPLES=OFF -DMGBLAS_BUILD_TESTERS=OFF \
    >"$shared.configure.log" 2>&1 || { cat "$shared.configure.log"; exit 1; }
  cmake --build "$shared" -j "$(nproc)" --target mgblas_libraries || exit 1
  (cd "$shared" && ctest --output-on-failure -R install_consumer) || rc=1
  # The Python package against the shared libraries: pytest on 1 and 2 ranks.
  bash "$root/python/ci_test.sh" "$shared" || rc=1
  # The host engine under ASan + UBSan + LSan (its own build folder); a finding fails.
  bash "$root/.ci/sanitize.sh" "$root" "${build}-sanitize" || rc=1
  exit "$rc"
fi
mpi_flags=()
if mpirun --version 2>&1 | grep -q "Open MPI"; then
  mpi_flags=(--oversubscribe --bind-to none)
  if [ "$(id -u)" = 0 ]; then mpi_flags+=(--allow-run-as-root); fi
  # Pass the library's settings on to every rank.
  for v in MGBLAS_HOST_DEVICES MGBLAS_BACKEND MGBLAS_DEVICES MGBLAS_REDUCER NCCL_NVLS_ENABLE; do
    if [ -n "${!v:-}" ]; then mpi_flags+=(-x "$v"); fi
  done
fi
# Without a GPU each rank drives two host devices, so the demo spans 4 devices.
if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
  export MGBLAS_HOST_DEVICES=${MGBLAS_HOST_DEVICES:-2}
fi
exec mpirun "${mpi_flags[@]}" -np "${MGBLAS_RANKS:-2}" \
  "$build/examples/00_distributed_demo/mgblas_demo" "$@"
