#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Where gebrd's fused row step (kernels/cuda/lapack/labrd_fused.cu) spends its time, on the
# GPU machine, one call: builds tester_gebrd, then Nsight Compute on one launch of the
# fused kernel (d, n = GEBRD_N, the launch of column GEBRD_COL, one pass on every column):
# speed of light, stall reasons, occupancy; then the same launch's per-SASS-instruction
# stall samples, printed as the 20 instructions that hold the most samples.
# (The machine has no Nsight Systems: ncu is the only profiler there.)
#
#   bench/profile_device.sh                  env BUILD (default build-device), OUT
set -uo pipefail
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-device}
out=${OUT:-$root/build-profile-out}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
host_cxx=()
[ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  "${host_cxx[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target tester_gebrd >"$out/build.log" 2>&1 ||
  { grep -B2 -A12 "error" "$out/build.log" | head -60; exit 1; }
app=("$build/tests/testers/tester_gebrd" -n "${GEBRD_N:-16384}" --type d --pass one --no-ref
     --niter 1 --warmup 0 --check-max-n 0)
pick=(--launch-skip "${GEBRD_COL:-300}" --launch-count 1 -k regex:fused_kernel)
timeout 300 ncu "${pick[@]}" --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  "${app[@]}" >"$out/ncu_gebrd.log" 2>&1 </dev/null
echo "## ncu fused_kernel (exit $?)"
grep -E "stalled|Duration|DRAM Throughput|Warp Cycles Per Issued|Issued Warp|Registers|Max Active Clusters|Achieved Occupancy" \
  "$out/ncu_gebrd.log" | awk '!/stalled/ || $NF+0 > 0.05'
timeout 300 ncu "${pick[@]}" --section SourceCounters --page source --print-source sass --csv \
  "${app[@]}" >"$out/ncu_sass.csv" 2>/dev/null </dev/null
echo "## the instructions with the most stall samples (exit $?)"
python3 - "$out/ncu_sass.csv" <<'PY'
import csv, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = [r for r in csv.DictReader(lines[1:]) if r.get("Source")]
key = "Warp Stall Sampling (All Samples)"
total = sum(int(r[key] or 0) for r in rows) or 1
executed = sum(int(r["Instructions Executed"] or 0) for r in rows)
print(f"  {len(rows)} instructions, {executed} warp instructions executed, {total} samples")
for i, r in sorted(enumerate(rows), key=lambda x: -int(x[1][key] or 0))[:20]:
    print(f"  {i:5d} {100 * int(r[key]) / total:5.1f}%  {r['Source'].strip()[:70]}")
PY
