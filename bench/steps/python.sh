# SPDX-License-Identifier: BSD-3-Clause
# the Python package on the GPU: install, pytest on 1 and 2 ranks, SYMV from Python and C++
# Sourced by bench/device.sh (was the python part of bench/reliability_device.sh; its build
# and ctest parts are the steps build and gpu-tests, its sanitize part the step sanitize).
# Installs BUILD, builds the Python package against it, runs its tests (CuPy on the GPU)
# and times SYMV from Python (bench/python_symv.py) against mgblas-tester blas at n = 16384.
[ -f "$build/build.ninja" ] || need all || exit 1
need mgblas-tester || exit 1
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
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
  "$tester" blas --op symv --type $t --uplo L -n 16384 --niter 20 \
    >"$out/tester_symv_$t.txt" 2>&1
  note "C++ ${t}symv L n=16384: $(grep -E '16384' "$out/tester_symv_$t.txt" | tail -1)"
done
cd "$root"

echo "===== summary ====="
cat "$summary"
