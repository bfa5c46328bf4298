# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the before/after scripts (ab_*_device.sh): builds one source tree for the
# GPU machine's H200s with half of its cores, so that two trees build at the same time.
#   build SRC DIR LOG TARGET...   configure SRC in DIR (Release, sm_90) and build TARGETs
host_cxx=()
[ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
jobs=$(($(nproc) / 2))
build() {
  local src=$1 dir=$2 log=$3
  shift 3
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${host_cxx[@]}" >"$log" 2>&1 && cmake --build "$dir" -j "$jobs" --target "$@" >>"$log" 2>&1
}
