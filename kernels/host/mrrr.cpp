// SPDX-License-Identifier: BSD-3-Clause
// MRRR in two halves over LAPACK's ?larre / ?larrv (see mrrr.hpp). The steps are ?stemr's
// for JOBZ = 'V' with TRYRAC, without the final refinement of the eigenvalues to relative
// accuracy (?larrj: the eigenvalues of a reduced Hermitian matrix are only absolutely
// accurate anyway, and the vectors do not depend on it).
#include "kernels/host/mrrr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "kernels/host/detail/cblas.hpp"

// The halves of ?stemr that LAPACKE does not wrap: the Fortran entries, with the hidden
// length of the character argument last.
extern "C" {
void slarre_(const char* range, const lapack_int* n, float* vl, float* vu, const lapack_int* il,
             const lapack_int* iu, float* d, float* e, float* e2, const float* rtol1,
             const float* rtol2, const float* spltol, lapack_int* nsplit, lapack_int* isplit,
             lapack_int* m, float* w, float* werr, float* wgap, lapack_int* iblock,
             lapack_int* indexw, float* gers, float* pivmin, float* work, lapack_int* iwork,
             lapack_int* info, std::size_t range_len);
void dlarre_(const char* range, const lapack_int* n, double* vl, double* vu,
             const lapack_int* il, const lapack_int* iu, double* d, double* e, double* e2,
             const double* rtol1, const double* rtol2, const double* spltol,
             lapack_int* nsplit, lapack_int* isplit, lapack_int* m, double* w, double* werr,
             double* wgap, lapack_int* iblock, lapack_int* indexw, double* gers,
             double* pivmin, double* work, lapack_int* iwork, lapack_int* info,
             std::size_t range_len);
void slarrr_(const lapack_int* n, const float* d, const float* e, lapack_int* info);
void dlarrr_(const lapack_int* n, const double* d, const double* e, lapack_int* info);
void slarrv_(const lapack_int* n, const float* vl, const float* vu, float* d, float* l,
             const float* pivmin, const lapack_int* isplit, const lapack_int* m,
             const lapack_int* dol, const lapack_int* dou, const float* minrgp,
             const float* rtol1, const float* rtol2, float* w, float* werr, float* wgap,
             const lapack_int* iblock, const lapack_int* indexw, const float* gers, float* z,
             const lapack_int* ldz, lapack_int* isuppz, float* work, lapack_int* iwork,
             lapack_int* info);
void dlarrv_(const lapack_int* n, const double* vl, const double* vu, double* d, double* l,
             const double* pivmin, const lapack_int* isplit, const lapack_int* m,
             const lapack_int* dol, const lapack_int* dou, const double* minrgp,
             const double* rtol1, const double* rtol2, double* w, double* werr, double* wgap,
             const lapack_int* iblock, const lapack_int* indexw, const double* gers,
             double* z, const lapack_int* ldz, lapack_int* isuppz, double* work,
             lapack_int* iwork, lapack_int* info);
}

