#!/usr/bin/env bash
# The device commands behind the band-to-tridiagonal chase's numbers (band_to_tridiag, stage
# two of issue 33; one H200, each call <= 10 min):
#   build          configure build-dev as h200-heevd.sh's build (Release, sm_90); a fresh one
#                  with MGBLAS_INSTANCES=ci (the chase uses none of the tuned level-2
#                  instances, whose full set costs minutes of device time), one left by an
#                  earlier run on the warm machine as it is; then build only
#                  mgblas-tester and test_cuda_band_to_tridiag, all cores; logs to $OUT
#   ctest REGEX    ctest -R REGEX --output-on-failure in build-dev, log to $OUT/ctest-<REGEX>.log
#   bench SIZES B TYPES LAPACK_MAX_N [EXTRA]
#                  mgblas-tester band2tri -n SIZES -b B --type TYPES, median of 3 after 1 warm-up,
#                  LAPACK ?sytrd_sb2st on the host CPU (one call) for n <= LAPACK_MAX_N;
#                  EXTRA (one word of options starting with '-', e.g. --vectors) passed on;
#                  rows appended to $OUT/band2tri.csv
# e.g. bash bench/results/h200-band2tri.sh build ctest band_to_tridiag bench 4096,8192,16384,32768 64 d 16384
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
summary() { grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test|Failure|Expected|Which is|actual|BandToTridiag.*(OK|FAILED)" "$1" | tail -40; }
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; t0=$SECONDS
      # A build-dev left on a warm machine by another run is reused as it is configured
      # (only the changed sources rebuild); a fresh one gets the ci instances.
      inst=(-DMGBLAS_INSTANCES=ci); [ -f "$B/CMakeCache.txt" ] && inst=()
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        "${inst[@]}" "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      grep -E "^MGBLAS_INSTANCES" "$B/CMakeCache.txt"
      cmake --build "$B" -j"$(nproc)" --target mgblas-tester test_cuda_band_to_tridiag > "$OUT/build.log" 2>&1; rc=$?
      echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1 ;;
    ctest)
      sel=$2; shift 2; log=$OUT/ctest-${sel//[^A-Za-z0-9_]/_}.log; t0=$SECONDS
      (cd "$B" && timeout "${TO:-300}" ctest -R "$sel" --timeout 240 --output-on-failure -V > "$log" 2>&1); echo "ctest $sel rc $? in $((SECONDS - t0)) s"
      summary "$log" ;;
    bench)
      sizes=$2 bw=$3 types=$4 lmax=$5; shift 5; extra=
      if [ $# -gt 0 ] && [[ $1 == -* ]]; then extra=$1; shift; fi
      # shellcheck disable=SC2086 # extra holds options
      timeout "${BTO:-400}" "$B/testers/mgblas-tester" band2tri -n "$sizes" -b "$bw" --type "$types" \
        --niter 3 --warmup 1 --lapack-max-n "$lmax" $extra --csv "$OUT/band2tri.csv" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
