# SPDX-License-Identifier: BSD-3-Clause
# scaling on P GPUs (issue 15): dist, hetrd, gebrd, single, tsgemm, nccl (SCALING_STEPS)
# Sourced by bench/device.sh (was bench/scaling_device.sh), on one machine of P GPUs
# (P = 2, 4 or 8); its parts (env SCALING_STEPS, default "dist hetrd gebrd tsgemm nccl"):
#   dist    distributed GEMV/SYMV/HEMV (the step dist): d, z at n = 32768 and
#           65536 (131072 in the big pass) as 1 rank x k, k ranks x 1, 2 ranks x P/2,
#           against mgblas on one GPU in the same process
#   hetrd   the tridiagonal reduction, d, n = 32768, 65536: one GPU with cuSOLVER in the
#           same run, then 1 rank x P and P ranks x 1 (mgblas-tester hetrd)
#   gebrd   the bidiagonal reduction, d, n = 16384, 32768, the same way (mgblas-tester gebrd)
#   single  the reductions' one-GPU runs (with cuSOLVER) of every size of both lists, at
#           the same time, one GPU each (lanes round-robin over the GPUs): give hetrd
#           and gebrd ONE_GPU=0 then. Profiled up to SINGLE_PROFILE_MAX (32768): the
#           profiled call doubles the 65536 run's time. The lanes slow one another a
#           little (gebrd 16384: 11 % in a run of four lanes): for the one-GPU time a
#           target is judged on, use ONE_GPU=1 (one GPU alone)
#   tsgemm  the row-tiled tall-and-skinny GEMM at m = 2^26 (the step tsgemm, scaling mode)
#   nccl    the reductions' per-column all-reduce (mgblas-tester allreduce, NCCL and host
#           staging, d, 8 B .. 256 MiB) as 1 rank x k GPUs and k ranks x 1, k = 1, 2, 4, ...
#           up to P, with its alpha-beta fit: $out/allreduce.csv (bench/scaling_model.py)
# and prints a short table last. Each part has its own time limit; a failing part does not
# stop the others. Results (logs, CSVs) under OUT_DIR/scaling/; the tables for
# bench/results/h200x<P>-*.md come from them.
#
#   env HETRD_SIZES=32768,65536 GEBRD_SIZES=16384,32768   sizes of the reductions
#   env ONE_GPU=0   the reductions' parts leave out their 1-GPU run (with cuSOLVER)
#   env RED_WARMUP=1 RED_PROFILE=1   the reductions' untimed calls before the timed one,
#                   and whether a profiled call follows. Keep a warm-up: a process's first
#                   call on 4 GPUs took about 1 s longer than the next (hetrd 32768:
#                   5.55 s against 4.58 s on 4 ranks x 1; bench/results/h200x4-reductions.md)
#   env ALLREDUCE_OPTS="--type d --transport nccl,host --niter 10 --warmup 2"   (nccl part)
parts=${SCALING_STEPS:-dist hetrd gebrd tsgemm nccl}
P=$(gpu_count)
[ "$P" -ge 2 ] || { echo "scaling: needs 2 or more GPUs (found $P)"; exit 2; }
need test_dist_nccl test_cuda_tsgemm test_tsgemm_mgpu mgblas-tester || exit 1
all=$(seq -s, 0 $((P - 1)))
scaling_out=$out

# reduction NAME SIZES: one GPU (with cuSOLVER), 1 rank x P, P ranks x 1.
reduction() {
  local name=$1 sizes=$2 bin=$tester csv=$out/$1.csv log=$out/$1.log
  local opts=(-n "$sizes" --type d --niter 1 --warmup "${RED_WARMUP:-1}" --no-check --csv "$csv")
  [ "${RED_PROFILE:-1}" = 1 ] && opts+=(--profile)
  : >"$log"
  rm -f "$csv"
  if [ "${ONE_GPU:-1}" = 1 ]; then
    stamp "$name: 1 GPU with cuSOLVER, n = $sizes"
    MGBLAS_DEVICES=0 timeout 1200 "${mpi[@]}" -np 1 -x MGBLAS_DEVICES "$bin" "$name" "${opts[@]}" >>"$log" 2>&1
  fi
  stamp "$name: 1 rank x $P GPUs"
  MGBLAS_DEVICES=$all timeout 900 "${mpi[@]}" -np 1 -x MGBLAS_DEVICES "$bin" "$name" "${opts[@]}" --no-ref \
    >>"$log" 2>&1
  stamp "$name: $P ranks x 1 GPU"
  CUDA_VISIBLE_DEVICES=$all timeout 900 "${mpi[@]}" -np "$P" -x CUDA_VISIBLE_DEVICES "$bin" \
    "$name" "${opts[@]}" --no-ref >>"$log" 2>&1
}

