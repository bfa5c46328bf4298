#!/usr/bin/env bash
# The device commands behind h200x4-twostage.md (4 H200s of one host, kind nvidia-h200-x4;
# one call <= 10 min): build mgblas-tester only, then
#   1. the ScaLAPACK 2-D redistribution of n = 32768 on a 2 x 2 grid, 4 ranks x 1 GPU
#      (issue 36: import_2d / export_2d against the route through rank 0);
#   2. hetrd: the one-stage hetrd_mgpu and the two-stage reduction (band 32) at n = 32768
#      on 4 ranks x 1 GPU and 1 rank x 4 GPUs (issue 33 item 4), no cuSOLVER;
#   3. heevd_mgpu with all vectors at n = 32768, 4 ranks x 1 GPU, one- and two-stage;
#   4. hetrd at n = 65536 on 4 ranks x 1 GPU, one warm-up and one timed call.
# CSVs to $OUT. Usage: bash bench/results/h200x4-twostage.sh
# With the argument `threads` instead: build mgblas-tester and test_hetrd_2stage_gpu, run
# that test on 1 rank x 4 GPUs, then hetrd n = 32768 on 1 rank x 4 GPUs and 4 ranks x 1
# (the per-device host threads of stage one, detail::for_each_local_device).
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
t0=$SECONDS
cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
targets=(mgblas-tester); [ "$1" = threads ] && targets+=(test_hetrd_2stage_gpu)
cmake --build "$B" -j"$(nproc)" --target "${targets[@]}" > "$OUT/build.log" 2>&1 || { grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log"; exit 1; }
echo "build in $((SECONDS - t0)) s"
T=$B/testers/mgblas-tester
run() { local to=$1; shift; echo "## $*"; timeout "$to" mpirun --oversubscribe --bind-to none "$@" | grep -v "^# \(command\|time\|binding\|  rank\)"; }
if [ "$1" = threads ]; then
  (cd "$B" && timeout 300 ctest -R 'test_hetrd_2stage_gpu_np1' --timeout 280 --output-on-failure > "$OUT/ctest.log" 2>&1); echo "ctest rc $?"
  grep -E "tests passed|tests failed|Failed|Passed" "$OUT/ctest.log" | tail -5
  run 120 -np 1 "$T" hetrd -n 32768 --type d --nb 256 --band 32 --niter 3 --warmup 1 --no-check --no-ref --csv "$OUT/hetrd.csv"
  run 120 -np 4 "$T" hetrd -n 32768 --type d --nb 256 --band 32 --niter 3 --warmup 1 --no-check --no-ref --csv "$OUT/hetrd.csv"
  exit 0
fi
run 120 -np 4 "$T" redistribute -n 32768 --type d --grid 2x2 --mb 64 --nb 256 --niter 3 --warmup 1 --csv "$OUT/redistribute.csv"
run 120 -np 4 "$T" hetrd -n 32768 --type d --nb 256 --band 32 --niter 3 --warmup 1 --no-check --no-ref --csv "$OUT/hetrd.csv"
run 120 -np 1 "$T" hetrd -n 32768 --type d --nb 256 --band 32 --niter 3 --warmup 1 --no-check --no-ref --csv "$OUT/hetrd.csv"
run 150 -np 4 "$T" heevd -n 32768 --type d --nb 256 --vectors all --stages one,two --repeat 1 --warmup 1 --no-check --no-ref --csv "$OUT/heevd.csv"
run 150 -np 4 "$T" hetrd -n 65536 --type d --nb 256 --band 32 --niter 1 --warmup 1 --no-check --no-ref --csv "$OUT/hetrd.csv"
