// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester: one binary, a sub-command per routine (STYLE.md section 9).
//
//   mgblas-tester <routine> [options of that routine]
//   mgblas-tester blas --op gemv,symv --type d -n 4096     (the former tester_blas)
//   mgblas-tester gemv --type d -n 4096                    (blas --op gemv)
//   mpirun -np 2 mgblas-tester dist --op symv -n 32768
//   mgblas-tester --help | mgblas-tester <routine> --help
//
// The routine's options, header lines, columns and exit status are those of its
// tester_<routine>.cpp; the sub-command gets argv[0] = "mgblas-tester <routine>", so the
// '# command:' line repeats the command as typed.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "testers/subcommands.hpp"

namespace {

struct Subcommand {
  const char* name;
  int (*main)(int, char**);
  const char* op;  // --op given to the routine when the command line has none, or nullptr
  const char* help;
};

namespace mt = mgblas::testers;

constexpr Subcommand kSubcommands[] = {
    {"blas", mt::blas_main, nullptr, "single-GPU level 2 (gemv, symv/hemv) against cuBLAS"},
    {"level2", mt::blas_main, nullptr, "the same as blas"},
    {"gemv", mt::blas_main, "gemv", "blas --op gemv"},
    {"symv", mt::blas_main, "symv", "blas --op symv (hemv for c, z)"},
    {"tsgemm", mt::tsgemm_main, nullptr, "tall-and-skinny GEMM (TSM2R/L, row-tiled) vs cuBLAS"},
    {"batched", mt::batched_main, nullptr, "batched small GEMM vs cuBLAS"},
    {"dist", mt::dist_main, nullptr, "distributed gemv/symv/hemv over GPUs and ranks"},
    {"allreduce", mt::allreduce_main, nullptr, "the reductions' per-column all-reduce"},
    {"band2tri", mt::band2tri_main, nullptr, "band-to-tridiagonal bulge chase vs LAPACK sb2st"},
#if MGBLAS_TESTER_LAPACK
    {"hetrd", mt::hetrd_main, nullptr, "distributed tridiagonal reduction vs cuSOLVER"},
    {"gebrd", mt::gebrd_main, nullptr, "distributed bidiagonal reduction vs cuSOLVER"},
    {"unmtr", mt::unmtr_main, nullptr, "distributed application of hetrd's Q vs cuSOLVER"},
    {"redistribute", mt::redistribute_main, nullptr, "ScaLAPACK 2-D layout in and out (MPI)"},
    {"heevd", mt::heevd_main, nullptr, "distributed eigen-solver with vectors vs cuSOLVER"},
    {"svd", mt::svd_main, nullptr, "distributed singular value decomposition vs cuSOLVER"},
#endif
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: mgblas-tester <routine> [options]   (mgblas-tester <routine> --help)\n"
               "routines:\n");
  for (const auto& s : kSubcommands) std::fprintf(out, "  %-10s %s\n", s.name, s.help);
#if !MGBLAS_TESTER_LAPACK
  std::fprintf(out, "  (hetrd, gebrd, unmtr, redistribute, heevd and svd need a build with MPI)\n");
#endif
}

bool has_op(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--op" || a.starts_with("--op=")) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string_view routine = argv[1];
  if (routine == "-h" || routine == "--help" || routine == "help") {
    usage(stdout);
    return 0;
  }
  for (const auto& s : kSubcommands) {
    if (routine != s.name) continue;
    // argv of the routine: "mgblas-tester <routine>", [--op <op>], then the rest.
    std::string self = std::string("mgblas-tester ") + s.name;
    std::string op_flag = "--op", op_value = s.op ? s.op : "";
    std::vector<char*> args{self.data()};
    if (s.op && !has_op(argc, argv)) {
      args.push_back(op_flag.data());
      args.push_back(op_value.data());
    }
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    return s.main(static_cast<int>(args.size()) - 1, args.data());
  }
  std::fprintf(stderr, "mgblas-tester: unknown routine '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
