#!/usr/bin/env bash
# The device commands behind h200-svd.md (gesvd_mgpu against cusolverDnXgesvd and
# Xgesvdp; one H200, each call <= 10 min):
#   build          configure build-dev as h200-heevd.sh's build (Release, sm_90), then build
#                  only mgblas-tester and the SVD tests (test_gesvd_*, test_geqrf_*, test_unmbr_*,
#                  test_cuda_bidiag_svd, test_cuda_band_to_bidiag), all cores; logs to $OUT
#   ctest REGEX    ctest -R REGEX --output-on-failure in build-dev, log to $OUT/ctest-<REGEX>.log
#   bench NP SIZES TYPES [EXTRA]
#                  mpirun -np NP mgblas-tester svd -n SIZES --type TYPES, nb 256, median of
#                  --repeat (default 3) after 1 warm-up, against cuSOLVER on rank 0's GPU;
#                  EXTRA (one word of options, starting with '-') is passed on, e.g.
#                  "--vectors none,all,0.1 --aspect 1,8"; rows appended to $OUT/svd.csv
# e.g. bash bench/results/h200-svd.sh build ctest 'gesvd|unmbr|bidiag' bench 1 4096,8192 d "--vectors none,all"
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
summary() { grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test" "$1" | tail -25; }
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      mapfile -t tests < <(ninja -C "$B" -t targets all | sed -n 's/^\(test_gesvd[A-Za-z0-9_]*\|test_geqrf[A-Za-z0-9_]*\|test_unmbr[A-Za-z0-9_]*\|test_cuda_bidiag_svd\|test_cuda_band_to_bidiag\|test_heevd_gpu\|test_cuda_stedc\): .*/\1/p' | sort -u)
      echo "targets: mgblas-tester ${tests[*]}"
      cmake --build "$B" -j"$(nproc)" --target mgblas-tester "${tests[@]}" > "$OUT/build.log" 2>&1; rc=$?
      echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1 ;;
    ctest)
      sel=$2; shift 2; log=$OUT/ctest-${sel//[^A-Za-z0-9_]/_}.log
      (cd "$B" && timeout "${TO:-500}" ctest -R "$sel" --timeout 400 --output-on-failure > "$log" 2>&1); echo "ctest $sel rc $?"
      summary "$log" ;;
    bench)
      np=$2 sizes=$3 types=$4; shift 4; extra=
      if [ $# -gt 0 ] && [[ $1 == -* ]]; then extra=$1; shift; fi
      # shellcheck disable=SC2086 # extra holds several options
      timeout "${BTO:-540}" mpirun --oversubscribe --bind-to none -np "$np" "$B/testers/mgblas-tester" svd \
        -n "$sizes" --type "$types" --nb 256 --repeat "${REPEAT:-3}" --warmup 1 $extra --csv "$OUT/svd.csv" |
        grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
