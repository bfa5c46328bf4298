#!/usr/bin/env bash
# The device commands behind h200-unmtr.md (one H200; each call <= 10 min):
#   build          configure + build everything (Release, sm_90) in build-dev
#   ctest TAG ...  ctest with the given selection, log to $OUT/ctest-TAG.log
#   bench          mgblas-tester unmtr against cuSOLVER, both triangles, rows to $OUT/unmtr.csv
#   digest         gemv/symv_mgpu and hetrd_mgpu with MGBLAS_VERIFY_INPUTS=0 and 1
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
mpi=(mpirun --oversubscribe --bind-to none -np 1)
while [ $# -gt 0 ]; do
  case $1 in
    build)
      t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 &&
        cmake --build "$B" -j16 > "$OUT/build.log" 2>&1; rc=$?; echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1; shift ;;
    ctest)  # ctest TAG REGEX
      tag=$2 sel=$3; shift 3
      (cd "$B" && timeout ${TO:-400} ctest -R "$sel" --timeout 400 --output-on-failure > "$OUT/ctest-$tag.log" 2>&1); echo "ctest $tag rc $?"
      grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Passed|Skipped" "$OUT/ctest-$tag.log" | tail -25 ;;
    bench)
      shift; t=$B/testers/mgblas-tester; csv=$OUT/unmtr.csv
      "${mpi[@]}" "$t" unmtr -n 4096,8192,16384 --type d --uplo L,U --niter 3 --check-max-n 8192 --csv "$csv"
      "${mpi[@]}" "$t" unmtr -n 8192 --type s,z --uplo L,U --niter 3 --csv "$csv"
      "${mpi[@]}" "$t" unmtr -n 16384 -k 1638 --type d --uplo L,U --niter 3 --no-check --csv "$csv" ;;
    digest)  # issue 32 item 5: the replicated-input digest's cost (MGBLAS_VERIFY_INPUTS 0 / 1)
      shift; t=$B/testers/mgblas-tester
      for v in 0 1; do
        MGBLAS_VERIFY_INPUTS=$v "${mpi[@]}" -x MGBLAS_VERIFY_INPUTS "$t" dist --op gemv,symv --trans N --uplo L \
          -n 4096,32768 --type d --vectors device,host --no-ref --niter 20 --csv "$OUT/digest-$v.csv" | grep -v "^# \(command\|time\|mgblas\)"
      done
      for v in 0 1; do
        MGBLAS_VERIFY_INPUTS=$v "${mpi[@]}" -x MGBLAS_VERIFY_INPUTS "$t" hetrd -n 8192 --type d --niter 3 --no-check --no-ref | grep -E "^ +d"
      done ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
