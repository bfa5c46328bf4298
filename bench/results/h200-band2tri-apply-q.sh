#!/usr/bin/env bash
# The device commands behind h200-band2tri-apply-q.md (issue 34 item 3: band_to_tridiag_apply_q
# on one H200; each call <= 10 min):
#   build          configure build-applyq (Release, sm_90, full instances), then build only
#                  mgblas-tester and test_cuda_band_to_tridiag, all cores; logs to $OUT
#   test           test_cuda_band_to_tridiag (all of it), log to $OUT/test.log
#   bench ARGS     mgblas-tester band2tri --apply-q ARGS (rows to $OUT/apply-q.csv)
# e.g. bash bench/results/h200-band2tri-apply-q.sh build test bench -n 8192 -b 32 --type d
export OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-applyq; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      cmake --build "$B" -j"$(nproc)" --target mgblas-tester test_cuda_band_to_tridiag -- -k 0 > "$OUT/build.log" 2>&1; rc=$?
      echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1 ;;
    test)
      shift; t0=$SECONDS
      timeout "${TO:-240}" "$B/tests/kernels/test_cuda_band_to_tridiag" > "$OUT/test.log" 2>&1; echo "test rc $? in $((SECONDS - t0)) s"
      grep -E "^\[  (FAILED|PASSED) |^\[       OK|tests ran" "$OUT/test.log" | tail -40
      grep -m20 -A6 "Failure" "$OUT/test.log" | head -60 ;;
    bench)
      shift; args=(); while [ $# -gt 0 ] && [[ $1 != build && $1 != test && $1 != bench ]]; do args+=("$1"); shift; done
      timeout "${TO:-300}" "$B/testers/mgblas-tester" band2tri --apply-q "${args[@]}" --csv "$OUT/apply-q.csv" | grep -v "^# \(time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
