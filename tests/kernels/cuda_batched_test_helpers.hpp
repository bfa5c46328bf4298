// SPDX-License-Identifier: BSD-3-Clause
// The pointer-array and variable-size batched calls as test_cuda_batched and
// test_cuda_batched_engine both make them: the host engine for the reference, then the
// GPU with every pointer array (and size and leading dimension) uploaded. One copy, so
// that both tests call the two engines the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/blas.hpp"
#include "tests/kernels/batched_test_helpers.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {

/// gemm_batched over `entries` (all m x n x k, leading dimensions lda, ldb, ldc) on the
/// host engine into C_ref (a copy of C0 on entry) and on the GPU; returns the GPU's C.
template <Scalar T>
std::vector<T> batched_on_both(Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                               int64_t lda, int64_t ldb, T beta, int64_t ldc,
                               const std::vector<EntryView>& entries, const std::vector<T>& A,
                               const std::vector<T>& B, const std::vector<T>& C0,
                               std::vector<T>& C_ref) {
  const auto batch = static_cast<int64_t>(entries.size());
  const auto h = entry_pointers(entries, A.data(), B.data(), C_ref.data());
  gemm_batched<T>(host(), opA, opB, m, n, k, alpha, h.a.data(), lda, h.b.data(), ldb, beta,
                  h.c.data(), ldc, batch);
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  {
    const auto d = upload(entry_pointers(entries, dA.data(), dB.data(), dC.data()));
    gemm_batched<T>(gpu(), opA, opB, m, n, k, alpha, d.a.data(), lda, d.b.data(), ldb, beta,
                    d.c.data(), ldc, batch);
    gpu().synchronize();  // before the pointer arrays are freed
  }
  return download(dC);
}

/// The per-entry arrays of a variable-size batch and the bounds passed with them.
struct VbatchedArrays {
  const std::vector<int64_t>&m, &n, &k, &lda, &ldb, &ldc;
  int64_t max_m, max_n, max_k;
};

/// gemm_vbatched over `entries` on the host engine into C_ref (a copy of C0 on entry)
/// and on the GPU; returns the GPU's C.
template <Scalar T>
std::vector<T> vbatched_on_both(Op opA, Op opB, const VbatchedArrays& s, T alpha, T beta,
                                const std::vector<EntryView>& entries, const std::vector<T>& A,
                                const std::vector<T>& B, const std::vector<T>& C0,
                                std::vector<T>& C_ref) {
  const auto batch = static_cast<int64_t>(entries.size());
  const auto h = entry_pointers(entries, A.data(), B.data(), C_ref.data());
  gemm_vbatched<T>(host(), opA, opB, s.m.data(), s.n.data(), s.k.data(), alpha, h.a.data(),
                   s.lda.data(), h.b.data(), s.ldb.data(), beta, h.c.data(), s.ldc.data(), batch,
                   s.max_m, s.max_n, s.max_k);
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  {
    const auto d = upload(entry_pointers(entries, dA.data(), dB.data(), dC.data()));
    const DeviceBuffer<int64_t> dm = upload(s.m), dn = upload(s.n), dk = upload(s.k),
                                dlda = upload(s.lda), dldb = upload(s.ldb), dldc = upload(s.ldc);
    gemm_vbatched<T>(gpu(), opA, opB, dm.data(), dn.data(), dk.data(), alpha, d.a.data(),
                     dlda.data(), d.b.data(), dldb.data(), beta, d.c.data(), dldc.data(), batch,
                     s.max_m, s.max_n, s.max_k);
    gpu().synchronize();  // before the size and pointer arrays are freed
  }
  return download(dC);
}

}  // namespace mgblas::testing
