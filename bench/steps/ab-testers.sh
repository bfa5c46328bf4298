# SPDX-License-Identifier: BSD-3-Clause
# before/after of the single-GPU testers (blas, tsgemm, batched), alternated; racecheck
# Sourced by bench/device.sh (was bench/redesign_device.sh).
# Issue 10's GPU check, one call on the GPU machine: the tree before a restructuring and
# the tree after it, built side by side; `ctest -L gpu` on the after tree; the same
# tester cases on both (alternated: before, after, after, before; the faster of each
# tree's two runs counts) and a before/after table of kernel choices and times
# (bench/compare_testers.py). Optionally compute-sanitizer racecheck of GPU test
# binaries and examples, all at once (one process each).
#
#   BEFORE=<dir>      the old sources (e.g. `git archive <rev> | tar -x -C .devsrc-before`)
#   STEPS=build,ctest,testers,racecheck   (default build,ctest,testers)
#   CTEST_ARGS        default "-L gpu"
#   RACE_TIMEOUT      seconds per racecheck process (default 240)
#   RACE_BINS         test binaries under racecheck (default the five kernel/NCCL ones)
#   RACE_FILTER       their gtest filter (default: double cases and untyped tests, no
#                     large/sweep ones)
#   RACE_GPUS         GPUs the racecheck processes are dealt to (default: all visible)
# Logs and tables go to OUT_DIR/ab-testers/; a short summary is printed last.
before_src=${BEFORE:-}
steps=",${STEPS:-build,ctest,testers},"
has() { [[ $steps == *",$1,"* ]]; }
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "[$(date +%T)] $*"; }
after=$root/build-after
before=$root/build-before
if [ -f "${BEFORE:-.}/testers/mgblas_tester.cpp" ]; then testers=mgblas-tester
else testers="tester_blas tester_tsgemm tester_batched"; fi

sed -n 2p "$out_root/gpu.txt" | tee -a "$summary"