namespace mgblas::kernels::host {
namespace {

static_assert(std::is_same_v<lapack_int, int>, "MrrrRoot keeps LAPACK's integers as int");

// Error (or E) raised as the public entry `what` (a string literal) that called in.
template <typename E = Error, typename... Args>
[[noreturn]] void fail(const char* what, const Args&... args) {
  throw E(__FILE__, __LINE__, what, ::mgblas::detail::concat(args...));
}

// ?stemr's tolerances for JOBZ = 'V': ?larre needs only rough eigenvalues, ?larrv
// refines them (and uses 4 eps itself when it computes a subset).
template <typename R>
R rtol1() {
  return std::sqrt(std::numeric_limits<R>::epsilon());
}
template <typename R>
R rtol2() {
  return std::max(rtol1<R>() * R(5e-3), 4 * std::numeric_limits<R>::epsilon());
}

// n <= 2: every pair from LAPACK ?stev (?larre's splitting assumes n > 2 in ?stemr),
// then the wanted ones kept.
template <typename R>
void small_root(const char* what, MrrrRoot<R>& root, MrrrRange range, const R* d, const R* e,
                R vl, R vu, int64_t il, int64_t iu) {
  const int64_t n = root.n;
  std::vector<R> dd(d, d + n), ee(static_cast<std::size_t>(std::max<int64_t>(n - 1, 1)), R(0));
  if (n > 1) ee[0] = e[0];
  std::vector<R> z(static_cast<std::size_t>(n * n));
  lapack_int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sstev(LAPACK_COL_MAJOR, 'V', static_cast<lapack_int>(n), dd.data(),
                         ee.data(), z.data(), static_cast<lapack_int>(n));
  else
    info = LAPACKE_dstev(LAPACK_COL_MAJOR, 'V', static_cast<lapack_int>(n), dd.data(),
                         ee.data(), z.data(), static_cast<lapack_int>(n));
  if (info != 0) fail(what, "LAPACK ?stev returned info ", info);
  for (int64_t i = 0; i < n; ++i) {
    const bool wanted = range == MrrrRange::All ||
                        (range == MrrrRange::Index && i >= il && i <= iu) ||
                        (range == MrrrRange::Value && dd[i] > vl && dd[i] <= vu);
    if (!wanted) continue;
    root.small_w.push_back(dd[i]);
    root.small_z.insert(root.small_z.end(), z.begin() + i * n, z.begin() + (i + 1) * n);
  }
  root.m = static_cast<int64_t>(root.small_w.size());
}

}  // namespace

template <typename R>
R MrrrRoot<R>::approx(int64_t i) const {
  if (n <= 2) return small_w[static_cast<std::size_t>(i)];
  const int block = iblock[static_cast<std::size_t>(i)];
  const R shift = l[static_cast<std::size_t>(isplit[static_cast<std::size_t>(block - 1)] - 1)];
  return (w[static_cast<std::size_t>(i)] + shift) / scale;
}

template <typename R>
MrrrRoot<R> mrrr_root(const char* what, MrrrRange range, int64_t n, const R* d, const R* e,
                      R vl, R vu, int64_t il, int64_t iu) {
  MrrrRoot<R> root;
  root.n = n;
  if (n == 0) return root;
  if (n <= 2) {
    small_root(what, root, range, d, e, vl, vu, il, iu);
    return root;
  }
  if (n > std::numeric_limits<lapack_int>::max() / 12)
    fail<BadArgument>(what, "argument 'n' = ", n,
                 ": must fit LAPACK's 32-bit workspace sizes (12 n)");
  const lapack_int ln = static_cast<lapack_int>(n);
  root.d.assign(d, d + n);
  root.l.assign(static_cast<std::size_t>(n), R(0));
  std::copy(e, e + n - 1, root.l.begin());

  // ?stemr's scaling into the range where ?larrd's pivot threshold is meaningful.
  const R safmin = std::numeric_limits<R>::min(), eps = std::numeric_limits<R>::epsilon();
  const R smlnum = safmin / eps, bignum = R(1) / smlnum;
  const R rmin = std::sqrt(smlnum), rmax = std::min(std::sqrt(bignum), R(1) / std::sqrt(std::sqrt(safmin)));
  R tnrm = 0;
  for (int64_t i = 0; i < n; ++i) tnrm = std::max(tnrm, std::abs(d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) tnrm = std::max(tnrm, std::abs(e[i]));
  if (tnrm > 0 && tnrm < rmin) root.scale = rmin / tnrm;
  else if (tnrm > rmax) root.scale = rmax / tnrm;
  if (root.scale != R(1)) {
    for (auto& x : root.d) x *= root.scale;
    for (auto& x : root.l) x *= root.scale;
    vl *= root.scale;
    vu *= root.scale;
  }
  std::vector<R> e2(static_cast<std::size_t>(n), R(0)), work(static_cast<std::size_t>(6 * n));
  for (int64_t i = 0; i + 1 < n; ++i) e2[i] = root.l[i] * root.l[i];
  std::vector<lapack_int> iwork(static_cast<std::size_t>(5 * n));
  root.w.assign(static_cast<std::size_t>(n), R(0));
  root.werr.assign(static_cast<std::size_t>(n), R(0));
  root.wgap.assign(static_cast<std::size_t>(n), R(0));
  root.gers.assign(static_cast<std::size_t>(2 * n), R(0));
  root.isplit.assign(static_cast<std::size_t>(n), 0);
  root.iblock.assign(static_cast<std::size_t>(n), 0);
  root.indexw.assign(static_cast<std::size_t>(n), 0);
  const char r = static_cast<char>(range);
  const lapack_int lil = static_cast<lapack_int>(il + 1), liu = static_cast<lapack_int>(iu + 1);
  // ?stemr's splitting rule (its TRYRAC path): where T warrants relative accuracy (?larrr),
  // split only where an off-diagonal entry is negligible relative to its neighbours on
  // the diagonal (a positive tolerance), else in absolute terms (negative). Splitting
  // absolutely where the relative rule applies cost up to 10x in orthogonality on reduced
  // clustered matrices.
  lapack_int relative = 1;
  if constexpr (std::is_same_v<R, float>) slarrr_(&ln, root.d.data(), root.l.data(), &relative);
  else dlarrr_(&ln, root.d.data(), root.l.data(), &relative);
  const R t1 = rtol1<R>(), t2 = rtol2<R>(), spltol = relative == 0 ? eps : -eps;
  lapack_int nsplit = 0, m = 0, info = 0;
  R wl = vl, wu = vu, pivmin = 0;
  if constexpr (std::is_same_v<R, float>)
    slarre_(&r, &ln, &wl, &wu, &lil, &liu, root.d.data(), root.l.data(), e2.data(), &t1, &t2,
            &spltol, &nsplit, root.isplit.data(), &m, root.w.data(), root.werr.data(),
            root.wgap.data(), root.iblock.data(), root.indexw.data(), root.gers.data(), &pivmin,
            work.data(), iwork.data(), &info, 1);
  else
    dlarre_(&r, &ln, &wl, &wu, &lil, &liu, root.d.data(), root.l.data(), e2.data(), &t1, &t2,
            &spltol, &nsplit, root.isplit.data(), &m, root.w.data(), root.werr.data(),
            root.wgap.data(), root.iblock.data(), root.indexw.data(), root.gers.data(), &pivmin,
            work.data(), iwork.data(), &info, 1);
  if (info != 0)
    fail(what, "LAPACK ?larre (MRRR's root representation) returned info ",
                 info);
  root.isplit.resize(static_cast<std::size_t>(nsplit));
  root.m = m;
  root.wl = wl;
  root.wu = wu;
  root.pivmin = pivmin;
  return root;
}

template <typename R>
void stedc_all(const char* what, int64_t n, const R* d, const R* e, R* z, R* w) {
  if (n == 0) return;
  std::copy_n(d, n, w);
  std::vector<R> ee(static_cast<std::size_t>(n), R(0));
  std::copy_n(e, n - 1, ee.begin());
  const lapack_int ln = static_cast<lapack_int>(n);
  lapack_int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', ln, w, ee.data(), z, ln);
  else
    info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', ln, w, ee.data(), z, ln);
  if (info != 0) fail(what, "LAPACK ?stedc returned info ", info);
}

template <typename R>
int mrrr_vectors(const char* what, const MrrrRoot<R>& root, int64_t first, int64_t count,
                 R* z, int64_t ldz, R* w) {
  const int64_t n = root.n, m = root.m;
  if (count <= 0) return 0;
  if (first < 0 || first + count > m)
    fail(what, "eigenpairs [", first, ", ", first + count,
                 ") asked of an MRRR root with ", m);
  if (n <= 2) {
    for (int64_t j = 0; j < count; ++j) {
      std::copy_n(root.small_z.data() + (first + j) * n, n, z + j * ldz);
      w[j] = root.small_w[static_cast<std::size_t>(first + j)];
    }
    return 0;
  }
  // ?larrv with DOL:DOU writes the columns DOL-1 to DOU+1 of its Z (the outer two as
  // workspace) and addresses them as columns of an n x m array: `buf` holds exactly
  // those, and `base` is where column 1 of the full array would be. No access leaves buf.
  const lapack_int ln = static_cast<lapack_int>(n), lm = static_cast<lapack_int>(m);
  const lapack_int dol = static_cast<lapack_int>(first + 1),
                   dou = static_cast<lapack_int>(first + count);
  const lapack_int zl = dol > 1 ? dol - 1 : 1, zu = dou < lm ? dou + 1 : lm;
  std::vector<R> buf(static_cast<std::size_t>(n) * static_cast<std::size_t>(zu - zl + 1));
  R* base = reinterpret_cast<R*>(reinterpret_cast<std::uintptr_t>(buf.data()) -
                                 sizeof(R) * static_cast<std::size_t>(n) *
                                     static_cast<std::size_t>(zl - 1));
  // The arrays ?larrv overwrites, copied so calls can run side by side.
  std::vector<R> d = root.d, l = root.l, ww = root.w, werr = root.werr, wgap = root.wgap;
  std::vector<R> work(static_cast<std::size_t>(12 * n));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(7 * n)),
      isuppz(static_cast<std::size_t>(2 * m));
  const R minrgp = mrrr_min_relative_gap<R>(), t1 = rtol1<R>(), t2 = rtol2<R>();
  lapack_int info = 0;
  if constexpr (std::is_same_v<R, float>)
    slarrv_(&ln, &root.wl, &root.wu, d.data(), l.data(), &root.pivmin, root.isplit.data(), &lm,
            &dol, &dou, &minrgp, &t1, &t2, ww.data(), werr.data(), wgap.data(),
            root.iblock.data(), root.indexw.data(), root.gers.data(), base, &ln, isuppz.data(),
            work.data(), iwork.data(), &info);
  else
    dlarrv_(&ln, &root.wl, &root.wu, d.data(), l.data(), &root.pivmin, root.isplit.data(), &lm,
            &dol, &dou, &minrgp, &t1, &t2, ww.data(), werr.data(), wgap.data(),
            root.iblock.data(), root.indexw.data(), root.gers.data(), base, &ln, isuppz.data(),
            work.data(), iwork.data(), &info);
  if (info != 0) return info;
  for (int64_t j = 0; j < count; ++j) {
    std::copy_n(buf.data() + (dol - zl + j) * n, n, z + j * ldz);
    w[j] = ww[static_cast<std::size_t>(first + j)] / root.scale;
  }
  return 0;
}

#define MGBLAS_MRRR(R)                                                                     \
  template struct MrrrRoot<R>;                                                             \
  template MrrrRoot<R> mrrr_root<R>(const char*, MrrrRange, int64_t, const R*, const R*, R, \
                                    R, int64_t, int64_t);                                  \
  template int mrrr_vectors<R>(const char*, const MrrrRoot<R>&, int64_t, int64_t, R*,      \
                               int64_t, R*);                                               \
  template void stedc_all<R>(const char*, int64_t, const R*, const R*, R*, R*);
MGBLAS_MRRR(float)
MGBLAS_MRRR(double)
#undef MGBLAS_MRRR

}  // namespace mgblas::kernels::host
