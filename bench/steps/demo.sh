# SPDX-License-Identifier: BSD-3-Clause
# the distributed demo (examples/00_distributed_demo) on 1 rank, then 2 ranks
# Sourced by bench/device.sh. The main job on the GPU back-end; 2 ranks share the GPUs.
need mgblas_demo || exit 1
for np in 1 2; do
  stamp "mgblas_demo on $np rank(s)"
  timeout 120 "${mpi[@]}" -np $np "$build/examples/00_distributed_demo/mgblas_demo" --n 16384 \
    --type s,d,c,z --niter 5 >"$out/demo_np$np.log" 2>&1
  echo "demo exit $?" >>"$out/demo_np$np.log"
  grep -vE "^#   rank" "$out/demo_np$np.log" | tail -16
done
