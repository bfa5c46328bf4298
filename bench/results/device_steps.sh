# Shared steps of the device scripts (sourced, not run): the environment of every device
# call and the `build` and `ctest` steps, in build-dev under the repository root ($R); $T is
# the tester there, extra_of picks a step's optional word of options.
#   device_build TARGET...  configure build-dev (Release, sm_90), build the targets with all
#                           cores; logs to $OUT; exits on a failed build
#   device_ctest REGEX      ctest -R REGEX --output-on-failure (overall limit $TO, default
#                           500 s), log to $OUT/ctest-<REGEX>.log, its summary printed
#   device_gtest BINARY FILTER
#                           build-dev/tests/kernels/BINARY --gtest_filter=FILTER (limit $TO,
#                           300 s), log $OUT/gtest-BINARY.log, its failures and summary printed
#   device_sanitize TOOL BINARY FILTER
#                           compute-sanitizer --tool TOOL on build-dev/tests/kernels/BINARY
#                           with --gtest_filter=FILTER (limit $TO, 300 s); log
#                           $OUT/sanitize-TOOL-BINARY.log, its summary printed
#   device_svd SIZES [OPTS] mgblas-tester svd, d (or $TYPE), two stages, nb 256, all vectors (or
#                           $VECTORS), against Xgesvdp (--no-ref when NOREF=1), median of
#                           $REPEAT (1) after 1 warm-up (limit $TO, 400 s), OPTS (one word of
#                           tester options, e.g. "--aspect 16 --qr-panel 32") appended;
#                           $OUT/svd-${VECTORS:-all}.csv
#   device_heevd SIZES      the same for mgblas-tester heevd, against Xsyevd, in precision
#                           $TYPE (d), stages $STAGES (two; a list such as one,two,auto);
#                           $OUT/heevd-${VECTORS:-all}.csv
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
R=$PWD; B=$R/build-dev; hc=(); [ -x /opt/gcc/bin/g++ ] && hc=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
T=$B/testers/mgblas-tester
# extra_of ARGS...: the first argument when it is a word of options (starts with '-')
extra_of() { if [ $# -gt 0 ] && [[ $1 == -* ]]; then echo "$1"; fi; }
device_build() {
  local t0=$SECONDS rc
  cmake -S "$R" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${hc[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build "$B" -j"$(nproc)" --target "$@" > "$OUT/build.log" 2>&1; rc=$?
  echo "build rc $rc in $((SECONDS - t0)) s"
  grep -m5 -B2 -A12 " error\|FAILED" "$OUT/build.log" | head -40; [ $rc = 0 ] || exit 1
}
device_ctest() {
  local log=$OUT/ctest-${1//[^A-Za-z0-9_]/_}.log
  (cd "$B" && timeout "${TO:-500}" ctest -R "$1" --timeout 400 --output-on-failure > "$log" 2>&1); echo "ctest $1 rc $?"
  grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run|Skipped|Total Test" "$log" | tail -25
}
device_gtest() {
  local log=$OUT/gtest-$1.log
  timeout "${TO:-300}" "$B/tests/kernels/$1" --gtest_filter="$2" > "$log" 2>&1; echo "gtest $1 rc $?"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure|error:" "$log" | head -20
}
device_sanitize() {
  local log=$OUT/sanitize-$1-$2.log
  timeout "${TO:-300}" compute-sanitizer --tool "$1" "$B/tests/kernels/$2" --gtest_filter="$3" > "$log" 2>&1
  echo "sanitize $1 $2 rc $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$log" | tail -5
}
ref_flag() { if [ "${NOREF:-0}" = 1 ]; then echo --no-ref; else echo --ref; fi; }
device_svd() {
  # shellcheck disable=SC2086  # OPTS is a word of options
  timeout "${TO:-400}" "$T" svd -n "$1" --type "${TYPE:-d}" --nb 256 --stages two --vectors "${VECTORS:-all}" \
    --gesvd-max-n 0 "$(ref_flag)" --repeat "${REPEAT:-1}" --warmup 1 --csv "$OUT/svd-${VECTORS:-all}.csv" ${2:-} |
    grep -v "^# \(command\|time\)"
}
device_heevd() {
  timeout "${TO:-400}" "$T" heevd -n "$1" --type "${TYPE:-d}" --nb 256 --stages "${STAGES:-two}" --vectors "${VECTORS:-all}" \
    "$(ref_flag)" --repeat "${REPEAT:-1}" --warmup 1 --csv "$OUT/heevd-${VECTORS:-all}.csv" |
    grep -v "^# \(command\|time\)"
}
