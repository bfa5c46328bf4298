// SPDX-License-Identifier: BSD-3-Clause
// Shared cases of the distributed Level-2 tests (host devices in CI, GPUs on the device
// machine): one problem drawn from the test's seed (the same on every rank), run through
// gemv_mgpu_offset / symv_mgpu_offset / hemv_mgpu_offset with a given reducer and vector
// forms, compared with the single-device host engine on the submatrix.
//
// Poison: every entry of the stored matrix the call must not read (rows/columns before
// the offsets, the unstored triangle) is NaN, as is y0 when beta = 0 and the entries of a
// block-cyclic y before the first column (which must come back bit-for-bit unchanged).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing::dist {

namespace mt = mgblas::testing;

/// How a vector is passed: host pointer, replicated DistVector, block-cyclic DistVector.
enum class Form { Host, Replicated, BlockCyclic };
inline const char* to_string(Form f) {
  return f == Form::Host ? "host" : f == Form::Replicated ? "replicated" : "block-cyclic";
}

/// A product on the submatrix A(i0:m, j0:n) (symv/hemv: m = n, i0 = j0 = off).
struct Shape {
  int64_t m, n, nb, i0, j0;
};

inline std::string describe(const Context& ctx, const std::string& op, const Shape& s,
                            const Reducer& red, const std::string& extra) {
  std::ostringstream os;
  os << op << " m=" << s.m << " n=" << s.n << " nb=" << s.nb << " i0=" << s.i0 << " j0=" << s.j0
     << " ranks=" << ctx.nranks() << " devices/rank=" << ctx.num_devices() << " reducer="
     << to_string(red.kind()) << " chunks=" << red.pipeline_chunks() << " " << extra
     << " seed=" << mt::test_seed();
  return os.str();
}

/// One drawn problem: A (m x n, column-major, poisoned outside what is read), x, y0,
/// alpha, beta, and the reference y on one host device.
template <Scalar T>
struct Problem {
  char kind;  // 'G' gemv, 'S' symv, 'H' hemv
  Op op = Op::N;
  Uplo uplo = Uplo::Lower;
  Shape s;
  std::vector<T> A, x, y0, y_ref;
  T alpha, beta;
  double norm_A = 0, norm_x = 0, norm_y0 = 0;
  int64_t len_x() const { return kind != 'G' || op == Op::N ? s.n - s.j0 : s.m - s.i0; }
  int64_t len_y() const { return kind != 'G' || op == Op::N ? s.m - s.i0 : s.n - s.j0; }
};

//  +------------------------------------------------------------------------------+
//  |  y_ref = alpha * op(S) * x + beta * y0, S the submatrix, on one host device   |
//  |  err   = ||y - y_ref|| / ((k * |alpha| * ||S||_F * ||x|| + |beta| * ||y0||)   |
//  |          * eps),  k = length of x;  pass: err <= 10 (x sqrt(2) complex)       |
//  |  (symv/hemv: ||S||_F of the full drawn square, >= the stored triangle's)      |
//  +------------------------------------------------------------------------------+
template <Scalar T>
Problem<T> draw(char kind, Op op, Uplo uplo, const Shape& s, std::mt19937_64& rng, bool nan_y) {
  Problem<T> p;
  p.kind = kind;
  p.op = op;
  p.uplo = uplo;
  p.s = s;
  const int64_t m = s.m, n = s.n, sm = m - s.i0, sn = n - s.j0;
  p.A = mt::random_vector<T>(static_cast<std::size_t>(m * n), rng);
  p.x = mt::random_vector<T>(static_cast<std::size_t>(p.len_x()), rng);
  p.y0 = mt::random_vector<T>(static_cast<std::size_t>(p.len_y()), rng);
  p.alpha = mt::random_scalar<T>(rng);
  p.beta = nan_y ? T(0) : mt::random_scalar<T>(rng);
  if (nan_y) std::fill(p.y0.begin(), p.y0.end(), mt::nan_value<T>());

  // The submatrix, contiguous, for the reference; its norm before poisoning.
  std::vector<T> S(static_cast<std::size_t>(std::max<int64_t>(1, sm * sn)));
  for (int64_t j = 0; j < sn; ++j)
    for (int64_t i = 0; i < sm; ++i) S[i + j * sm] = p.A[(s.i0 + i) + (s.j0 + j) * m];
  p.norm_A = mt::norm_fro(sm, sn, S.data(), std::max<int64_t>(1, sm));
  p.norm_x = mt::norm_vec(p.len_x(), p.x.data());
  p.norm_y0 = nan_y ? 0.0 : mt::norm_vec(p.len_y(), p.y0.data());

  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      bool unread = i < s.i0 || j < s.j0;
      if (kind != 'G') unread = unread || (uplo == Uplo::Lower ? i < j : i > j);
      if (unread) p.A[i + j * m] = mt::nan_value<T>();
    }
  if (kind != 'G')
    for (int64_t j = 0; j < sn; ++j)
      for (int64_t i = 0; i < sm; ++i)
        if (uplo == Uplo::Lower ? i < j : i > j) S[i + j * sm] = mt::nan_value<T>();

  p.y_ref = nan_y ? std::vector<T>(static_cast<std::size_t>(p.len_y()), T(0)) : p.y0;
  const Queue q(reference_device());
  const int64_t lds = std::max<int64_t>(1, sm);
  if (kind == 'G')
    gemv(q, op, sm, sn, p.alpha, S.data(), lds, p.x.data(), 1, p.beta, p.y_ref.data(), 1);
  else if (kind == 'S')
    symv(q, uplo, sn, p.alpha, S.data(), lds, p.x.data(), 1, p.beta, p.y_ref.data(), 1);
  else
    hemv(q, uplo, sn, p.alpha, S.data(), lds, p.x.data(), 1, p.beta, p.y_ref.data(), 1);
  return p;
}

