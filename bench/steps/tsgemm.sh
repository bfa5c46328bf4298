# SPDX-License-Identifier: BSD-3-Clause
# tall-and-skinny GEMM: its GPU tests, mgblas-tester tsgemm over the TSM2 grid, sweep, scaling
# Sourced by bench/device.sh (was bench/tsgemm_device.sh): the GPU tests, then
# mgblas-tester tsgemm over the TSM2 paper's grid (s, d, c, z, against cuBLAS), a sweep of
# every compiled tuning set on a few shapes (data for tsgemm_tuning.hpp), and the
# row-tiled scaling over the visible GPUs. Writes logs, CSVs and markdown tables (each
# with its command line and device header, as bench/results/ keeps them) under
# OUT_DIR/tsgemm/ and prints a short summary table last.
#
#   env TSGEMM_MODE=full|quick|scaling   (default full; scaling: the row-tiled scaling
#                                         alone, for a machine of 2 or 4 GPUs)
# About two minutes of GPU time on one H200 in `full` mode. Every part has its own
# timeout and a failing part does not stop the others; the exit status is the number
# of parts that failed.
mode=${TSGEMM_MODE:-full}
need test_cuda_tsgemm test_tsgemm_mgpu mgblas-tester || exit 1
test_bin=$build/tests/kernels/test_cuda_tsgemm
dist_test=$build/tests/dist/test_tsgemm_mgpu
failed=0
gpus=$(gpu_count)
cp "$out_root/gpu.txt" "$out/gpu.txt"

# 1. tests -------------------------------------------------------------------------------
if [ "$mode" = scaling ]; then
  stamp "scaling mode: test_cuda_tsgemm not run (one GPU's test; the full mode runs it)"
elif [ -x "$test_bin" ]; then
  stamp "test_cuda_tsgemm"
  timeout 420 "$test_bin" --gtest_brief=1 >"$out/test_cuda_tsgemm.log" 2>&1
  rc=$?
  echo "test_cuda_tsgemm exit $rc" | tee -a "$out/test_cuda_tsgemm.log"
  grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests ran|Failure" "$out/test_cuda_tsgemm.log" | head -30
  [ "$rc" -eq 0 ] || failed=$((failed + 1))
else
  stamp "missing $test_bin"
  failed=$((failed + 1))
fi
if [ -x "$dist_test" ]; then  # host devices only: quick, and shows MPI-less runs work there
  timeout 120 "$dist_test" --gtest_brief=1 >"$out/test_tsgemm_mgpu.log" 2>&1
  echo "test_tsgemm_mgpu exit $?" | tee -a "$out/test_tsgemm_mgpu.log"
fi

# 2. tester --------------------------------------------------------------------------------
tester() {  # tester <name> <seconds> <args...>
  local name=$1 secs=$2
  shift 2
  stamp "mgblas-tester tsgemm $*"
  timeout "$secs" "$tester" tsgemm "$@" --csv "$out/$name.csv" --md "$out/$name.md" >"$out/$name.log" 2>&1
  local rc=$?
  echo "# exit $rc" >>"$out/$name.log"
  [ "$rc" -eq 0 ] || { failed=$((failed + 1)); stamp "  $name: exit $rc"; tail -3 "$out/$name.log"; }
}
if [ -x "$tester" ]; then
  if [ "$mode" = scaling ]; then
    # Only the row-tiled scaling over 1, 2, 4 GPUs (TSM2L, m = 2^26; k = n = 16 and 8).
    list=1,2
    [ "$gpus" -ge 4 ] && list=1,2,4
    tester scaling 300 --ngpu "$list" --type d,s,z --dim 67108864x16x16,67108864x8x8 \
      --niter 10 --warmup 2
  elif [ "$mode" = quick ]; then
    tester tsm2r 200 --grid r --type s,d --niter 5 --warmup 1
    tester tsm2l 200 --grid l --type s,d --niter 5 --warmup 1
  else
    tester tsm2r 300 --grid r --type s,d,c,z
    tester tsm2l 300 --grid l --type s,d,c,z
    tester ahb 200 --grid t --type s,d,c,z
    # Every compiled tuning set (with its registers) on the shapes of the targets.
    tester sweep_l 200 --dim 4194304x16x16,16777216x8x8,16777216x32x32 --type s,d,c,z --sweep \
      --niter 10 --warmup 2
    tester sweep_r 200 --dim 20480x4x20480,20480x16x20480,20480x32x20480 --type s,d,c,z --sweep \
      --niter 10 --warmup 2
    if [ "$gpus" -ge 2 ]; then
      list=1,2
      [ "$gpus" -ge 4 ] && list=1,2,4
      tester scaling 300 --ngpu "$list" --type d,s --niter 10 --warmup 2
    else
      stamp "one GPU visible: row-tiled scaling skipped (run on nvidia-h200-x4 for 1,2,4)"
    fi
  fi
else
  stamp "missing $tester"
  failed=$((failed + 1))
fi

# 3. one CSV and one markdown file for bench/results/ --------------------------------------
first=1
for f in "$out"/tsm2r.csv "$out"/tsm2l.csv "$out"/ahb.csv "$out"/sweep_l.csv "$out"/sweep_r.csv \
  "$out"/scaling.csv; do
  [ -s "$f" ] || continue
  if [ $first -eq 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
done >"$out/tsgemm_all.csv"
{
  echo "# tall-and-skinny GEMM on $(head -2 "$out/gpu.txt" | tail -1 | cut -d, -f2 | sed 's/^ //')"
  echo
  echo "Produced by \`TSGEMM_MODE=$mode bench/device.sh tsgemm\`; each table carries its command line."
  for name in tsm2r tsm2l ahb sweep_l sweep_r scaling; do
    [ -s "$out/$name.md" ] || continue
    echo
    echo "## $name"
    echo
    cat "$out/$name.md"
  done
} >"$out/tsgemm.md"

# 4. short table last ----------------------------------------------------------------------
echo
stamp "summary (full tables: $out/tsgemm.md, $out/tsgemm_all.csv)"
for name in tsm2r tsm2l ahb sweep_l sweep_r scaling; do
  [ -s "$out/$name.log" ] || continue
  echo "== $name"
  sed -n '/^# summary/,$p' "$out/$name.log" | grep -v '^# summary'
done
echo "steps failed: $failed"
exit "$failed"
