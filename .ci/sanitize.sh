#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The sanitizer build (issue 12, item 8): the host engine with AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer, in its own build folder, CUDA off;
# builds the libraries and the host + MPI tests and runs them with CTest. Any
# sanitizer finding aborts the process that hit it, so its test fails and this script
# exits non-zero.
#
#   bash .ci/sanitize.sh <source-root> <build-dir>
#
# Environment: MGBLAS_SANITIZE (default address,undefined); MGBLAS_SAN_EXCLUDE and
# MGBLAS_SAN_TESTS (CTest -E / -R regexes; see the test selection below).
set -euo pipefail

if [ $# -ne 2 ]; then echo "usage: $0 <source-root> <build-dir>" >&2; exit 2; fi
src=$(cd "$1" && pwd)
mkdir -p "$2"
build=$(cd "$2" && pwd)
jobs=$(nproc)

# --- the CPU BLAS: reference BLAS/LAPACK (netlib), not OpenBLAS ---------------------------
# Debian 12's OpenBLAS 0.3.21 reads one element past the end of x in ?gemv_n for
# complex types when m % 4 == 2 (GCC 12's tree-vectorizer; OpenBLAS issue #4013, fixed
# in 0.3.24). Harmless in most heaps, but under ASan the read can cross into an
# unmapped page and the test dies with SEGV in cgemv_n/zgemv_n. The reference
# libraries (Debian's libblas3 / liblapack3, with CBLAS) have no such reads and no
# thread pool; they are picked at run time through LD_LIBRARY_PATH.
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
refblas=/usr/lib/$multiarch/blas
reflapack=/usr/lib/$multiarch/lapack
if [ ! -e "$refblas/libblas.so.3" ] || [ ! -e "$reflapack/liblapack.so.3" ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "== installing the reference BLAS/LAPACK (libblas3 liblapack3)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    libblas3 liblapack3 >/dev/null
fi

# --- configure: host engine only, no examples or testers ------------------------------
# -Og -g1: asserts on, line tables for the reports; GCC compiles this code with the
# sanitizers 2-3x faster than at -O1 -g, and the tests run only about 10% slower.
echo "== sanitizer build (${MGBLAS_SANITIZE:-address,undefined}) in $build"
cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-Og -g1" -DCMAKE_CXX_FLAGS_DEBUG="-Og -g1" \
  -DMGBLAS_SANITIZE="${MGBLAS_SANITIZE:-address,undefined}" \
  -DMGBLAS_ENABLE_CUDA=OFF -DMGBLAS_BUILD_TESTS=ON \
  -DMGBLAS_BUILD_EXAMPLES=OFF -DMGBLAS_BUILD_TESTERS=OFF \
  -DCBLAS_LIBRARY="$refblas/libblas.so.3" \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }

# The host and MPI tests, on 1 and 2 ranks. Left out: the GPU tests (label gpu: they
# only exit 77 without CUDA), install_consumer (label install: it builds an
# uninstrumented consumer) and the MPI tests on 3 or 4 ranks (_np3, _np4: on 2 cores
# they are oversubscribed and took 4 of the 10 minutes; the tests' 1-3 host devices per
# rank already give 1-6 devices and uneven block-cyclic splits on 1 and 2 ranks).
# Also left out: abort_on_timeout_* (a CMake script runs the program and checks that
# MPI_Abort ends the job; what it tests is process termination, not memory).
# And test_scalapack_2d: ScaLAPACK's BLACS keeps its grids and MPI operations to the end
# of the process, in frames the leak check cannot unwind (so no suppression can name
# them); the redistribution it checks runs here in test_redistribute_2d.
# MGBLAS_SAN_EXCLUDE replaces that -E regex ('' runs them all); MGBLAS_SAN_TESTS adds a
# -R regex.
exclude=${MGBLAS_SAN_EXCLUDE-_np([3-9]|[1-9][0-9]+)\$|^abort_on_timeout_|^test_scalapack_2d_}
select=(-LE "gpu|install|tester")
if [ -n "$exclude" ]; then select+=(-E "$exclude"); fi
if [ -n "${MGBLAS_SAN_TESTS:-}" ]; then select+=(-R "$MGBLAS_SAN_TESTS"); fi

# --- build: the executables the selected tests run, and what they link ----------------
# The Ninja targets among the selected tests' names (with and without the _np<ranks> of
# the MPI ones) and the build-tree paths in their command lines; the GPU test binaries
# are not built.
mapfile -t targets < <(cd "$build" && {
    ctest -N "${select[@]}" | sed -n 's/^ *Test *#[0-9]*: *\([^ ]*\).*/\1/p' |
      sed 'p; s/_np[0-9]*$//'
    ctest --show-only=json-v1 "${select[@]}" | grep -o "\"$build/[^\"]*\"" | tr -d '"' |
      sed "s|^$build/||"
  } | sort -u | grep -Fx -f <(ninja -t targets all | sed 's/: .*//'))
if ((${#targets[@]} == 0)); then echo "no tests selected" >&2; exit 1; fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# --- run ------------------------------------------------------------------------------
export LD_LIBRARY_PATH="$refblas:$reflapack${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
supp="$src/tests/sanitizers"
# ASan (the ranks under mpiexec inherit these variables; the test binaries carry the
# run-time themselves, so no LD_PRELOAD, and Open MPI needs none of detect_odr_violation=0
# or protect_shadow_gap=0 here):
# - halt_on_error=1: stop at the first error (the default; stated so).
# - detect_leaks=1: LeakSanitizer at exit, its report fails the process (the default on
#   x86_64 Linux; stated so).
# - fast_unwind_on_malloc=0: Open MPI's libraries have no frame pointers, so the fast
#   unwinder stops one frame above malloc, and MPI_Finalize unloads the components it
#   dlopened, so those frames are "<unknown module>" by exit; the slow unwinder records
#   the whole stack, which the suppressions need to see MPI_Init / MPI_Finalize.
# - strict_string_checks=1, check_initialization_order=1: two more cheap checks (string
#   functions read past the terminator; static initialisers across translation units).
# - allocator_may_return_null=1: a request larger than ASan's allocator serves (it caps
#   at 1 TiB) returns null as glibc would, instead of aborting; test_reliability asks for
#   buffers beyond any address space on purpose, to check the "allocation failed" error
#   on every rank.
# - intercept_tls_get_addr=0: GCC 12's LeakSanitizer keeps its own record of each thread's
#   dynamic TLS blocks; after MPI_Finalize has dlclose'd Open MPI's components one such
#   record points at memory that is gone (LSAN_OPTIONS=verbosity=1 printed "DTLS 9 at
#   0x3f37-0x400005039"), and the leak check at exit died on it with "Tracer caught
#   signal 11 ... LeakSanitizer has encountered a fatal error" (test_gebrd_mgpu_np2, every
#   run). Without the record the check scans static TLS, stacks and globals only; no
#   mgblas pointer lives in dynamic TLS.
export ASAN_OPTIONS="intercept_tls_get_addr=0:halt_on_error=1:detect_leaks=1:fast_unwind_on_malloc=0:allocator_may_return_null=1:strict_string_checks=1:check_initialization_order=1"
# LSan: leaks that Open MPI makes for itself are suppressed; see the file for each entry.
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
# UBSan: every check is fatal (cmake/mgblas_sanitize.cmake compiles with
# -fno-sanitize-recover=all; halt_on_error=1 says so at run time too); print the
# stack of a finding.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# The reductions' tests run only their cases of at most 64 rows and columns
# (MGBLAS_TEST_SMALL, tests/dist/scaled_matrices.hpp): those still span several panels
# and every code path (blockings 1, 6, 16; both triangles; the scaled matrices of
# ExtremeScales at n = 17), and the larger ones repeat the same paths on more data; the
# plain run above keeps them all. MGBLAS_TEST_SMALL=0 runs them all here too.
export MGBLAS_TEST_SMALL="${MGBLAS_TEST_SMALL:-1}"

# The tests that make collectives time out on purpose (a rank skips or adds a call)
# run with extra suppressions: MPI cannot cancel a collective, so what Open MPI
# allocated for the abandoned one stays allocated (see lsan_timeouts.supp). Every other
# test runs with the start-up suppressions only.
timeout_tests='^test_reliability_np[0-9]+$'
cat "$supp/lsan.supp" "$supp/lsan_timeouts.supp" >"$build/lsan_timeouts.supp"
mapfile -t names < <(cd "$build" && ctest -N "${select[@]}" |
  sed -n 's/^ *Test *#[0-9]*: *\([^ ]*\).*/\1/p')
plain=() timing=()
for t in "${names[@]}"; do
  if [[ $t =~ $timeout_tests ]]; then timing+=("$t"); else plain+=("$t"); fi
done
anchored() { local IFS='|'; echo "^($*)\$"; }

cd "$build"
rc=0
if ((${#plain[@]})); then
  ctest --output-on-failure -j "$jobs" -R "$(anchored "${plain[@]}")" || rc=1
fi
if ((${#timing[@]})); then
  LSAN_OPTIONS="suppressions=$build/lsan_timeouts.supp:print_suppressions=0" \
    ctest --output-on-failure -j "$jobs" -R "$(anchored "${timing[@]}")" || rc=1
fi
exit "$rc"
