// SPDX-License-Identifier: BSD-3-Clause
// The tuning tables of the three CUDA engines, without a GPU (the decisions are host
// code):
// - the shipped tables decide exactly as the rules they replaced (the constexpr level-2
//   rules and tsgemm arrays of main, copied here as the oracle; the batched JSON tables
//   of main as data/batched_tables_before.txt) over a dense grid of shapes;
// - MGBLAS_TUNING_TABLE (a file or a directory) overrides them, MGBLAS_BATCHED_TABLE
//   still works for the batched engine's older files;
// - a malformed table is an error naming the file and the field.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "kernels/cuda/batched/batched.hpp"
#include "kernels/cuda/batched/batched_table.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "kernels/cuda/tsgemm/tsgemm_dispatch.hpp"
#include "kernels/cuda/common/tuning_table.hpp"

namespace mgblas::testing {
namespace {

namespace l2 = kernels::cuda::level2;
namespace tsm2 = kernels::cuda::tsm2;
namespace bt = kernels::cuda::batched;

/// Sizes 1..2^17: powers of two, their neighbours, and every rule boundary of the old
/// tables (63/64, 512, 1024, 4096, 6144, 2^31 / n).
std::vector<int64_t> sizes() {
  std::set<int64_t> s;
  for (int64_t p = 1; p <= (int64_t{1} << 17); p *= 2)
    for (int64_t d : {-1, 0, 1})
      if (p + d >= 1) s.insert(p + d);
  for (int64_t b : {3, 5, 12, 13, 24, 25, 31, 33, 48, 49, 63, 64, 96, 97, 100, 6143, 6144, 6145, 10000})
    s.insert(b);
  return {s.begin(), s.end()};
}

void set_env(const char* name, const std::string& value) {
  ASSERT_EQ(setenv(name, value.c_str(), 1), 0);
  kernels::cuda::common::reload();
}
void clear_env() {
  unsetenv("MGBLAS_TUNING_TABLE");
  unsetenv("MGBLAS_BATCHED_TABLE");
  kernels::cuda::common::reload();
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

/// The message of the BadArgument `f` throws ("" where it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const BadArgument& e) {
    return e.what();
  }
  return "";
}

// ---- level 2: the rules of kernels/cuda/common/level2_table.hpp on main (4a5d76a) ----

namespace before {
using l2::Engine;
using l2::Kind;
struct Rule {
  int cc;
  char prec;
  Kind kind;
  char uplo;
  int64_t max_min_dim, max_dim;
  Engine engine;
  int variant;
  const char* label;
};
constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
constexpr Rule kLevel2Rules[] = {
    {90, '*', Kind::GemvN, '*', 63, kAny, Engine::Cublas, 0, "cublas [sm90 gemvN skinny: not measured]"},
    {90, '*', Kind::GemvT, '*', 63, kAny, Engine::Cublas, 0, "cublas [sm90 gemvT skinny: not measured]"},
    {90, 'z', Kind::GemvN, '*', kAny, 1024, Engine::Mgblas, 1, "mgblas v1 [sm90 z gemvN n<=1024: 1.05-1.45x]"},
    {90, '*', Kind::GemvN, '*', kAny, 4096, Engine::Cublas, 0, "cublas [sm90 gemvN n<=4096: mgblas 0.85-0.99x]"},
    {90, 'z', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 z gemvN large: 0.99-1.05x]"},
    {90, '*', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 gemvN large: 1.00-1.15x]"},
    {90, 's', Kind::GemvT, '*', kAny, 4096, Engine::Cublas, 0, "cublas [sm90 s gemvT n<=4096: mgblas 0.8-1.0x]"},
    {90, 's', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 s gemvT large: 1.01-1.19x]"},
    {90, 'd', Kind::GemvT, '*', kAny, 512, Engine::Cublas, 1, "cublas [H200 d gemvT n<=512: mgblas 0.86-1.02x]"},
    {90, 'd', Kind::GemvT, '*', kAny, 1024, Engine::Mgblas, 3, "mgblas v3 [H200 d gemvT n<=1024: 1.43x]"},
    {90, '*', Kind::GemvT, '*', kAny, kAny, Engine::Cublas, 1, "cublas [H200 d/c/z gemvT: mgblas v1 0.93-1.00x]"},
    {90, 's', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 s symv: 0.94-3.5x]"},
    {90, 'd', Kind::Symv, 'L', kAny, 512, Engine::Cublas, 0, "cublas [H200 d symvL n<=512: mgblas 0.87-1.01x]"},
    {90, 'd', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [H200 d symv: 1.13-3.97x]"},
    {90, 'c', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 c hemv: 1.0-3.0x]"},
    {90, 'z', Kind::Symv, '*', kAny, 4096, Engine::Mgblas, 2, "mgblas v2 [H200 z hemv n<=4096: 1.15-2.50x]"},
    {90, 'z', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 3, "mgblas v3 [H200 z hemv n>4096: 1.21-2.59x]"},
    {0, '*', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvN]"},
    {0, '*', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvT]"},
    {0, '*', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default symv]"},
};
/// built: the tuning sets built (choose_gemv's gemv_variant_count). The first rule was
/// code in level2_dispatch.cpp's choose_gemv until it moved into the tables.
l2::Choice lookup(int cc, char prec, Kind kind, char uplo, int64_t min_dim, int64_t max_dim,
                  int built = 1) {
  if (kind == Kind::GemvT && min_dim * max_dim >= (int64_t{1} << 31) && built > 1)
    return {Engine::Mgblas, 1, "mgblas v1 [gemvT, m n >= 2^31: cuBLAS at half speed there]"};
  for (const Rule& r : kLevel2Rules)
    if ((r.cc == 0 || r.cc == cc) && (r.prec == '*' || r.prec == prec) && r.kind == kind &&
        (r.uplo == '*' || r.uplo == uplo) && min_dim <= r.max_min_dim && max_dim <= r.max_dim)
      return {r.engine, r.variant, r.label};
  return {Engine::Mgblas, 0, "mgblas v0 [no rule]"};
}
}  // namespace before

TEST(Level2Table, same_as_before) {
  clear_env();
  const auto n = sizes();
  int64_t checked = 0;
  for (int cc : {90, 80, 86, 89, 100, 120})
    for (const char* p = enabled_precision_letters(); *p; ++p)
      for (auto [kind, uplos] : {std::pair{l2::Kind::GemvN, "*"}, std::pair{l2::Kind::GemvT, "*"},
                                 std::pair{l2::Kind::Symv, "LU"}})
        for (const char* u = uplos; *u; ++u)
          for (std::size_t i = 0; i < n.size(); ++i)
            for (std::size_t j = kind == l2::Kind::Symv ? i : 0; j < (kind == l2::Kind::Symv ? i + 1 : n.size()); ++j) {
              const int64_t lo = std::min(n[i], n[j]), hi = std::max(n[i], n[j]);
              for (int built : {1, 2, 4}) {
                const l2::Choice want = before::lookup(cc, *p, kind, *u, lo, hi, built);
                const l2::Choice got = l2::decide(cc, *p, kind, *u, lo, hi, built);
                ASSERT_EQ(got.engine, want.engine) << cc << *p << int(kind) << *u << " " << lo << " " << hi;
                ASSERT_EQ(got.variant, want.variant) << want.label;
                ASSERT_STREQ(got.label, want.label);
                ++checked;
              }
            }
  EXPECT_GT(checked, 10000);
}

// ---- tsgemm: kCublasFraction and kTsm2rMeasuredCublas of tsgemm_tuning.hpp on main ----

namespace before {
struct CublasTable {
  double tsm2r[4][4], tsm2l[4][4], tsmttsm[4][4];
};
inline constexpr CublasTable kCublasFraction{
    {{0.70, 0.68, 0.52, 0.43}, {0.93, 0.93, 0.93, 0.93}, {0.39, 0.39, 0.39, 0.33},
     {0.93, 0.93, 0.90, 0.69}},
    {{0.18, 0.27, 0.42, 0.55}, {0.20, 0.33, 0.58, 0.78}, {0.14, 0.26, 0.37, 0.47},
     {0.26, 0.42, 0.71, 0.58}},
    {{0.07, 0.12, 0.22, 0.25}, {0.24, 0.47, 0.80, 0.91}, {0.08, 0.16, 0.30, 0.45},
     {0.35, 0.65, 0.90, 0.94}}};
inline constexpr bool kTsm2rMeasuredCublas[4][4] = {
    {false, false, false, true}, {false, false, false, false},
    {false, false, true, true},  {false, false, false, false}};
}  // namespace before

TEST(TsgemmTable, same_as_before) {
  clear_env();
  int64_t checked = 0;
  for (int cc : {90, 80, 86, 100})
    for (const char* p = enabled_precision_letters(); *p; ++p)
      for (tsm2::Engine e : {tsm2::Engine::Tsm2r, tsm2::Engine::Tsm2l, tsm2::Engine::Tsmttsm})
        for (int64_t small : sizes()) {
          const int prec = static_cast<int>(data_type_of_letter(*p));
          const int cls = small <= 4 ? 0 : small <= 8 ? 1 : small <= 16 ? 2 : 3;
          const bool measured = e == tsm2::Engine::Tsm2r && before::kTsm2rMeasuredCublas[prec][cls];
          const double frac = e == tsm2::Engine::Tsm2l     ? before::kCublasFraction.tsm2l[prec][cls]
                              : e == tsm2::Engine::Tsmttsm ? before::kCublasFraction.tsmttsm[prec][cls]
                                                           : before::kCublasFraction.tsm2r[prec][cls];
          const tsm2::CublasRule r = tsm2::cublas_rule(cc, *p, e, small);
          ASSERT_TRUE(r.found) << cc << *p << small;
          ASSERT_EQ(r.cublas, measured) << cc << *p << int(e) << " " << small;
          if (!measured) ASSERT_EQ(r.fraction, frac) << cc << *p << int(e) << " " << small;
          ++checked;
        }
  EXPECT_GT(checked, 1000);
}

// ---- batched: the JSON tables of main, as the loader of main read them ----------------

TEST(BatchedTable, same_as_before) {
  clear_env();
  // Oracle: (arch, prec, ops, class) -> (kernel, entries per block).
  std::map<std::tuple<std::string, char, std::string, std::string>, std::pair<std::string, int>> old;
  std::ifstream in(std::string(MGBLAS_TEST_DATA_DIR) + "/batched_tables_before.txt");
  ASSERT_TRUE(in) << MGBLAS_TEST_DATA_DIR;
  std::set<std::string> classes;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string arch, prec, ops, cls, kernel;
    int epb = 0;
    f >> arch >> prec >> ops >> cls >> kernel >> epb;
    old[{arch, prec[0], ops, cls}] = {kernel, epb};
    classes.insert(cls);
  }
  ASSERT_EQ(old.size(), 636u);
  auto old_lookup = [&](const std::string& arch, char prec, const std::string& ops,
                        const std::string& cls) -> const std::pair<std::string, int>* {
    for (const std::string& o : {ops, std::string("*")})
      if (auto it = old.find({arch, prec, o, cls}); it != old.end()) return &it->second;
    return nullptr;
  };
  // Every class the old tables name, and those of a grid of problems.
  const auto n = sizes();
  for (const auto iface : {bt::Interface::Strided, bt::Interface::PointerArray, bt::Interface::Variable})
    for (int64_t m : n)
      for (int64_t k : {int64_t{1}, int64_t{4}, int64_t{8}, int64_t{16}, int64_t{32}, int64_t{100}, int64_t{129}, m}) {
        if (m > 512 && k != m) continue;
        classes.insert(bt::size_class({iface, 'd', Op::N, Op::N, m, m, k, 1, false}));
        classes.insert(bt::size_class({iface, 'd', Op::N, Op::N, m, std::max<int64_t>(1, m / 2), k, 1, false}));
      }
  int64_t checked = 0, found = 0;
  for (const char* arch : {"sm_90", "sm_80", "sm_86", "sm_100"})
    for (const char* p = enabled_precision_letters(); *p; ++p)
      for (Op a : {Op::N, Op::T, Op::C})
        for (Op b : {Op::N, Op::T, Op::C})
          for (const std::string& cls : classes) {
            const std::string ops = bt::op_pair(a, b);
            const auto* want = old_lookup(arch, *p, ops, cls);
            const auto got = bt::detail::table_lookup(arch, *p, ops, cls);
            ASSERT_EQ(got.has_value(), want != nullptr) << arch << *p << ops << cls;
            ++checked;
            if (!want) continue;
            ++found;
            ASSERT_EQ(got->kernel, want->first) << arch << *p << ops << cls;
            ASSERT_EQ(got->entries_per_block, want->second) << arch << *p << ops << cls;
          }
  EXPECT_GT(found, 1000);
  EXPECT_GT(checked, found);
}

// ---- overrides and errors ----------------------------------------------------------

TEST(TuningTable, override_file_and_directory) {
  clear_env();
  const std::string table = R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90",
      "source": "test", "command": "test", "commit": "none", "entries": [
      {"op": "gemvT", "precision": "d", "class": "n<=2048", "max_dim": 2048, "choice": "mgblas",
       "variant": 2, "speedup": 1.5, "label": "test rule"}]})";
  const std::string dir = ::testing::TempDir() + "mgblas_tuning_override";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/level2_sm_90.json";
  std::ofstream(path) << table;
  for (const std::string& where : {path, dir}) {
    set_env("MGBLAS_TUNING_TABLE", where);
    const l2::Choice c = l2::decide(90, 'd', l2::Kind::GemvT, '*', 2000, 2000, 1);
    EXPECT_EQ(c.engine, l2::Engine::Mgblas);
    EXPECT_EQ(c.variant, 2);
    EXPECT_STREQ(c.label, "test rule");
    // Where the override has no entry, the shipped table decides.
    EXPECT_STREQ(l2::decide(90, 'd', l2::Kind::GemvT, '*', 4000, 4000, 1).label,
                 before::lookup(90, 'd', l2::Kind::GemvT, '*', 4000, 4000).label);
    EXPECT_STREQ(l2::decide(80, 'd', l2::Kind::GemvT, '*', 2000, 2000, 1).label, "mgblas v0 [default gemvT]");
    EXPECT_NE(bt::table_sources().find(path), std::string::npos) << bt::table_sources();
  }
  clear_env();
  EXPECT_STRNE(l2::decide(90, 'd', l2::Kind::GemvT, '*', 2000, 2000, 1).label, "test rule");
  std::filesystem::remove_all(dir);

  // The batched engine's older name and format.
  const std::string old = write("mgblas_tuning_old_batched.json", R"({"format": "mgblas-batched-table/1",
      "tables": {"sm_90": {"note": "test", "d": {"TN": {"4x4x4": {"kernel": "tiled_x",
      "entries_per_block": 3}}, "*": {"5x5x5": {"kernel": "cublas"}}}, "summary": {"d": {}}}}})");
  set_env("MGBLAS_BATCHED_TABLE", old);
  const auto tn = bt::detail::table_lookup("sm_90", 'd', "TN", "4x4x4");
  ASSERT_TRUE(tn.has_value());
  EXPECT_EQ(tn->kernel, "tiled_x");
  EXPECT_EQ(tn->entries_per_block, 3);
  EXPECT_EQ(tn->origin, old);
  EXPECT_EQ(bt::detail::table_lookup("sm_90", 'd', "CC", "5x5x5")->kernel, "cublas");
  clear_env();
  std::remove(old.c_str());

  // tsgemm: a table for sm_90 beside the shipped one for any architecture.
  const std::string ts = write("mgblas_tuning_tsgemm.json", R"({"format": "mgblas-tuning/1",
      "engine": "tsgemm", "arch": "sm_90", "entries": [{"op": "tsm2l", "precision": "*",
      "class": "max(k,n)<=8", "max_small": 8, "choice": "cublas", "cublas_fraction": 0.5}]})");
  set_env("MGBLAS_TUNING_TABLE", ts);
  EXPECT_TRUE(tsm2::cublas_rule(90, 'z', tsm2::Engine::Tsm2l, 8).cublas);
  EXPECT_FALSE(tsm2::cublas_rule(80, 'z', tsm2::Engine::Tsm2l, 8).cublas);
  EXPECT_EQ(tsm2::cublas_rule(90, 'z', tsm2::Engine::Tsm2l, 9).fraction, 0.71);
  clear_env();
  std::remove(ts.c_str());
}

