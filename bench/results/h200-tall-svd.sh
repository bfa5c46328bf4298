#!/usr/bin/env bash
# The device commands behind h200-tall-svd.md (the QR first of a tall SVD: geqrf_mgpu's
# panels, kernels/cuda/sy2sb's blocked geqrf); one H200, each call <= 10 min. Steps, in order:
#   build              configure build-dev (Release, sm_90; a fresh one with
#                      MGBLAS_INSTANCES=ci) and build the tester and the GPU tests touched
#   ctest REGEX        ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL BINARY FILTER
#                      compute-sanitizer on a kernel test (device_steps.sh)
#   svd SIZES [OPTS]   mgblas-tester svd, d, two stages, all vectors (or $VECTORS), against
#                      Xgesvdp (--no-ref when NOREF=1), OPTS appended (device_steps.sh)
#   hetrd SIZES        mgblas-tester hetrd --eig, d, two stages (band 32), no cuSOLVER, stage
#                      one's profiled phases on '#' lines, median of $REPEAT (1) after 1 warm-up
#   kernels N COUNT    ncu's gpu__time_duration of the first COUNT kernels of one svd call of
#                      (16 N) x N, no vectors, no warm-up (the fill, then the QR first),
#                      summed per kernel by bench/ncu_kernel_times.py; $OUT/ncu-N.csv
# e.g. VECTORS=none bash bench/results/h200-tall-svd.sh build svd 4096 "--aspect 16 --qr-panel 32"
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_gesvd_gpu test_geqrf_gpu test_cuda_sy2sb_blocks test_cuda_stebz \
                   test_hetrd_2stage_gpu test_device_threads test_cuda_bidiag_svd ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      device_sanitize "$2" "$3" "$4"; shift 4 ;;
    svd)
      sizes=$2 extra=$(extra_of "${@:3}"); shift 2; [ -n "$extra" ] && shift
      device_svd "$sizes" "$extra" ;;
    hetrd)
      timeout "${TO:-300}" "$T" hetrd -n "$2" --type d --nb 256 --band 32 --eig --no-one-stage --profile \
        --niter "${REPEAT:-1}" --warmup 1 --no-check --no-ref | grep -v "^# \(command\|time\|binding\|NCCL\|  \)"
      shift 2 ;;
    kernels)
      n=$2 count=$3; shift 3
      timeout 400 ncu --clock-control none --metrics gpu__time_duration.sum --csv -c "$count" \
        "$T" svd -n "$n" --aspect 16 --type d --nb 256 --stages two --vectors none --no-ref \
        --repeat 1 --warmup 0 --check-max-n 0 > "$OUT/ncu-$n.csv" 2> "$OUT/ncu-$n.err"
      echo "ncu rc $?"; python3 "$R/bench/ncu_kernel_times.py" "$OUT/ncu-$n.csv" | head -24 ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
