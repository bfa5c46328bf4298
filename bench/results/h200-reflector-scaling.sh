#!/usr/bin/env bash
# Device session A: the robust-larfg branch (after) against this tree (before).
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$PWD; A=$R/.devsrc-larfg; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
step=${1:-all}
cfg(){ cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$2.cfg.log" 2>&1; }
if [[ $step == build || $step == all ]]; then
  t0=$SECONDS
  (cfg "$A" "$R/build-larfg-after" && cmake --build "$R/build-larfg-after" -j8 --target mgblas-tester test_hetrd_gpu test_gebrd_gpu > "$R/build-larfg-after.log" 2>&1; echo "after build rc $?") &
  (cfg "$R" "$R/build-larfg-before" && cmake --build "$R/build-larfg-before" -j8 --target mgblas-tester > "$R/build-larfg-before.log" 2>&1; echo "before build rc $?") &
  wait; echo "build $((SECONDS - t0)) s"; grep -h -B2 -A10 " error" "$R"/build-larfg-*.log | head -30
fi
if [[ $step == tests || $step == all ]]; then
  b=$R/build-larfg-after/tests/dist
  $b/test_hetrd_gpu --gtest_filter='*ExtremeScales*:*StepGridShapes*' --gtest_brief=1 2>&1 | tail -15 | tee $OUT/hetrd_gpu_scales.log
  $b/test_gebrd_gpu --gtest_filter='*ExtremeScales*' --gtest_brief=1 2>&1 | tail -15 | tee $OUT/gebrd_gpu_scales.log
fi
if [[ $step == time || $step == all ]]; then
  for tag in b1 a1 a2 b2; do
    case $tag in b*) t=$R/build-larfg-before/testers/mgblas-tester;; a*) t=$R/build-larfg-after/testers/mgblas-tester;; esac
    $t hetrd -n 8192,16384 --type d --niter 3 --warmup 1 --no-check --no-ref > $OUT/hetrd-$tag.txt 2>&1
    $t gebrd -n 8192 --type d --niter 3 --warmup 1 --no-check --no-ref > $OUT/gebrd-$tag.txt 2>&1
  done
  for f in hetrd gebrd; do for tag in b1 a1 a2 b2; do echo "== $f $tag"; grep -v "^#" $OUT/$f-$tag.txt | tail -4; done; done
fi
if [[ $step == sanitize ]]; then
  MGBLAS_SAN_FILTER="${SAN_FILTER:-*d*}" timeout 560 bash "$A/.ci/sanitize_gpu.sh" "$R/build-larfg-after" "$OUT/san" 2>&1 | tail -20
fi
