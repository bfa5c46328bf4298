#!/usr/bin/env bash
# The device commands behind h200-redistribute.md (issue 36, item 1; each call <= 10 min):
#   build, ctest TAG REGEX   as h200-edges.sh's steps of those names (build-dev, logs to $OUT)
#   buildt TARGETS           configure build-dev as h200-edges.sh does, build only TARGETS
#                            (comma-separated)
#   bench NP GRID SIZES TYPES [EXTRA]
#                            mpirun -np NP mgblas-tester redistribute on a GRID process grid
#                            (PxQ), mb = 64, rows to $OUT/redistribute.csv; ROUTE=host in the
#                            environment forces the host route (MGBLAS_REDUCER=host)
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
here=$(dirname "$0"); B=$PWD/build-dev
while [ $# -gt 0 ]; do
  case $1 in
    build) bash "$here/h200-edges.sh" build || exit 1; shift ;;
    buildt)
      t0=$SECONDS; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
      cmake -S "$PWD" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 &&
        cmake --build "$B" -j16 --target ${2//,/ } > "$OUT/build.log" 2>&1; rc=$?; echo "build rc $rc in $((SECONDS - t0)) s"
      grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1; shift 2 ;;
    ctest) bash "$here/h200-edges.sh" ctest "$2" "$3"; shift 3 ;;
    bench)
      np=$2 grid=$3 sizes=$4 types=$5 extra=$6; shift 6
      export MGBLAS_REDUCER=${ROUTE:-auto}
      # shellcheck disable=SC2086 # extra holds several options
      timeout 400 mpirun --oversubscribe --bind-to none -np "$np" -x MGBLAS_REDUCER "$B/testers/mgblas-tester" \
        redistribute -n "$sizes" --type "$types" --grid "$grid" --mb 64 --nb 256 --niter 3 \
        --warmup 1 $extra --csv "$OUT/redistribute.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