TEST(TuningTable, malformed_tables_name_the_file_and_field) {
  struct Case {
    const char* text;
    const char* field;
  };
  const Case cases[] = {
      {"{ not json", "not JSON"},
      {R"({"format": "mgblas-tuning/2", "engine": "level2", "arch": "sm_90", "entries": []})", "'format'"},
      {R"({"format": "mgblas-tuning/1", "engine": "gemm", "arch": "sm_90", "entries": []})", "'engine'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "90", "entries": []})", "'arch'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90"})", "'entries'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90", "entries": [
          {"op": "gemvN", "precision": "d", "class": "any", "choice": "cublas"},
          {"op": "gemvN", "precision": "d", "class": "any"}]})", "'entries[1].choice'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90", "entries": [
          {"op": "gemvN", "precision": "q", "class": "any", "choice": "cublas"}]})", "'entries[0].precision'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90", "entries": [
          {"op": "gemvN", "precision": "d", "class": "any", "choice": "mgblas", "variant": -1}]})", "'entries[0].variant'"},
      // Fields only the engine knows: checked when its dispatcher compiles the tables.
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90", "entries": [
          {"op": "gemv", "precision": "d", "class": "any", "choice": "mgblas"}]})", "entries[0]: field 'op'"},
      {R"({"format": "mgblas-tuning/1", "engine": "level2", "arch": "sm_90", "entries": [
          {"op": "gemvN", "precision": "d", "class": "any", "choice": "v2"}]})", "entries[0]: field 'choice'"},
  };
  for (const Case& c : cases) {
    const std::string path = write("mgblas_tuning_bad.json", c.text);
    set_env("MGBLAS_TUNING_TABLE", path);
    const std::string what = error_of([] { l2::decide(90, 'd', l2::Kind::GemvN, '*', 100, 100, 1); });
    EXPECT_NE(what.find(path), std::string::npos) << c.text << "\n -> " << what;
    EXPECT_NE(what.find(c.field), std::string::npos) << c.text << "\n -> " << what;
    std::remove(path.c_str());
  }
  set_env("MGBLAS_TUNING_TABLE", ::testing::TempDir() + "mgblas_no_such_table.json");
  EXPECT_NE(error_of([] { bt::table_sources(); }).find("cannot read"), std::string::npos);
  clear_env();
  EXPECT_EQ(error_of([] { l2::decide(90, 'd', l2::Kind::GemvN, '*', 100, 100, 1); }), "");
  // The shipped tables: every engine, for sm_80 and sm_90 or for any architecture.
  const std::string s = bt::table_sources();
  for (const char* t : {"level2/any.json", "level2/sm_80.json", "level2/sm_90.json", "tsgemm/any.json",
                        "batched/sm_80.json", "batched/sm_90.json"})
    EXPECT_NE(s.find(t), std::string::npos) << s;
}

}  // namespace
}  // namespace mgblas::testing
