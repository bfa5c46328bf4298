# SPDX-License-Identifier: BSD-3-Clause
# before/after of the reductions on 4 GPUs: tests, before and after lanes, VARIANT lines
# Sourced by bench/device.sh (was bench/ab_reductions_device.sh).
# Before/after of a change to the reductions, in one call on a machine of 4 GPUs: builds
# the tree before the change (BEFORE=dir, e.g. `git archive REV | tar -x -C dir`) and this
# tree, then runs at the same time, one GPU each:
#   GPU 0  the GPU tests of this build (CTEST_ARGS, default the reductions' tests), then
#          the CHECKS lines (tester command lines, e.g. checked runs at larger n)
#   GPU 1  hetrd and gebrd (mgblas-tester, or the old tester_*) of the before build (sizes below)
#   GPU 2  the same on this build
#   GPU 3  the VARIANT lines on this build
# and then, with SCALE="parts", the step scaling on this build and all GPUs
# (ONE_GPU=0: its 1-GPU runs are left out; give them to VARIANT). Every tester times
# cuSOLVER on the same matrix in the same process, so each lane carries its own
# reference. Logs and CSVs under OUT_DIR/ab-reductions/; a short table last. CHECKS and
# VARIANT lines are a routine and its options ("hetrd -n 65536 --type d").
#
#   BEFORE=dir bench/device.sh ab-reductions
#   env LANE_HETRD=4096,8192,16384 LANE_HETRD_BIG=32768 LANE_GEBRD=4096,8192,16384: the
#       lanes' sizes (HETRD_BIG: one timed call); an empty list skips that run
P=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$P" -ge 4 ] || { echo "ab-reductions: needs 4 GPUs (found $P)"; exit 2; }
targets=(mgblas-tester test_hetrd_gpu
  test_gebrd_gpu test_unmtr_gpu test_dist_nccl test_cuda_tsgemm)
before=${BEFORE:?set BEFORE to the source tree before the change}
jobs=$(($(nproc) / 2))
if [ -f "$before/testers/mgblas_tester.cpp" ]; then before_targets=mgblas-tester
else before_targets="tester_hetrd tester_gebrd"; fi
stamp "build before and after ($(nproc) cores)"
# shellcheck disable=SC2086
build "$before" "$root/build-before" "$out/build-before.log" $before_targets &
build "$src" "$root/build-after" "$out/build-after.log" "${targets[@]}" ||
  { grep -B2 -A12 error "$out/build-after.log" | head -60; exit 1; }
wait $! || { grep -B2 -A12 error "$out/build-before.log" | head -60; exit 1; }
stamp "built"

mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES)
export LANE_HETRD=${LANE_HETRD-4096,8192,16384} LANE_HETRD_BIG=${LANE_HETRD_BIG-32768}
export LANE_GEBRD=${LANE_GEBRD-4096,8192,16384}
# lane GPU BUILD NAME: the benchmark cases on one GPU, rows into NAME-{hetrd,gebrd}.csv.
lane() {
  local gpu=$1 b=$2 name=$3
  export CUDA_VISIBLE_DEVICES=$gpu
  {
    [ -n "$LANE_HETRD" ] && "${mpi[@]}" -np 1 $(tester_cmd "$b" hetrd) -n "$LANE_HETRD" --type d \
      --niter 3 --warmup 1 --no-check --profile --csv "$out/$name-hetrd.csv" </dev/null
    [ -n "$LANE_HETRD_BIG" ] && "${mpi[@]}" -np 1 $(tester_cmd "$b" hetrd) -n "$LANE_HETRD_BIG" --type d \
      --niter 1 --warmup 1 --no-check --profile --csv "$out/$name-hetrd.csv" </dev/null
    [ -n "$LANE_GEBRD" ] && "${mpi[@]}" -np 1 $(tester_cmd "$b" gebrd) -n "$LANE_GEBRD" --type d \
      --niter 2 --warmup 1 --no-check --profile --csv "$out/$name-gebrd.csv" </dev/null
  } >"$out/$name.log" 2>&1
}
# lines GPU NAME: each line of stdin is a tester command line, run on this build.
lines() {
  export CUDA_VISIBLE_DEVICES=$1
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    echo "## $line"
    line=${line#tester_}
    # shellcheck disable=SC2086
    timeout 600 "${mpi[@]}" -np 1 $root/build-after/testers/mgblas-tester $line --csv "$out/$2.csv" </dev/null
  done >"$out/$2.log" 2>&1
}
(
  cd "$root/build-after" && CUDA_VISIBLE_DEVICES=0 timeout 900 ctest \
    ${CTEST_ARGS:--R "hetrd_gpu|gebrd_gpu|unmtr_gpu|nccl|tester_hetrd_check|tester_gebrd_check"} \
    --output-on-failure --timeout 600 >"$out/ctest.log" 2>&1
  lines 0 checks <<<"${CHECKS:-}"
) &
tests=$!
timeout 900 bash -c "$(declare -f lane tester_cmd); $(declare -p mpi out); lane 1 $root/build-before before" &
l1=$!
timeout 900 bash -c "$(declare -f lane tester_cmd); $(declare -p mpi out); lane 2 $root/build-after after" &
l2=$!
lines 3 variant <<<"${VARIANT:-}" &
l3=$!
wait $l1 $l2 $l3
stamp "lanes done"
wait $tests
stamp "tests done"

if [ -n "${SCALE:-}" ]; then
  stamp "the step scaling: $SCALE"
  (export ONE_GPU=0 SCALING_STEPS=$SCALE; build=$root/build-after tester=$root/build-after/testers/mgblas-tester
   out=$out/scale && mkdir -p "$out" && source "$steps_dir/scaling.sh") >"$out/scale.log" 2>&1
fi

stamp "done"
grep -E "tests passed|Failed|\*\*\*|Test +#" "$out/ctest.log" | tail -20
for f in before after checks variant; do
  [ -s "$out/$f.log" ] && { echo "## $f"; grep -E '^ +[sdcz] ' "$out/$f.log"; }
done
[ -s "$out/scale.log" ] && tail -40 "$out/scale.log"
exit 0