# single: each (reduction, size) of HETRD_SIZES and GEBRD_SIZES on one GPU with cuSOLVER in
# the same process; the jobs go round-robin to GPUs 0..P-1, each GPU runs its jobs one
# after another and the GPUs run at the same time. Rows into $out/single-<name>.csv.
single() {
  local jobs=() hs gs n name gpu i prof
  IFS=, read -r -a hs <<<"${HETRD_SIZES:-32768,65536}"
  IFS=, read -r -a gs <<<"${GEBRD_SIZES:-16384,32768}"
  for n in "${hs[@]}"; do jobs+=("hetrd:$n"); done
  for n in "${gs[@]}"; do jobs+=("gebrd:$n"); done
  for ((gpu = 0; gpu < P; gpu++)); do
    (
      for ((i = gpu; i < ${#jobs[@]}; i += P)); do
        name=${jobs[i]%%:*} n=${jobs[i]#*:}
        prof=()
        [ "${RED_PROFILE:-1}" = 1 ] && [ "$n" -le "${SINGLE_PROFILE_MAX:-32768}" ] && prof=(--profile)
        stamp "single: $name n = $n on GPU $gpu"
        CUDA_VISIBLE_DEVICES=$gpu timeout 1200 "${mpi[@]}" -np 1 -x CUDA_VISIBLE_DEVICES \
          "$tester" "$name" -n "$n" --type d --niter 1 --warmup "${RED_WARMUP:-1}" --no-check \
          "${prof[@]}" --csv "$out/single-$name-$gpu.csv" </dev/null >>"$out/single-$gpu.log" 2>&1
      done
    ) &
  done
  wait
  # The reduction testers append rows without a header line: the lanes' files concatenate.
  for name in hetrd gebrd; do
    cat "$out"/single-"$name"-[0-9]*.csv >"$out/single-$name.csv" 2>/dev/null
    rm -f "$out"/single-"$name"-[0-9]*.csv
  done
  cat "$out"/single-[0-9]*.log >"$out/single.log"
}

# append_rows PART CSV: PART's rows after CSV's one header line (PART's header when CSV is
# empty); PART goes.
append_rows() {
  [ -s "$1" ] || return 0
  [ -s "$2" ] || head -1 "$1" >"$2"
  tail -n +2 "$1" >>"$2"
  rm -f "$1"
}

# allreduce: mgblas-tester allreduce as 1 rank x k GPUs and k ranks x 1 GPU for k = 1, 2, 4, ...
# up to P (and P), each run's rows appended to $out/allreduce.csv under one header (the
# rows carry ranks and gpus).
allreduce() {
  local bin=$tester csv=$out/allreduce.csv log=$out/allreduce.log
  local part=$out/.allreduce-part.csv k gpus counts=()
  local opts
  read -r -a opts <<<"${ALLREDUCE_OPTS:---type d --transport nccl,host --niter 10 --warmup 2}"
  : >"$log"
  rm -f "$csv"
  for ((k = 1; k < P; k *= 2)); do counts+=("$k"); done
  counts+=("$P")
  for k in "${counts[@]}"; do
    gpus=$(seq -s, 0 $((k - 1)))
    stamp "nccl: all-reduce, 1 rank x $k GPU(s)"
    rm -f "$part"
    MGBLAS_DEVICES=$gpus timeout 900 "${mpi[@]}" -np 1 -x MGBLAS_DEVICES "$bin" allreduce "${opts[@]}" \
      --csv "$part" >>"$log" 2>&1
    append_rows "$part" "$csv"
    [ "$k" -gt 1 ] || continue
    stamp "nccl: all-reduce, $k ranks x 1 GPU"
    CUDA_VISIBLE_DEVICES=$gpus timeout 900 "${mpi[@]}" -np "$k" -x CUDA_VISIBLE_DEVICES "$bin" \
      allreduce "${opts[@]}" --csv "$part" >>"$log" 2>&1
    append_rows "$part" "$csv"
  done
}

for part in $parts; do
  case $part in
    dist)
      stamp "dist: the step dist ($P GPUs)"
      (export GPUS=$P SIZES=32768,65536 BIG=131072 BIG_BEFORE_S=600 NITER=5 WARMUP=2
       out=$scaling_out/dist && mkdir -p "$out" && source "$steps_dir/dist.sh") \
        >"$out/dist.log" 2>&1 ;;
    hetrd) reduction hetrd "${HETRD_SIZES:-32768,65536}" ;;
    gebrd) reduction gebrd "${GEBRD_SIZES:-16384,32768}" ;;
    single) single ;;
    tsgemm)
      stamp "tsgemm: row-tiled scaling"
      (export TSGEMM_MODE=scaling
       out=$scaling_out/tsgemm && mkdir -p "$out" && source "$steps_dir/tsgemm.sh") \
        >"$out/tsgemm.log" 2>&1 ;;
    nccl) allreduce ;;
    *) echo "unknown part $part (dist, hetrd, gebrd, single, tsgemm, nccl)" ;;
  esac
done

# The short table: the reductions' rows (type, n, GPUs, ranks, time, cuSOLVER on 1 GPU).
stamp "done"
[ -s "$out/dist/summary.txt" ] && cat "$out/dist/summary.txt"
for name in hetrd gebrd; do
  [ -s "$out/$name.log" ] && { echo "## $name"; grep -E '^ +d ' "$out/$name.log"; }
done
[ -s "$out/single.log" ] && { echo "## one GPU each (single)"; grep -E '^ +d ' "$out/single.log"; }
[ -s "$out/tsgemm.log" ] && tail -15 "$out/tsgemm.log"
[ -s "$out/allreduce.log" ] && { echo "## all-reduce (alpha-beta)"; grep -E '^# fit|^#   (time|queued) ' "$out/allreduce.log"; }
exit 0
