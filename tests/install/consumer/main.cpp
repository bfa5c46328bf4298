// SPDX-License-Identifier: BSD-3-Clause
// Installed-package check, C++ API: y = A x on one host device and on a matrix
// distributed over two host devices, against values worked out by hand.
#include <mgblas/mgblas.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  mgblas::ContextOptions opts;
  opts.backend = mgblas::BackendChoice::Host;
  opts.host_devices = 2;
  auto ctx = mgblas::Context::create(opts);

  // A = [1 2 3; 4 5 6] (column-major), x = [1 1 1] -> A x = [6 15].
  const std::vector<double> A = {1, 4, 2, 5, 3, 6};
  const std::vector<double> x = {1, 1, 1};
  std::vector<double> y(2, -1);
  mgblas::gemv<double>(ctx->device(0), mgblas::Op::N, 2, 3, 1.0, A.data(), 2, x.data(), 1, 0.0,
                       y.data(), 1);
  std::vector<double> yd(2, -1);
  mgblas::DistMatrix<double> dA(ctx, mgblas::BlockCyclic1D(2, 3, 1, ctx->global_num_devices()));
  dA.distribute(A.data(), 2, 0);
  mgblas::gemv_mgpu(mgblas::Op::N, 1.0, dA, x.data(), 0.0, yd.data());

  const bool ok = y[0] == 6 && y[1] == 15 && std::abs(yd[0] - 6) < 1e-12 && std::abs(yd[1] - 15) < 1e-12;
  std::printf("mgblas %s consumer (C++): gemv [%g %g], gemv_mgpu on %d devices [%g %g]: %s\n",
              MGBLAS_VERSION_STRING, y[0], y[1], ctx->global_num_devices(), yd[0], yd[1],
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
