#!/usr/bin/env bash
# The device commands behind h200-twostage.md (issue 33: the two-stage tridiagonal
# reduction on one H200; each call <= 10 min):
#   build          configure build-dev as h200-edges.sh's build (Release, sm_90), then build
#                  only mgblas-tester and the two-stage tests (test_hetrd_2stage_*,
#                  test_*band_to_tridiag*), all cores; logs to $OUT
#   ctest REGEX    ctest -R REGEX --output-on-failure in build-dev, log to $OUT/ctest-<REGEX>.log
#   hetrd NP SIZES TYPES BAND [EXTRA]
#                  mpirun -np NP mgblas-tester hetrd -n SIZES --type TYPES --band BAND: the
#                  one-stage hetrd_mgpu, stage one (dense to band) and cuSOLVER's sytrd on the
#                  same matrix, median of 3 after 1 warm-up; rows to $OUT/hetrd.csv
#   band2tri ARGS  mgblas-tester band2tri ARGS (the bulge chase against LAPACK on the host)
# e.g. bash bench/results/h200-twostage.sh build ctest "2stage|band_to" hetrd 1 4096,8192,16384 d 64
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
summary() { grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test" "$1" | tail -25; }
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      mapfile -t tests < <(ninja -C "$B" -t targets all | sed -n 's/^\(test_hetrd_2stage[A-Za-z0-9_]*\|test[a-z_]*band_to_tridiag\): .*/\1/p' | sort -u)
      echo "targets: mgblas-tester ${tests[*]}"
      cmake --build "$B" -j"$(nproc)" --target mgblas-tester "${tests[@]}" -- -k 0 > "$OUT/build.log" 2>&1; rc=$?
      echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40 ;;
    ctest)
      sel=$2; shift 2; log=$OUT/ctest-${sel//[^A-Za-z0-9_]/_}.log
      (cd "$B" && timeout "${TO:-500}" ctest -R "$sel" --timeout 400 --output-on-failure > "$log" 2>&1); echo "ctest $sel rc $?"
      summary "$log" ;;
    hetrd)
      np=$2 sizes=$3 types=$4 band=$5; shift 5; extra=
      if [ $# -gt 0 ] && [[ $1 == -* ]]; then extra=$1; shift; fi
      # shellcheck disable=SC2086 # extra holds several options
      timeout 540 mpirun --oversubscribe --bind-to none -np "$np" "$B/testers/mgblas-tester" hetrd \
        -n "$sizes" --type "$types" --nb 256 --band "$band" --niter 3 --warmup 1 --no-check $extra \
        --csv "$OUT/hetrd.csv" | grep -v "^# \(command\|time\)" ;;
    band2tri)
      shift; args=(); while [ $# -gt 0 ] && [[ $1 != build && $1 != ctest && $1 != hetrd ]]; do args+=("$1"); shift; done
      timeout 540 "$B/testers/mgblas-tester" band2tri "${args[@]}" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
