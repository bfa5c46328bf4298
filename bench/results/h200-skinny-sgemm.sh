#!/usr/bin/env bash
# The device commands behind h200-skinny-sgemm.md (float's symmetric product with 17-32
# columns, kernels/cuda/gemm/skinny.cu, in the CUDA engine's hemm and so in stage one of
# the two-stage tridiagonal reduction); one H200, each call <= 10 min. Steps, run in order:
#   build              configure build-dev (Release, sm_90; a fresh one with
#                      MGBLAS_INSTANCES=ci) and build the tester and the tests below
#   gtest BINARY FILTER
#                      build-dev/tests/kernels/BINARY --gtest_filter=FILTER (device_steps.sh)
#   ctest REGEX        ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL FILTER
#                      compute-sanitizer --tool TOOL on test_cuda_level3 --gtest_filter=FILTER
#                      (device_steps.sh; limit $TO, 300 s)
#   hemm DIMS          mgblas-tester tsgemm --entry hemm --type s (or $TYPE; DIMS: MxNxM, comma
#                      list): the engine's hemm against cublas<t>symm / hemm on the same
#                      data, median of 5 after 2 warm-ups; $OUT/hemm-<type>.csv
#   probe              bench/probes/symm_n32.cu: cuBLAS's symm against gemm (s and d)
#   hetrd SIZES TYPE SETTINGS
#                      mgblas-tester hetrd --eig, two stages (band 32), profiled phases on
#                      '#' lines, one timed call after 1 warm-up, once per SKINNY[:BLOCK] in
#                      SETTINGS (MGBLAS_SYMM_SKINNY and MGBLAS_SY2SB_HEMM_BLOCK, unset without
#                      ":BLOCK"; e.g. 1,0:8192); against cuSOLVER's ?sytrd and Xsyevd on the first
#                      setting only (NOREF=1: never); $OUT/hetrd-<type>-<setting>.csv
#   heevd SIZES SETTINGS
#                      device_heevd in float (values only unless VECTORS is set, two stages
#                      unless STAGES is) per SKINNY in SETTINGS (e.g. 1,0); cuSOLVER on the
#                      first only
#   ncu N COUNT SETTING ncu (gpu__time_duration only, clocks untouched) on the first COUNT
#                      symm / gemm / skinny kernels of hetrd s two-stage at n = N, one call,
#                      SETTING as for hetrd; per-kernel sums (bench/ncu_kernel_times.py)
#   pipes M            ncu (clocks untouched) with its throughput, memory, compute, warp-state
#                      and occupancy sections on the first skinny.cu kernel of the tester's hemm
#                      at M x 32 x M in $TYPE (s); full report $OUT/pipes-<type>-M.txt, the
#                      lines that say what limits the kernel printed
#   sass               cuobjdump -sass of skinny.cu's object to $OUT/skinny.sass; the opcode
#                      counts of the float kernel (lower) printed
# e.g. bash bench/results/h200-skinny-sgemm.sh build hemm 16384x32x16384 hetrd 16384 s 1:8192,0:8192
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_level3 test_hetrd_2stage_gpu test_heevd_gpu test_gesvd_gpu ;;
    gtest)
      device_gtest "$2" "$3"; shift 3 ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      device_sanitize "$2" test_cuda_level3 "$3"; shift 3 ;;
    hemm)
      timeout "${TO:-300}" "$T" tsgemm --entry hemm --dim "$2" --type "${TYPE:-s}" --niter 5 \
        --warmup 2 --csv "$OUT/hemm-${TYPE:-s}.csv" | grep -v "^# \(command\|time\)"; shift 2 ;;
    probe)
      shift; nvcc -O2 -arch=sm_90 -o "$B/symm_n32" "$R/bench/probes/symm_n32.cu" -lcublas && "$B/symm_n32" ;;
    hetrd)
      sizes=$2 type=$3 settings=$4; shift 4; ref=$(ref_flag)
      for st in ${settings//,/ }; do
        blk=(); [[ $st == *:* ]] && blk=("MGBLAS_SY2SB_HEMM_BLOCK=${st##*:}")
        echo "# MGBLAS_SYMM_SKINNY=${st%%:*} ${blk[*]:-(block: the default)}"
        env MGBLAS_SYMM_SKINNY="${st%%:*}" "${blk[@]}" timeout "${TO:-400}" "$T" hetrd \
          -n "$sizes" --type "$type" --nb 256 --band 32 --eig --no-one-stage --profile --niter 1 \
          --warmup 1 --no-check "$ref" --csv "$OUT/hetrd-$type-${st/:/-}.csv" |
          grep -v "^# \(command\|time\|binding\|NCCL\)"
        ref=--no-ref
      done ;;
    heevd)
      sizes=$2 settings=$3; shift 3; keep=${NOREF:-0}
      for sk in ${settings//,/ }; do
        echo "# MGBLAS_SYMM_SKINNY=$sk"
        MGBLAS_SYMM_SKINNY=$sk TYPE=s VECTORS=${VECTORS:-none} device_heevd "$sizes"
        NOREF=1
      done; NOREF=$keep ;;
    ncu)
      n=$2 count=$3 st=$4; shift 4
      echo "# ncu: $count kernels of hetrd s n = $n, MGBLAS_SYMM_SKINNY=${st%%:*} MGBLAS_SY2SB_HEMM_BLOCK=${st##*:}"
      MGBLAS_SYMM_SKINNY=${st%%:*} MGBLAS_SY2SB_HEMM_BLOCK=${st##*:} timeout 300 ncu --clock-control none \
        --metrics gpu__time_duration.sum --csv -k 'regex:symm|gemm|skinny|reduce' -c "$count" "$T" hetrd \
        -n "$n" --type s --nb 256 --band 32 --no-one-stage --no-ref --niter 1 --warmup 0 --no-check \
        > "$OUT/ncu-$n-${st/:/-}.csv" 2> "$OUT/ncu-$n-${st/:/-}.err"
      python3 "$R/bench/ncu_kernel_times.py" "$OUT/ncu-$n-${st/:/-}.csv" | head -12 ;;
    pipes)
      m=$2 ty=${TYPE:-s}; shift 2; rep=$OUT/pipes-$ty-$m.txt
      timeout 300 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy \
        --section LaunchStats --section SchedulerStats --metrics \
        dram__bytes_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_fma.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio \
        -k regex:skinny -c 1 "$T" tsgemm --entry hemm --dim "${m}x32x$m" --type "$ty" --niter 1 \
        --warmup 0 > "$rep" 2>&1; echo "ncu rc $?"
      grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Registers|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles|Issued Warp|No Eligible|dram__bytes|wavefronts|pipe_fma|bank_conflicts|L2 Hit|L1/TEX Hit|Shared Memory|Executed Ipc|Block Limit" "$rep" | head -60
      grep -E "issue_stalled" "$rep" | sort -k3 -n -r | head -8 ;;
    sass)
      shift; cuobjdump -sass "$B/kernels/cuda/CMakeFiles/mgblas_kernels_cuda.dir/gemm/skinny.cu.o" > "$OUT/skinny.sass"
      awk '/Function : .*skinny_kernelILb1EEEvlilf/ {on = 1; next} /Function :/ {on = 0} on && /\/\*[0-9a-f]+\*\// {
        for (i = 1; i <= NF; i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i !~ /^R[0-9]/ && $i !~ /^P[0-9]/) { split($i, o, "."); c[o[1]]++; break } }
        END { for (k in c) print c[k], k }' "$OUT/skinny.sass" | sort -rn | head -16 ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
