# SPDX-License-Identifier: BSD-3-Clause
# the GPU test binaries under compute-sanitizer memcheck and racecheck (SAN_*)
# Sourced by bench/device.sh (was the sanitize part of bench/reliability_device.sh, and
# run_device.sh's SANITIZE=1: SAN_BINS=test_cuda_gemv_engine for that one).
#   SAN_TOOLS (default "memcheck racecheck"), SAN_FILTER: gtest filter, SAN_TIMEOUT:
#   seconds per binary and tool (150), SAN_BINS: test binary names (default all GPU ones)
[ -f "$build/build.ninja" ] || need all || exit 1
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
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

echo "===== summary ====="
cat "$summary"
