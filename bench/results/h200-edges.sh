#!/usr/bin/env bash
# The device commands behind h200-edges.md (issue 32 on one H200; each call <= 10 min):
#   build          configure + build everything (Release, sm_90) in build-dev
#   ctest TAG SEL  ctest -R SEL --output-on-failure, log to $OUT/ctest-TAG.log
#   ctestL TAG SEL ctest -L gpu -E SEL (everything of the GPU label but SEL)
#   digest         gemv/symv_mgpu and hetrd_mgpu with MGBLAS_VERIFY_INPUTS=0 and 1 (rows to
#                  $OUT/digest-0.csv, digest-1.csv)
#   gebrd          mgblas-tester gebrd d 4096-16384 against cuSOLVER (the range scaling's cost)
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
mpi=(mpirun --oversubscribe --bind-to none -np 1)
summary() { grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test" "$1" | tail -25; }
while [ $# -gt 0 ]; do
  case $1 in
    build)
      t0=$SECONDS
      cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 &&
        cmake --build "$B" -j16 > "$OUT/build.log" 2>&1; rc=$?; echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1; shift ;;
    ctest)
      tag=$2 sel=$3; shift 3
      (cd "$B" && timeout ${TO:-400} ctest -R "$sel" --timeout 400 --output-on-failure > "$OUT/ctest-$tag.log" 2>&1); echo "ctest $tag rc $?"
      summary "$OUT/ctest-$tag.log" ;;
    ctestL)
      tag=$2 sel=$3; shift 3
      (cd "$B" && timeout ${TO:-500} ctest -L gpu -E "$sel" --timeout 400 --output-on-failure > "$OUT/ctest-$tag.log" 2>&1); echo "ctest $tag rc $?"
      summary "$OUT/ctest-$tag.log" ;;
    digest)
      shift; t=$B/testers/mgblas-tester
      for v in 0 1; do
        MGBLAS_VERIFY_INPUTS=$v "${mpi[@]}" -x MGBLAS_VERIFY_INPUTS "$t" dist --op gemv,symv --trans N --uplo L \
          -n 4096,32768 --type d --vectors device,host --no-ref --niter 20 --csv "$OUT/digest-$v.csv" | grep -v "^# \(command\|time\|mgblas\)"
      done
      for v in 0 1; do
        MGBLAS_VERIFY_INPUTS=$v "${mpi[@]}" -x MGBLAS_VERIFY_INPUTS "$t" hetrd -n 8192 --type d --niter 3 --no-check --no-ref | grep -E "^ +d"
      done ;;
    gebrd)
      shift; t=$B/testers/mgblas-tester
      "${mpi[@]}" "$t" gebrd -n 4096,8192,16384 --type d --niter 2 --csv "$OUT/gebrd.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
