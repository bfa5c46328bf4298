#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One call on the GPU machine for the reliability and Python work (issues 12, 14):
#   STEPS=build,ctest,python      build mgblas (CUDA, sm_90), run the whole CTest suite,
#                                 build the Python package against it and run its
#                                 tests (CuPy on the GPU), and time SYMV from Python
#                                 against the C++ tester at n = 16384
#   CTEST_ARGS="-L gpu"           narrows the CTest run
#   STEPS=sanitize                the GPU test binaries under compute-sanitizer memcheck
#                                 and racecheck (SAN_TOOLS: which, SAN_FILTER: gtest
#                                 filter, SAN_TIMEOUT: seconds per binary and tool,
#                                 SAN_BINS: test binary names, default all GPU ones)
# Logs go to $OUT (or ./device-out); a short table is printed last.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
root=$(cd "$(dirname "$0")/.." && pwd)
src=${SRC:-$root}
out=${OUT:-$root/device-out}
mkdir -p "$out"
build=$root/build-device
steps=",${STEPS:-build,ctest,python},"
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "[$(date +%T)] $*"; }
has() { [[ $steps == *",$1,"* ]]; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"

if has build || [ ! -f "$build/build.ninja" ]; then
  host_cxx=()
  [ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
  stamp "configure + build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${host_cxx[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
  t0=$SECONDS
  cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -B2 -A12 "error" "$out/build.log" | head -60; exit 1; }
  note "build: $((SECONDS - t0)) s"
fi

if has ctest; then
  stamp "ctest"
  # CTEST_ARGS narrows the run (e.g. "-L gpu"); OpenBLAS keeps to one thread per rank so
  # that concurrent MPI tests do not oversubscribe the cores.
  (cd "$build" && OPENBLAS_NUM_THREADS=1 ctest ${CTEST_ARGS:--j 8} --timeout 600 --output-on-failure \
    >"$out/ctest.log" 2>&1)
  grep -E "tests passed|\*\*\*Failed|Timeout|Not Run" "$out/ctest.log" | tee -a "$summary"
  grep -A30 "The following tests FAILED" "$out/ctest.log" | head -30
fi

if has python; then
  stamp "python package"
  prefix=$build/python-prefix
  cmake --install "$build" --prefix "$prefix" >"$out/install.log" 2>&1 || tail -20 "$out/install.log"
  mgblas_dir=$(dirname "$(find "$prefix" -name mgblasConfig.cmake | head -n1)")
  rm -rf /tmp/mgblas-site
  # mpi4py must speak the MPI that mgblas links (Open MPI here): a source
  # distribution carried in .whl/ is built against this machine's mpicc.
  for sd in "$root"/.whl/mpi4py-*.tar.gz; do
    [ -f "$sd" ] || continue
    python3 -m pip install -q --no-build-isolation --no-deps --no-index --target /tmp/mgblas-site \
      "$sd" >"$out/mpi4py.log" 2>&1 || tail -20 "$out/mpi4py.log"
  done
  python3 -m pip install -q --no-build-isolation --no-deps --no-index --target /tmp/mgblas-site \
    --config-settings=cmake.define.mgblas_DIR="$mgblas_dir" \
    --config-settings=build-dir="$build/python-build" "$src/python" >"$out/pip.log" 2>&1 ||
    { tail -40 "$out/pip.log"; }
  export PYTHONPATH=/tmp/mgblas-site
  # hwloc's OpenCL plug-in (pocl, LLVM) crashes MPI_Init inside this Python environment:
  # empty plug-in and ICD folders keep it out.
  mkdir -p /tmp/noplugins /tmp/noicd
  export HWLOC_PLUGINS_PATH=/tmp/noplugins OCL_ICD_VENDORS=/tmp/noicd
  {
    python3 -c "import sys, pytest; print(sys.executable, sys.prefix, 'pytest', pytest.__version__)"
    python3 -m pytest --version --version 2>&1 | head -20
    ext=$(find /tmp/mgblas-site -name '_mgblas*.so' | head -n1)
    echo "extension: $ext"; ldd "$ext" | grep -E "stdc|gcc_s|mpi|cuda" 
    echo "g++ libstdc++: $(g++ -print-file-name=libstdc++.so.6)"
  } >"$out/python-env.txt" 2>&1
  python3 -c "from mpi4py import MPI; print('mpi4py', MPI.Get_library_version().splitlines()[0])" 2>&1 |
    tee -a "$summary"
  cd "$build"
  # The test run, and (when it crashes) again without third-party pytest plug-ins, then
  # with the compiler's libstdc++ preloaded: which of them it needs is the finding.
  pytest_run() {  # ranks tag [env assignments...]
    local ranks=$1 tag=$2; shift 2
    env "$@" timeout 600 mpirun --oversubscribe --allow-run-as-root --bind-to none -np "$ranks" \
      -x PYTHONPATH -x NCCL_NVLS_ENABLE -x HWLOC_PLUGINS_PATH -x OCL_ICD_VENDORS \
      $(for a in "$@"; do echo "-x ${a%%=*}"; done) \
      python3 -X faulthandler -m pytest -q --color=no -p no:cacheprovider \
      -rs "$src/python/tests" >"$out/pytest-np$ranks$tag.log" 2>&1
    local rc=$?
    note "pytest np$ranks$tag (rc $rc): $(grep -E '[0-9]+ (passed|failed)' "$out/pytest-np$ranks$tag.log" | tail -1)"
    return $rc
  }
  for ranks in 1 2; do
    pytest_run "$ranks" "" && continue
    pytest_run "$ranks" "-noplugins" PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 && continue
    pytest_run "$ranks" "-preload" PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
      LD_PRELOAD="$(g++ -print-file-name=libstdc++.so.6)"
  done
  grep -h -E "FAILED|Error|Fatal Python|File \"" "$out"/pytest-np1*.log | head -30
  stamp "symv from Python and from C++"
  python3 "$src/bench/python_symv.py" 16384 20 2>&1 | tee "$out/python_symv.txt" | tee -a "$summary"
  for t in d s; do
    "$build/tests/testers/tester_blas" --op symv --type $t --uplo L -n 16384 --niter 20 \
      >"$out/tester_symv_$t.txt" 2>&1
    note "C++ ${t}symv L n=16384: $(grep -E '16384' "$out/tester_symv_$t.txt" | tail -1)"
  done
  cd "$root"
fi

if has sanitize; then
  san_to=${SAN_TIMEOUT:-150}
  filter=${SAN_FILTER:-*}
  # SAN_BINS: which test binaries (names), default every GPU test binary.
  if [ -n "${SAN_BINS:-}" ]; then
    bins=$(for n in $SAN_BINS; do ls "$build"/tests/*/"$n"; done)
  else
    bins=$(ls "$build"/tests/kernels/test_cuda_* "$build"/tests/dist/test_*_gpu "$build"/tests/dist/test_dist_nccl 2>/dev/null)
  fi
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    for b in $bins; do
      name=$(basename "$b")
      log=$out/sanitize-$tool-$name.log
      t0=$SECONDS
      timeout "$san_to" compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
        "$b" --gtest_filter="$filter" >"$log" 2>&1
      rc=$?
      summ=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
      tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \]" "$log" | head -2 | tr '\n' ' ')
      note "$tool $name: rc $rc, $((SECONDS - t0)) s, ${summ:-no summary} ${tests}"
    done
  done
fi

echo "===== summary ====="
cat "$summary"
