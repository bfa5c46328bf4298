#!/usr/bin/env bash
# The device commands behind the tensor-core Q2 application (kernels/cuda/sb2st/apply_q_mma.cuh;
# results in h200-band2tri-apply-q.md, h200-svd.md and h200-heevd.md; one H200, each call
# <= 10 min):
#   build          configure build-dev (Release, sm_90, full instances), then build only
#                  mgblas-tester, test_cuda_band_to_tridiag, test_cuda_band_to_bidiag,
#                  test_gesvd_gpu and test_heevd_gpu, all cores; logs to $OUT
#   test FILTER    test_cuda_band_to_tridiag --gtest_filter=FILTER, log to $OUT/test.log
#   ctest REGEX    ctest -R REGEX --output-on-failure in build-dev, log to $OUT/ctest-<REGEX>.log
#   applyq ARGS    mgblas-tester band2tri --apply-q ARGS (rows to $OUT/apply-q.csv)
#   svd NP SIZES EXTRA / heevd NP SIZES EXTRA
#                  mpirun -np NP mgblas-tester svd|heevd -n SIZES --type d --nb 256, 1 warm-up,
#                  median of REPEAT (default 3); EXTRA one word of options (rows to $OUT/svd.csv,
#                  $OUT/heevd.csv)
# e.g. bash bench/results/h200-apply-q-mma.sh build test '*ApplyQ*' applyq -n 8192 -b 32 --type d
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
summary() { grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test" "$1" | tail -25; }
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      cmake --build "$B" -j"$(nproc)" --target mgblas-tester test_cuda_band_to_tridiag test_cuda_band_to_bidiag \
        test_gesvd_gpu test_heevd_gpu > "$OUT/build.log" 2>&1; rc=$?
      echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1 ;;
    test)
      f=$2; shift 2; t0=$SECONDS
      timeout "${TO:-240}" "$B/tests/kernels/test_cuda_band_to_tridiag" --gtest_filter="$f" > "$OUT/test.log" 2>&1; echo "test rc $? in $((SECONDS - t0)) s"
      grep -E "^\[  (FAILED|PASSED) |tests ran" "$OUT/test.log" | tail -30
      grep -m12 -A8 "Failure" "$OUT/test.log" | head -80 ;;
    ctest)
      sel=$2; shift 2; log=$OUT/ctest-${sel//[^A-Za-z0-9_]/_}.log
      (cd "$B" && timeout "${TO:-500}" ctest -R "$sel" --timeout 400 --output-on-failure > "$log" 2>&1); echo "ctest $sel rc $?"
      summary "$log" ;;
    applyq)
      shift; args=(); while [ $# -gt 0 ] && [[ $1 == -* || $1 =~ ^[0-9a-z,]+$ ]] && [[ ! $1 =~ ^(build|test|ctest|applyq|svd|heevd)$ ]]; do args+=("$1"); shift; done
      timeout "${BTO:-300}" "$B/testers/mgblas-tester" band2tri --apply-q "${args[@]}" --csv "$OUT/apply-q.csv" | grep -v "^# \(time\)" ;;
    svd|heevd)
      what=$1 np=$2 sizes=$3; shift 3; extra=
      if [ $# -gt 0 ] && [[ $1 == -* ]]; then extra=$1; shift; fi
      # shellcheck disable=SC2086 # extra holds several options
      timeout "${BTO:-540}" mpirun --oversubscribe --bind-to none -np "$np" "$B/testers/mgblas-tester" "$what" \
        -n "$sizes" --type d --nb 256 --repeat "${REPEAT:-3}" --warmup 1 $extra --csv "$OUT/$what.csv" |
        grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