template <Scalar T>
double scaled_error(const Problem<T>& p, const T* y) {
  return mt::scaled_error(mt::norm_diff(p.len_y(), y, 1, p.y_ref.data(), 1), p.len_x(), p.alpha,
                          p.norm_A, p.norm_x, p.beta, p.norm_y0);
}

/// A host copy of n elements of device memory (or host memory of a host device).
template <Scalar T>
std::vector<T> to_host(const Device& dev, const T* p, int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(n));
  dev.make_current();
  copy_vector(dev, n, p, h.data());
  return h;
}

/// What a run returns: this rank's result (the first copy) and the worst scaled error
/// over every copy this rank holds (each local device's for a replicated y), and whether
/// the entries a block-cyclic y must keep came back unchanged.
template <Scalar T>
struct Run {
  std::vector<T> y;
  double error = 0;
  bool kept = true;
};

/// Runs p through the distributed entry on A laid out over red's context with p.s.nb,
/// x and y passed in the given forms.
template <Scalar T>
Run<T> run(Reducer& red, const Problem<T>& p, Form xf, Form yf) {
  const auto& ctx = red.context_ptr();
  const Shape& s = p.s;
  const int P = ctx->global_num_devices();
  const BlockCyclic1D L(s.m, s.n, s.nb, P);
  DistMatrix<T> A(ctx, L);
  A.distribute_replicated(p.A.data(), std::max<int64_t>(1, s.m));
  const BlockCyclic1D columns(1, s.n, s.nb, P);

  // x and y in their forms. A block-cyclic vector is full length (A's columns); the
  // entries before the first column are poison that must not be read (x) or written (y).
  const auto full = [&](const std::vector<T>& v, int64_t first) {
    std::vector<T> f(static_cast<std::size_t>(s.n), mt::nan_value<T>());
    std::copy(v.begin(), v.end(), f.begin() + first);
    return f;
  };
  std::unique_ptr<DistVector<T>> dx, dy;
  if (xf == Form::Replicated) {
    dx = std::make_unique<DistVector<T>>(ctx, p.len_x());
    dx->distribute_replicated(p.x.data());
  } else if (xf == Form::BlockCyclic) {
    dx = std::make_unique<DistVector<T>>(ctx, columns);
    dx->distribute_replicated(full(p.x, s.j0).data());
  }
  std::vector<T> y_host = p.y0;
  std::vector<T> y_full;
  if (yf == Form::Replicated) {
    dy = std::make_unique<DistVector<T>>(ctx, p.len_y());
    dy->distribute_replicated(p.y0.data());
  } else if (yf == Form::BlockCyclic) {
    y_full = full(p.y0, s.j0);
    dy = std::make_unique<DistVector<T>>(ctx, columns);
    dy->distribute_replicated(y_full.data());
  }
  // A host x with a DistVector y (or the reverse) is not a form the API takes: the
  // forms are all host or all DistVector; host-form x stands in for a replicated one.
  std::unique_ptr<DistVector<T>> dx_stand_in;
  if (dy && !dx) {
    dx_stand_in = std::make_unique<DistVector<T>>(ctx, p.len_x());
    dx_stand_in->distribute_replicated(p.x.data());
  }
  std::unique_ptr<DistVector<T>> dy_stand_in;
  if (dx && !dy) {
    dy_stand_in = std::make_unique<DistVector<T>>(ctx, p.len_y());
    dy_stand_in->distribute_replicated(p.y0.data());
  }
  const DistVector<T>* xv = dx ? dx.get() : dx_stand_in.get();
  DistVector<T>* yv = dy ? dy.get() : dy_stand_in.get();

  if (!xv) {
    if (p.kind == 'G')
      gemv_mgpu_offset(red, p.op, p.alpha, A, s.i0, s.j0, p.x.data(), p.beta, y_host.data());
    else if (p.kind == 'S')
      symv_mgpu_offset(red, p.uplo, p.alpha, A, s.i0, p.x.data(), p.beta, y_host.data());
    else
      hemv_mgpu_offset(red, p.uplo, p.alpha, A, s.i0, p.x.data(), p.beta, y_host.data());
  } else {
    if (p.kind == 'G')
      gemv_mgpu_offset(red, p.op, p.alpha, A, s.i0, s.j0, *xv, p.beta, *yv);
    else if (p.kind == 'S')
      symv_mgpu_offset(red, p.uplo, p.alpha, A, s.i0, *xv, p.beta, *yv);
    else
      hemv_mgpu_offset(red, p.uplo, p.alpha, A, s.i0, *xv, p.beta, *yv);
  }

  Run<T> r;
  if (!yv) {
    r.y = y_host;
    r.error = scaled_error(p, r.y.data());
  } else if (yv->kind() == VectorLayout::BlockCyclic) {
    std::vector<T> got(static_cast<std::size_t>(s.n));
    yv->collect(got.data(), -1);
    r.kept = std::memcmp(got.data(), y_full.data(), sizeof(T) * s.j0) == 0;
    r.y.assign(got.begin() + s.j0, got.end());
    r.error = scaled_error(p, r.y.data());
  } else {
    for (int d = 0; d < ctx->num_devices(); ++d) {
      auto copy = to_host(ctx->device(d), yv->local(d), p.len_y());
      r.error = std::max(r.error, scaled_error(p, copy.data()));
      if (d == 0) r.y = std::move(copy);
    }
  }
  return r;
}

