#!/usr/bin/env bash
# The device commands behind h200-panel-qr.md (stage one's panel QR in one cooperative
# kernel against cuSOLVER's geqrf) and h200-panel-wy.md (its WY form in the same kernel);
# one H200, each call <= 10 min. Steps, run in order:
#   build            configure build-dev (Release, sm_90; a fresh one with MGBLAS_INSTANCES=ci:
#                    the two-stage paths use none of the tuned level-2 instances) and build
#                    the tester and the GPU tests that factor panels, all cores; logs to $OUT
#   ctest REGEX      ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL    compute-sanitizer --tool TOOL on the panel QR's kernel test
#   hetrd SIZES [cusolver|slabN]
#                    mgblas-tester hetrd --eig, two stages (band 32) and cusolverDnDsytrd /
#                    Xsyevd on the same matrix, median of REPEAT (3) after 1 warm-up, profiled
#                    phases on '#' lines (ONE_STAGE=1: hetrd_mgpu's one stage too);
#                    "cusolver" sets MGBLAS_PANEL_QR_CUSOLVER (the panels on cuSOLVER's
#                    geqrf, as before), "slabN" MGBLAS_PANEL_QR_SLAB=N;
#                    $OUT/hetrd-{kernel,cusolver,slabN}.csv
#   svd SIZES [cusolver|slabN]
#                    mgblas-tester svd, two stages, no vectors, against Xgesvdp; $OUT/svd-*.csv
#   kernels N COUNT [cusolver|slabN]
#                    ncu (gpu__time_duration only, clocks untouched) on COUNT kernels of one
#                    hetrd two-stage call at n = N (no cuSOLVER reference), after the first
#                    $SKIP (default 0): each kernel's count, total and mean, largest totals
#                    first (bench/ncu_kernel_times.py)
#   heevd SIZES [cusolver|slabN]
#                    mgblas-tester heevd, all vectors (or $VECTORS: none, 0.1), two stages (or
#                    $STAGES, e.g. one,two,auto), against Xsyevd; $OUT/heevd-*-{all,none}.csv
# e.g. bash bench/results/h200-panel-qr.sh build ctest '^test_cuda_sy2sb_blocks$' hetrd 8192 hetrd 8192 cusolver
source "$(dirname "$0")/device_steps.sh"
# qr_of ARGS...: the step's optional word, "cusolver" or "slabN" (N rows), else "kernel"
qr_of() { if [ $# -gt 0 ] && [[ $1 == cusolver || $1 == slab* ]]; then echo "$1"; else echo kernel; fi; }
# with_qr WORD CMD...: CMD with the panel QR that WORD names
with_qr() {
  local w=$1; shift
  case $w in
    cusolver) MGBLAS_PANEL_QR_CUSOLVER=1 "$@" ;;
    slab*) MGBLAS_PANEL_QR_SLAB=${w#slab} "$@" ;;
    *) "$@" ;;
  esac
}
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_sy2sb_blocks test_hetrd_2stage_gpu test_geqrf_gpu \
                   test_gesvd_gpu test_heevd_gpu ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      tool=$2; shift 2
      timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 1 \
        "$B/tests/kernels/test_cuda_sy2sb_blocks" --gtest_filter='*Geqrf*' > "$OUT/sanitize-$tool.log" 2>&1
      echo "sanitize $tool rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$OUT/sanitize-$tool.log" | tail -5 ;;
    hetrd)
      sizes=$2; shift 2; qr=$(qr_of "$@"); [ "$qr" != kernel ] && shift
      echo "# panel QR: $qr"
      with_qr "$qr" timeout 400 "$T" hetrd -n "$sizes" --type d --nb 256 --band 32 --eig \
        $([ "${ONE_STAGE:-0}" = 1 ] || echo --no-one-stage) --profile --niter "${REPEAT:-3}" --warmup 1 --no-check \
        --csv "$OUT/hetrd-$qr.csv" | grep -v "^# \(command\|time\)" ;;
    svd)
      sizes=$2; shift 2; qr=$(qr_of "$@"); [ "$qr" != kernel ] && shift
      echo "# panel QR: $qr"
      with_qr "$qr" timeout 400 "$T" svd -n "$sizes" --type d --nb 256 --stages two --vectors none \
        --gesvd-max-n 0 --repeat "${REPEAT:-3}" --warmup 1 --csv "$OUT/svd-$qr.csv" |
        grep -v "^# \(command\|time\)" ;;
    kernels)
      n=$2 count=$3; shift 3; qr=$(qr_of "$@"); [ "$qr" != kernel ] && shift
      echo "# panel QR: $qr; $count kernels of hetrd two-stage n = $n after the first ${SKIP:-0}"
      with_qr "$qr" timeout 400 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
        --launch-skip "${SKIP:-0}" -c "$count" "$T" hetrd -n "$n" --type d --nb 256 --band 32 --no-one-stage --no-ref \
        --niter 1 --warmup 0 --no-check > "$OUT/ncu-$qr-$n.csv" 2> "$OUT/ncu-$qr-$n.err"
      python3 "$R/bench/ncu_kernel_times.py" "$OUT/ncu-$qr-$n.csv" | head -20 ;;
    heevd)
      sizes=$2; shift 2; qr=$(qr_of "$@"); [ "$qr" != kernel ] && shift
      echo "# panel QR: $qr"
      with_qr "$qr" timeout 400 "$T" heevd -n "$sizes" --type d --nb 256 --vectors "${VECTORS:-all}" \
        --stages "${STAGES:-two}" \
        --repeat 1 --warmup 1 --csv "$OUT/heevd-$qr-${VECTORS:-all}.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
