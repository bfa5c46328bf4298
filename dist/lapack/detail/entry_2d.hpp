// SPDX-License-Identifier: BSD-3-Clause
// What the ScaLAPACK-shaped entries (heevd_2d, gesvd_2d, hetrd_2d, gebrd_2d; private to
// dist/lapack) share: the devices' column block, a descriptor's fields in the ranks'
// agreement, and the checks of one local array, each message under the entry's name.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas::detail {

/// The devices' column block of an entry's 1-D copy: `requested` when > 0, else 256 (the
/// eigen-solver example's and benchmarks' width) but no wider than a multiple of 32 that
/// still gives each of the P devices a block column of the n columns, so that a small
/// matrix is spread too. A multiple of 32 has every automatic panel width as a divisor.
inline int64_t devices_nb(int64_t requested, int64_t n, int P) {
  if (requested > 0) return requested;
  const int64_t share = (std::max<int64_t>(n, 1) + P - 1) / P;
  return std::min<int64_t>(256, (share + 31) / 32 * 32);
}

/// The same blocks and grid as D over its first `cols` columns: its local arrays hold
/// those columns at the same local places (a local column's index does not depend on
/// the width), so exporting into it writes them and nothing else.
inline BlockCyclic2D first_columns(const BlockCyclic2D& D, int64_t cols) {
  return BlockCyclic2D(D.m(), cols, D.mb(), D.nb(), D.nprow(), D.npcol(), D.rsrc(), D.csrc(),
                       D.order());
}

/// Field names of one descriptor in a CallRecord (string literals: they outlive it).
struct DescNames {
  const char *m, *n, *mb, *nb, *nprow, *npcol, *rsrc, *csrc, *order;
};
inline constexpr DescNames kDescA{"desca.m",     "desca.n",    "desca.mb",
                                  "desca.nb",    "desca.nprow", "desca.npcol",
                                  "desca.rsrc",  "desca.csrc", "desca.order"};
inline constexpr DescNames kDescZ{"descz.m",     "descz.n",    "descz.mb",
                                  "descz.nb",    "descz.nprow", "descz.npcol",
                                  "descz.rsrc",  "descz.csrc", "descz.order"};
inline constexpr DescNames kDescU{"descu.m",     "descu.n",    "descu.mb",
                                  "descu.nb",    "descu.nprow", "descu.npcol",
                                  "descu.rsrc",  "descu.csrc", "descu.order"};
inline constexpr DescNames kDescV{"descv.m",     "descv.n",    "descv.mb",
                                  "descv.nb",    "descv.nprow", "descv.npcol",
                                  "descv.rsrc",  "descv.csrc", "descv.order"};

/// A descriptor's fields (lld, each rank's own, is not among them).
inline void add_desc(CallRecord& rec, const DescNames& f, const BlockCyclic2D& D) {
  rec.add(f.m, D.m()).add(f.n, D.n()).add(f.mb, D.mb()).add(f.nb, D.nb())
      .add(f.nprow, D.nprow()).add(f.npcol, D.npcol()).add(f.rsrc, D.rsrc())
      .add(f.csrc, D.csrc()).add(f.order, D.order() == GridOrder::RowMajor ? 'R' : 'C');
}

/// One local array of entry `what`: the grid fits in the ranks, the leading dimension
/// covers this rank's local rows, and the array is not null where this rank holds
/// entries. Raises BadArgument naming the argument (call inside the agreement).
inline void check_local(const char* what, const char* desc_name, const char* array,
                        const char* ld_name, const BlockCyclic2D& D, const void* p, int64_t ld,
                        int me, int nranks) {
  if (D.grid_size() > nranks)
    throw BadArgument(__FILE__, __LINE__, what,
                      concat("argument '", desc_name, "' has a ", D.nprow(), " x ", D.npcol(),
                             " grid = ", D.grid_size(), " processes but the context has ",
                             nranks, " ranks: the grid must fit in the ranks"));
  const int prow = D.prow_of(me);
  if (prow < 0) return;  // outside the grid: the array is not read
  const int64_t locr = D.local_rows(prow), locc = D.local_cols(D.pcol_of(me));
  if (ld < std::max<int64_t>(1, locr))
    throw BadArgument(__FILE__, __LINE__, what,
                      concat("argument '", ld_name, "' (", desc_name, "'s LLD) = ", ld,
                             ": must be >= max(1, local rows) = ", std::max<int64_t>(1, locr),
                             " on rank ", me, " (process (", prow, ", ", D.pcol_of(me),
                             ") of ", desc_name, "'s grid)"));
  if (p == nullptr && locr * locc > 0)
    throw BadArgument(__FILE__, __LINE__, what,
                      concat("argument '", array, "' is a null pointer on rank ", me,
                             ", which holds a ", locr, " x ", locc, " part of ", desc_name,
                             "'s matrix"));
}

/// The in-place entries' work (hetrd_2d, gebrd_2d): the rank's local array `a` of desca
/// into a DistMatrix over every device (column block nb), `reduce` on it, and the result
/// back into `a`; the three times into the profile's redistribute_in, reduce and
/// redistribute_out. `a` is read only where this rank holds part of the grid.
template <Scalar T, typename Profile, typename Reduce>
void reduce_in_place_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& desca, T* a,
                        int64_t lda, int64_t nb, Profile& prof, Reduce&& reduce) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  auto t = clock::now();
  T* local = desca.prow_of(ctx->rank()) >= 0 ? a : nullptr;
  DistMatrix<T> A(ctx, BlockCyclic1D(desca.m(), desca.n(), nb, ctx->global_num_devices()));
  A.import_2d(desca, local, lda);
  prof.redistribute_in = since(t);
  t = clock::now();
  reduce(A);
  prof.reduce = since(t);
  t = clock::now();
  A.export_2d(desca, local, lda);
  prof.redistribute_out = since(t);
}

}  // namespace mgblas::detail
