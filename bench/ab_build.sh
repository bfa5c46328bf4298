# SPDX-License-Identifier: BSD-3-Clause
# Sourced by bench/device.sh: builds one source tree for the GPU machine (Release, sm_90).
#   build SRC DIR LOG TARGET...   configure SRC in DIR and build TARGETs ("all": everything)
# JOBS (default: half the cores, so that the before and after trees of the ab steps build
# at the same time; device.sh gives a lone build all of them).
host_cxx=()
[ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
jobs=${JOBS:-$(($(nproc) / 2))}
build() {
  local src=$1 dir=$2 log=$3
  shift 3
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${host_cxx[@]}" >"$log" 2>&1 && cmake --build "$dir" -j "$jobs" --target "$@" >>"$log" 2>&1
}
