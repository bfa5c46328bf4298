#!/usr/bin/env bash
# The device commands behind h200-svd-overlap.md (the bidiagonal chase's head hand-off,
# kernels/cuda/gb2bd; Q2 and P2 at the same time, dist/lapack/gebrd_2stage_mgpu.cpp; half
# a spectrum by the divide and conquer, kernels/cuda/stebz); one H200, each call <= 10 min.
# Steps, run in order:
#   build            configure build-dev (Release, sm_90; a fresh one with MGBLAS_INSTANCES=ci)
#                    and build the tester and the GPU tests these changes touch
#   ctest REGEX      ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL BINARY FILTER
#                    compute-sanitizer --tool TOOL on build-dev/tests/kernels/BINARY with
#                    --gtest_filter=FILTER (limit $TO, default 300 s); its summary printed
#   svd SIZES        mgblas-tester svd, two stages, all vectors (or $VECTORS), against
#                    Xgesvdp (--no-ref when NOREF=1), --profile; $OUT/svd-${VECTORS:-all}.csv
#   heevd SIZES      mgblas-tester heevd, two stages, all vectors (or $VECTORS), against
#                    Xsyevd (--no-ref when NOREF=1); $OUT/heevd-${VECTORS:-all}.csv
#   hetrd SIZES TYPE mgblas-tester hetrd --eig, two stages (band 32), against cusolverDn?sytrd
#                    / Xsyevd (--no-ref when NOREF=1), profiled phases on '#' lines, median
#                    of REPEAT (1) after 1 warm-up; nvidia-smi's memory.used every 0.5 s
#                    meanwhile, its largest value printed; $OUT/hetrd.csv
#   gesvd16384       mgblas-tester svd at n = 8192, 16384, all vectors, against Xgesvd and Xgesvdp,
#                    no warm-up but the 8192 row (Xgesvd takes about a minute at 16384);
#                    $OUT/svd-gesvd.csv
#   chase SIZES      mgblas-tester band2tri, the tridiagonal chase alone (d, b 32), median
#                    of 3 after 1 warm-up (the hand-off helpers are shared); $OUT/band2tri.csv
# e.g. bash bench/results/h200-svd-overlap.sh build ctest 'band_to_bidiag' svd 8192,16384
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_band_to_bidiag test_band_to_bidiag test_gesvd_gpu \
                   test_cuda_stebz test_heevd_gpu test_hetrd_2stage_gpu test_cuda_band_to_tridiag ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      device_sanitize "$2" "$3" "$4"; shift 4 ;;
    svd)
      device_svd "$2"; shift 2 ;;
    heevd)
      device_heevd "$2"; shift 2 ;;
    hetrd)
      sizes=$2 type=$3; shift 3
      nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 > "$OUT/mem-$type-$sizes.log" &
      smi=$!
      timeout "${TO:-400}" "$T" hetrd -n "$sizes" --type "$type" --nb 256 --band 32 --eig --no-one-stage \
        --profile --niter "${REPEAT:-1}" --warmup 1 --no-check "$(ref_flag)" --csv "$OUT/hetrd.csv" |
        grep -v "^# \(command\|time\)"
      kill $smi; echo "# largest memory.used: $(sort -n "$OUT/mem-$type-$sizes.log" | tail -1) MiB" ;;
    gesvd16384)
      shift  # the SVD with all vectors at 16384 against Xgesvd too (about 56 s a call)
      timeout 500 "$T" svd -n 8192,16384 --type d --nb 256 --stages two --vectors all --gesvd-max-n 16384 \
        --ref --repeat 1 --warmup 0 --csv "$OUT/svd-gesvd.csv" | grep -v "^# \(command\|time\)" ;;
    chase)
      sizes=$2; shift 2
      timeout 300 "$T" band2tri -n "$sizes" -b 32 --type d --niter 3 --warmup 1 --lapack-max-n 0 \
        --csv "$OUT/band2tri.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
