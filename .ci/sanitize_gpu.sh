#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The reductions' GPU tests under compute-sanitizer (issue 32, item 8): memcheck and
# racecheck on test_hetrd_gpu and test_gebrd_gpu in their small-size mode
# (MGBLAS_TEST_SMALL=1: only the cases of at most 64 rows and columns, so that they
# finish under the tools), one rank. Needs a GPU and a build with MGBLAS_ENABLE_CUDA=ON
# that has the two test binaries (ninja test_hetrd_gpu test_gebrd_gpu).
#
#   bash .ci/sanitize_gpu.sh <build-dir> [report-dir]
#
# Environment: MGBLAS_SAN_TOOLS (default "memcheck racecheck"), MGBLAS_SAN_BINARIES
# (default "test_hetrd_gpu test_gebrd_gpu"), MGBLAS_SAN_FILTER (a --gtest_filter, default
# all), COMPUTE_SANITIZER (default: on PATH, else /usr/local/cuda/bin). Each run's
# report goes to <report-dir>/<binary>.<tool>.log (default <build-dir>/sanitize-gpu);
# the script exits non-zero when any run reports an error or a test fails.
set -uo pipefail

if [ $# -lt 1 ]; then echo "usage: $0 <build-dir> [report-dir]" >&2; exit 2; fi
build=$(cd "$1" && pwd)
reports=${2:-$build/sanitize-gpu}
mkdir -p "$reports"
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if [ ! -x "$sanitizer" ]; then echo "compute-sanitizer not found ($sanitizer)" >&2; exit 2; fi
tools=${MGBLAS_SAN_TOOLS:-memcheck racecheck}
binaries=${MGBLAS_SAN_BINARIES:-test_hetrd_gpu test_gebrd_gpu}
filter=${MGBLAS_SAN_FILTER:-*}

export MGBLAS_TEST_SMALL=1
status=0
for bin in $binaries; do
  exe=$(find "$build" -type f -name "$bin" -perm -u+x | head -n 1)
  if [ -z "$exe" ]; then echo "== $bin: not built in $build" >&2; status=1; continue; fi
  for tool in $tools; do
    log="$reports/$bin.$tool.log"
    echo "== $bin under $tool -> $log"
    start=$(date +%s)
    # memcheck: out-of-bounds and misaligned device accesses; racecheck: shared-memory hazards.
    "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 100 \
      "$exe" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1
    rc=$?
    echo "   exit $rc after $(( $(date +%s) - start )) s; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)"
    if [ $rc -eq 77 ]; then echo "   (skipped: no GPU visible)"; continue; fi
    [ $rc -ne 0 ] && status=1
  done
done
exit $status