configure() {  # src build
  local host_cxx=()
  [ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${host_cxx[@]}" >"$2.cmake.log" 2>&1
}
if has build; then
  stamp "build after (all) and before (testers) side by side"
  half=$(( $(nproc) / 2 ))
  t0=$SECONDS
  (configure "$src" "$after" && cmake --build "$after" -j "$half" >"$out/build-after.log" 2>&1;
   echo $? >"$out/build-after.rc") &
  if [ -n "$before_src" ]; then
    (configure "$before_src" "$before" && cmake --build "$before" -j "$half" --target $testers \
       >"$out/build-before.log" 2>&1; echo $? >"$out/build-before.rc") &
  fi
  wait
  note "build: $((SECONDS - t0)) s, after rc $(cat "$out/build-after.rc" 2>/dev/null), before rc $(cat "$out/build-before.rc" 2>/dev/null || echo -)"
  grep -h -B2 -A10 " error" "$out"/build-*.log | head -40
fi

if has ctest; then
  stamp "ctest ${CTEST_ARGS:--L gpu}"
  (cd "$after" && OPENBLAS_NUM_THREADS=1 ctest ${CTEST_ARGS:--L gpu} --timeout 600 --output-on-failure \
    >"$out/ctest.log" 2>&1)
  grep -E "tests passed|\*\*\*Failed|Timeout|Not Run" "$out/ctest.log" | tee -a "$summary"
  grep -A20 "The following tests FAILED" "$out/ctest.log" | head -20
fi

if has testers && [ -n "$before_src" ]; then
  run_cases() {  # tree tag
    local b=$1 tag=$2
    # shellcheck disable=SC2046 # the command splits on spaces
    $(tester_cmd "$b" blas) --op gemv,symv --type s,d,c,z -n 4096,16384 --trans N,T --uplo L \
      --niter 20 --warmup 3 --no-check --csv "$out/blas-$tag.csv" >"$out/blas-$tag.log" 2>&1
    $(tester_cmd "$b" tsgemm) --dim 4194304x16x16,16777216x8x8,20480x16x20480 --type s,d,c,z \
      --niter 10 --warmup 2 --no-check --csv "$out/tsgemm-$tag.csv" >"$out/tsgemm-$tag.log" 2>&1
    $(tester_cmd "$b" batched) --iface strided,variable --type s,d,c,z -n 4,8,16,32 --batch 100000 \
      --vmax 32 --vbatch 10000 --niter 10 --warmup 2 --no-check \
      --csv "$out/batched-$tag.csv" >"$out/batched-$tag.log" 2>&1
  }
  stamp "testers, before/after alternated"
  run_cases "$before" b1
  run_cases "$after" a1
  run_cases "$after" a2
  run_cases "$before" b2
  for t in blas tsgemm batched; do
    python3 "$root/bench/compare_testers.py" "$out/$t-b1.csv,$out/$t-b2.csv" \
      "$out/$t-a1.csv,$out/$t-a2.csv" --md "$out/$t-compare.md" >/dev/null
    note "$t: $(tail -1 "$out/$t-compare.md")"
  done
fi

if has racecheck; then
  stamp "racecheck, every process at once"
  to=${RACE_TIMEOUT:-240}
  # One GPU per process, round robin over RACE_GPUS (default: every visible GPU), so the
  # processes do not share one GPU's time.
  read -r -a gpus <<<"$(echo "${RACE_GPUS:-$(seq -s' ' 0 $(($(nvidia-smi -L | grep -c '^GPU') - 1)))}" | tr ',' ' ')"
  [ ${#gpus[@]} -gt 0 ] || gpus=(0)
  slot=0
  next_gpu() { gpu=${gpus[$((slot % ${#gpus[@]}))]}; slot=$((slot + 1)); }
  pids=()
  for name in ${RACE_BINS:-test_cuda_gemv_engine test_cuda_level3 test_cuda_tsgemm test_cuda_batched_engine test_dist_nccl}; do
    bin=$(ls "$after"/tests/*/"$name" 2>/dev/null | head -1)
    [ -x "$bin" ] || continue
    next_gpu
    # The typed tests' double instances (Suite/d.name) and the untyped tests; large and
    # sweep cases left out: racecheck runs 100x slower or more.
    (CUDA_VISIBLE_DEVICES=$gpu timeout "$to" compute-sanitizer --tool racecheck --error-exitcode 3 --print-limit 20 \
       "$bin" --gtest_filter="${RACE_FILTER:--*/s.*:*/c.*:*/z.*:*Large*:*large*:*Sweep*:*sweep*}" >"$out/race-$name.log" 2>&1
     echo "racecheck $name (double cases): rc $?, $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/race-$name.log" | tail -1) $(grep -E '^\[  PASSED|^\[  FAILED' "$out/race-$name.log" | head -1)" \
       >"$out/race-$name.txt") &
    pids+=($!)
  done
  for ex in "02_eigensolver/mgblas_eigensolver --n 200 --nb 32 --vectors 4 --type d,z" \
    "03_svd/mgblas_svd --m 200 --n 160 --nb 32 --vectors 3 --type d,z"; do
    tag=$(basename "${ex%% *}")
    next_gpu
    (CUDA_VISIBLE_DEVICES=$gpu timeout "$to" compute-sanitizer --tool racecheck --error-exitcode 3 --print-limit 20 \
       "$after/examples/"$ex >"$out/race-$tag.log" 2>&1
     echo "racecheck $ex: rc $?, $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/race-$tag.log" | tail -1) $(grep -E '# [0-9]+ cases' "$out/race-$tag.log")" \
       >"$out/race-$tag.txt") &
    pids+=($!)
  done
  wait "${pids[@]}"
  cat "$out"/race-*.txt | tee -a "$summary"
fi

echo "===== summary ====="
cat "$summary"
