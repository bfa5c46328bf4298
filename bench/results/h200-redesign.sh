#!/usr/bin/env bash
# Device session B: this tree, all built; ctest -L gpu in two parts (each call <= 10 min).
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-final; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
case ${1:-} in
  build)
    t0=$SECONDS
    cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$B.cfg.log" 2>&1 &&
      cmake --build "$B" -j16 > "$B.log" 2>&1; echo "build rc $? in $((SECONDS - t0)) s"
    grep -m5 -B2 -A12 " error\|FAILED" "$B.log" | head -40 ;;
  ctest)  # ctest TAG ARGS...
    tag=$2; shift 2
    (cd "$B" && timeout ${TO:-560} ctest "$@" --timeout 500 --output-on-failure > "$OUT/ctest-$tag.log" 2>&1); echo "ctest rc $?"
    grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Passed|Skipped" "$OUT/ctest-$tag.log" | tail -40 ;;
esac