/// Checks one run on every rank; returns the run for further comparisons.
template <Scalar T>
Run<T> check(Reducer& red, const Problem<T>& p, Form xf, Form yf, const std::string& extra = "") {
  const Context& ctx = red.context();
  Run<T> r = run(red, p, xf, yf);
  const std::string op = p.kind == 'G' ? std::string("gemv ") + mgblas::to_string(p.op)
                                       : std::string(p.kind == 'S' ? "symv " : "hemv ") +
                                             mgblas::to_string(p.uplo);
  const bool ok = r.error <= mt::error_tolerance<T>() && r.kept;
  EXPECT_TRUE(everywhere(ctx, ok,
                         describe(ctx, op, p.s, red,
                                  std::string("x ") + to_string(xf) + " y " + to_string(yf) +
                                      " " + extra) +
                             " error " + std::to_string(r.error) +
                             (r.kept ? "" : " (entries of y before j0 changed)")));
  return r;
}

/// gemv through every vector form: host, replicated, and block-cyclic where the op
/// takes it (x for op N, y for op T and C).
template <Scalar T>
void check_gemv_forms(Reducer& red, const Problem<T>& p) {
  const Form cyclic_x = p.op == Op::N ? Form::BlockCyclic : Form::Replicated;
  const Form cyclic_y = p.op == Op::N ? Form::Replicated : Form::BlockCyclic;
  check(red, p, Form::Host, Form::Host);
  check(red, p, Form::Replicated, Form::Replicated);
  check(red, p, cyclic_x, cyclic_y);
}

/// beta = 0 with y full of NaN: y must be overwritten, not scaled. gemv N and T on a
/// submatrix (host and replicated vectors), then `kind` ('S' symv, 'H' hemv) on both
/// triangles (replicated).
template <Scalar T>
void check_beta_zero(Reducer& red, char kind, std::mt19937_64& rng) {
  const Shape s{45, 38, 7, 3, 5}, sq{38, 38, 7, 5, 5};
  for (Op op : {Op::N, Op::T}) {
    const auto p = draw<T>('G', op, Uplo::Lower, s, rng, true);
    check(red, p, Form::Host, Form::Host);
    check(red, p, Form::Replicated, Form::Replicated);
  }
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    const auto p = draw<T>(kind, Op::N, uplo, sq, rng, true);
    check(red, p, Form::Replicated, Form::Replicated);
  }
}

/// Shapes over the layout rules: nb of 1, 32, 100, 256 (the list), n not a
/// multiple of nb, more devices than block columns (n <= nb), offsets 0, 1, odd and
/// near the end; square when `square`. Sizes small enough for host devices.
inline std::vector<Shape> shapes(bool square) {
  std::vector<Shape> out = {
      {300, 293, 1, 0, 0},     {301, 300, 32, 1, 7},  {333, 355, 100, 37, 101},
      {517, 600, 256, 3, 255}, {50, 61, 100, 0, 0},   {9, 7, 32, 8, 6},
      {130, 97, 32, 129, 96},  {200, 211, 3, 0, 210},
  };
  if (square)
    for (auto& s : out) {
      s.m = s.n;
      s.i0 = s.j0 = std::min(s.j0, s.n);
    }
  return out;
}

}  // namespace mgblas::testing::dist
