# SPDX-License-Identifier: BSD-3-Clause
# ncu on one launch of a reduction's per-column kernel (REDUCTION=gebrd|hetrd)
# Sourced by bench/device.sh (was bench/profile_device.sh).
# Where a reduction's per-column kernel spends its time, on the GPU machine, one call:
# builds the tester, then Nsight Compute on one launch of the kernel: speed of light,
# stall reasons, occupancy; then the same launch's per-SASS-instruction stall samples,
# printed as the 20 instructions that hold the most samples. The kernel (env REDUCTION):
#   gebrd  (default) the fused row step (kernels/cuda/lapack/labrd_fused.cu), d, n = GEBRD_N,
#          the launch of column GEBRD_COL, one pass on every column
#   hetrd  the tridiagonal column step (kernels/cuda/lapack/latrd.cu, step_kernel), d,
#          n = HETRD_N, launch HETRD_COL; first the durations (real clocks) of 2 column
#          steps and their SYMVs after 20 columns at each n of HETRD_SIZES (default
#          "4096 2048 1024")
# (The machine has no Nsight Systems: ncu is the only profiler there.)
#
#   REDUCTION=hetrd bench/device.sh profile     (logs under OUT_DIR/profile/)
reduction=${REDUCTION:-gebrd}
need mgblas-tester || exit 1
if [ "$reduction" = hetrd ]; then
  app=("$tester" hetrd -n "${HETRD_N:-4096}" --type d --no-ref --niter 1 --warmup 0 --no-check)
  pick=(--clock-control none --launch-skip "${HETRD_COL:-60}" --launch-count 1 -k regex:step_kernel)
  for n in ${HETRD_SIZES:-4096 2048 1024}; do
    echo "## n = $n: kernel durations (us, real clocks), 2 columns after 20"
    timeout 120 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
      -k regex:"step_kernel|symv_kernel" --launch-skip 40 --launch-count 4 \
      "$tester" hetrd -n "$n" --type d --niter 1 --warmup 0 --no-check --no-ref </dev/null 2>&1 |
      grep -oE "(step_kernel|symv_kernel)<[a-z]+|gpu__time_duration.sum +[a-z]+ +[0-9.,]+" |
      paste - - | awk '{print "  " $1 ">", $NF}'
  done
else
  app=("$tester" gebrd -n "${GEBRD_N:-16384}" --type d --pass one --no-ref --niter 1 --warmup 0
       --check-max-n 0)
  pick=(--launch-skip "${GEBRD_COL:-300}" --launch-count 1 -k regex:fused_kernel)
fi
timeout 300 ncu "${pick[@]}" --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  "${app[@]}" >"$out/ncu_$reduction.log" 2>&1 </dev/null
echo "## ncu ${pick[-1]} (exit $?)"
grep -E "stalled|Duration|DRAM Throughput|Warp Cycles Per Issued|Issued Warp|Registers|Max Active Clusters|Achieved Occupancy" \
  "$out/ncu_$reduction.log" | awk '!/stalled/ || $NF+0 > 0.05'
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
