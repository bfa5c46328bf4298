// SPDX-License-Identifier: BSD-3-Clause
// Block programs of the batched GEMM kernels (private): what one thread block does,
// written once over a thread context `Ctx` that gives the thread index and the block
// barrier. On the GPU Ctx is threadIdx.x / __syncthreads (batched_kernels.cuh); the
// emulation test runs the same code with one CPU thread per CUDA thread and a
// std::barrier, so the index arithmetic is checked on machines without a GPU.
//
// Two families, both templates over the device scalar D and an alpha/beta Policy:
//   SmallGemm  sizes up to 32, one block holds E whole entries (E is a run-time
//              launch parameter), the Jhurani/Mullowney "several matrices per block"
//              design with compile-time sizes (exact) or bounds (variable size);
//   TiledGemm  one block computes a kBM x kBN tile of one entry's C with a register
//              tile per thread, k walked in kBK steps through shared memory (the
//              MAGMA batched design); any size, blocks beyond an entry's C exit at
//              once (early termination for variable sizes).
// Op(A) and op(B) are run-time flags: the transposition happens when an operand is
// copied into shared memory, so the arithmetic is the same for all nine pairs and one
// instance serves them all (the paper's figure 4: a few percent).
#pragma once

#include "kernels/cuda/batched/batched_scalar.cuh"

namespace mgblas::kernels::cuda::batched::dev {

constexpr int ceil_div_c(int a, int b) { return (a + b - 1) / b; }
constexpr int max_c(int a, int b) { return a > b ? a : b; }
/// Odd strides in shared memory: a warp walking a column (stride 1) or a row (stride
/// odd) of a staged matrix touches 32 distinct banks, for 4-, 8- and 16-byte scalars.
constexpr int odd_c(int v) { return v | 1; }

// ---------------------------------------------------------------------------------
// SmallGemm
// ---------------------------------------------------------------------------------

/// kM, kN, kK: the sizes (kExact) or their bounds (variable size, or fixed sizes below
/// the bounds); kTm x kTn: the C elements of one thread, rows ti + u * kRt and columns
/// tj + v * kCt (strided, so that neighbouring threads read neighbouring shared words).
/// A thread tile as large as the matrix makes one thread compute a whole entry.
template <typename D, int kM, int kN, int kK, int kTm, int kTn, bool kExact, int kPolicy>
struct SmallGemm {
  using Scalar = D;
  static constexpr int kRt = ceil_div_c(kM, kTm);  ///< thread rows per entry
  static constexpr int kCt = ceil_div_c(kN, kTn);  ///< thread columns per entry
  static constexpr int kThreadsPerEntry = kRt * kCt;
  static constexpr bool kRowsFit = kRt * kTm == kM;
  static constexpr bool kColsFit = kCt * kTn == kN;
  // Shared memory per entry, in elements: op(A) kM x kK (column stride kLdA), op(B)
  // kK x kN (column stride kLdB); later the kM x kN result (kLdC) over the same space.
  static constexpr int kLdA = odd_c(kM);
  static constexpr int kSizeA = odd_c(kLdA * kK);
  static constexpr int kLdB = odd_c(kK);
  static constexpr int kSizeB = odd_c(kLdB * kN);
  static constexpr int kLdC = odd_c(kM);
  static constexpr int kSizeC = odd_c(kLdC * kN);
  static constexpr int kSharedPerEntry = max_c(kSizeA + kSizeB, kSizeC);
  // Loads per thread: an entry's elements over its threads (independent of E).
  static constexpr int kLoadsA = ceil_div_c(kM * kK, kThreadsPerEntry);
  static constexpr int kLoadsB = ceil_div_c(kK * kN, kThreadsPerEntry);
  static constexpr int kLoadsC = ceil_div_c(kM * kN, kThreadsPerEntry);
  /// Launch bounds from the accumulator registers (kTm * kTn scalars): up to 8
  /// registers 1024 threads (64 registers each), up to 16 512 threads (128), else 256.
  static constexpr int kAccRegisters = kTm * kTn * static_cast<int>(sizeof(D)) / 4;
  static constexpr int kMaxThreads = kAccRegisters <= 8 ? 1024 : (kAccRegisters <= 16 ? 512 : 256);
  /// Loads per operand in flight at once: a quarter of the register budget of the
  /// launch bounds each for A's and B's values (64 bytes under 64 registers, else 128).
  static constexpr int kChunk = (kMaxThreads >= 1024 ? 64 : 128) / static_cast<int>(sizeof(D));
  static constexpr int kChunks = ceil_div_c(max_c(kLoadsA, kLoadsB), kChunk);
  static_assert(kM >= 1 && kN >= 1 && kK >= 1 && kM <= 64 && kN <= 64 && kK <= 64);
  static_assert(kTm >= 1 && kTn >= 1 && kThreadsPerEntry <= kMaxThreads);

  /// Copy the stored elements of operand X (stored kRows x kCols, op(X) = X or X^T)
  /// of the block's entries into registers: element f of the block's flattened
  /// (entry, column, row) order goes to thread f mod T, so a warp reads consecutive
  /// addresses of compactly stored entries. Outside an entry's sizes: zero.
  template <bool kTrans, int kRowsOp, int kColsOp, int kLoads, typename Sizes>
  MGBLAS_BATCHED_FN static void load(const Operand<const D>& x, int64_t e0, int count, int t,
                                     int T, int u0, Sizes sizes, D* v) {
    // op(X) is kRowsOp x kColsOp; X is stored transposed when kTrans. Loads u0 ..
    // u0 + kChunk - 1 of the thread's kLoads into v[0 .. kChunk - 1].
    constexpr int kRows = kTrans ? kColsOp : kRowsOp;
    constexpr int kPer = kRowsOp * kColsOp;
    MGBLAS_BATCHED_UNROLL
    for (int w = 0; w < kChunk; ++w) {
      const int u = u0 + w;
      if (u >= kLoads) break;
      const int f = t + u * T;
      const int e = f / kPer;
      const int rem = f - e * kPer;
      const int col = rem / kRows;
      const int row = rem - col * kRows;
      D val{};
      if (e < count) {
        const int64_t g = e0 + e;
        int64_t rows_op = kRowsOp, cols_op = kColsOp;
        if constexpr (!kExact) sizes(g, rows_op, cols_op);
        const int64_t rows = kTrans ? cols_op : rows_op, cols = kTrans ? rows_op : cols_op;
        if (row < rows && col < cols) val = x.entry(g)[row + col * x.ld_of(g)];
      }
      v[w] = val;
    }
  }

  /// The registers of load() into shared memory at their op() positions:
  /// op(X)(i, l) at s[e * kEntry + l * kLd + i] (kLd odd: transposed stores do not
  /// collide in one bank), conjugated on request. Entries past `count` get zeros.
  template <bool kTrans, int kRowsOp, int kColsOp, int kLoads, int kLd, int kEntry>
  MGBLAS_BATCHED_FN static void stage(D* s, int E, int t, int T, int u0, bool conj_x,
                                      const D* v) {
    constexpr int kRows = kTrans ? kColsOp : kRowsOp;
    constexpr int kPer = kRowsOp * kColsOp;
    MGBLAS_BATCHED_UNROLL
    for (int w = 0; w < kChunk; ++w) {
      const int u = u0 + w;
      if (u >= kLoads) break;
      const int f = t + u * T;
      const int e = f / kPer;
      if (e >= E) continue;
      const int rem = f - e * kPer;
      const int col = rem / kRows;
      const int row = rem - col * kRows;
      const int i = kTrans ? col : row, l = kTrans ? row : col;
      s[e * kEntry + l * kLd + i] = maybe_conj(v[w], conj_x);
    }
  }

  /// The block program. Block `block` holds entries [block * E, block * E + E) of the
  /// launch; blockDim.x must be E * kThreadsPerEntry and the dynamic shared memory
  /// E * kSharedPerEntry elements. Three barriers: operands staged, products done,
  /// results staged.
  template <typename Ctx>
  MGBLAS_BATCHED_FN static void run(const BatchArgs<D>& args, Ctx& ctx, D* smem, int64_t block) {
    const int E = args.entries_per_block;
    const int T = E * kThreadsPerEntry;
    const int t = ctx.thread();
    const int64_t e0 = block * E;
    const int count = static_cast<int>(args.batch - e0 < E ? args.batch - e0 : E);

    // 1. operands, in chunks of at most kChunk loads of A and kChunk of B per thread
    // (all in flight before the chunk's first shared store; with more per chunk the
    // values and their addresses would not fit the register budget).
    const auto sizes_a = [&](int64_t g, int64_t& rows, int64_t& cols) {
      rows = args.m_of(g);
      cols = args.k_of(g);
    };
    const auto sizes_b = [&](int64_t g, int64_t& rows, int64_t& cols) {
      rows = args.k_of(g);
      cols = args.n_of(g);
    };
    D* sA = smem;
    D* sB = smem + E * kSizeA;
    MGBLAS_BATCHED_UNROLL
    for (int c = 0; c < kChunks; ++c) {
      const int u0 = c * kChunk;
      D va[kChunk], vb[kChunk];
      if (args.trans_a) load<true, kM, kK, kLoadsA>(args.a, e0, count, t, T, u0, sizes_a, va);
      else load<false, kM, kK, kLoadsA>(args.a, e0, count, t, T, u0, sizes_a, va);
      if (args.trans_b) load<true, kK, kN, kLoadsB>(args.b, e0, count, t, T, u0, sizes_b, vb);
      else load<false, kK, kN, kLoadsB>(args.b, e0, count, t, T, u0, sizes_b, vb);
      if (args.trans_a)
        stage<true, kM, kK, kLoadsA, kLdA, kSizeA>(sA, E, t, T, u0, args.conj_a, va);
      else stage<false, kM, kK, kLoadsA, kLdA, kSizeA>(sA, E, t, T, u0, args.conj_a, va);
      if (args.trans_b)
        stage<true, kK, kN, kLoadsB, kLdB, kSizeB>(sB, E, t, T, u0, args.conj_b, vb);
      else stage<false, kK, kN, kLoadsB, kLdB, kSizeB>(sB, E, t, T, u0, args.conj_b, vb);
    }
    ctx.sync();

    // 2. products: thread (ti, tj) of entry e, its kTm x kTn elements in registers.
    const int e = t / kThreadsPerEntry;
    const int local = t - e * kThreadsPerEntry;
    const int ti = local % kRt, tj = local / kRt;
    D acc[kTm][kTn];
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kTm; ++u)
      MGBLAS_BATCHED_UNROLL
      for (int v = 0; v < kTn; ++v) acc[u][v] = D{};
    {
      const D* a = sA + e * kSizeA + ti;
      const D* b = sB + e * kSizeB + tj * kLdB;
      MGBLAS_BATCHED_UNROLL
      for (int l = 0; l < kK; ++l) {
        D ra[kTm], rb[kTn];
        MGBLAS_BATCHED_UNROLL
        for (int u = 0; u < kTm; ++u)
          ra[u] = (kRowsFit || ti + u * kRt < kM) ? a[l * kLdA + u * kRt] : D{};
        MGBLAS_BATCHED_UNROLL
        for (int v = 0; v < kTn; ++v)
          rb[v] = (kColsFit || tj + v * kCt < kN) ? b[v * kCt * kLdB + l] : D{};
        MGBLAS_BATCHED_UNROLL
        for (int u = 0; u < kTm; ++u)
          MGBLAS_BATCHED_UNROLL
          for (int v = 0; v < kTn; ++v) acc[u][v] = mul_add(ra[u], rb[v], acc[u][v]);
      }
    }
    ctx.sync();  // the operands are read by all threads before sC overwrites them

    // 3. results into shared memory, then out in flattened order (coalesced, as the
    // loads were), with beta * C read in the same order when needed.
    D* sC = smem;
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kTm; ++u)
      MGBLAS_BATCHED_UNROLL
      for (int v = 0; v < kTn; ++v) {
        const int i = ti + u * kRt, j = tj + v * kCt;
        if ((kRowsFit || i < kM) && (kColsFit || j < kN)) sC[e * kSizeC + j * kLdC + i] = acc[u][v];
      }
    ctx.sync();
    constexpr int kPer = kM * kN;
    static_assert(kLoadsC <= 32, "the store mask is one 32-bit word");
    const bool read_c = kPolicy == kGeneral && !args.beta_zero;
    // Which of the thread's kLoadsC elements exist, and beta's C values read first
    // (all loads in flight before the first store).
    uint32_t inside = 0;
    D c0[kLoadsC];
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kLoadsC; ++u) {
      const int f = t + u * T;
      const int ee = f / kPer;
      const int rem = f - ee * kPer;
      const int j = rem / kM, i = rem - j * kM;
      c0[u] = D{};
      if (ee >= count) continue;
      const int64_t g = e0 + ee;
      if constexpr (!kExact)
        if (i >= args.m_of(g) || j >= args.n_of(g)) continue;
      inside |= 1u << u;
      if (read_c) c0[u] = args.c.entry(g)[i + j * args.c.ld_of(g)];
    }
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kLoadsC; ++u) {
      if (!(inside & (1u << u))) continue;
      const int f = t + u * T;
      const int ee = f / kPer;
      const int rem = f - ee * kPer;
      const int j = rem / kM, i = rem - j * kM;
      const int64_t g = e0 + ee;
      const D r = sC[ee * kSizeC + j * kLdC + i];
      D& out = args.c.entry(g)[i + j * args.c.ld_of(g)];
      if constexpr (kPolicy == kAlphaOneBetaZero) out = r;
      else out = read_c ? mul_add(args.alpha, r, mul(args.beta, c0[u])) : mul(args.alpha, r);
    }
  }
};

// ---------------------------------------------------------------------------------
// TiledGemm
// ---------------------------------------------------------------------------------

/// kBM x kBN tile of C per block, kBK-deep steps; kDX x kDY threads, each computing a
/// (kBM / kDX) x (kBN / kDY) register tile at rows tx + u * kDX, columns ty + v * kDY.
template <typename D, int kBM, int kBN, int kBK, int kDX, int kDY, int kPolicy>
struct TiledGemm {
  using Scalar = D;
  static constexpr int kTileM = kBM, kTileN = kBN;
  static constexpr int kThreads = kDX * kDY;
  static constexpr int kMaxThreads = kThreads;
  static constexpr int kTm = kBM / kDX, kTn = kBN / kDY;
  static constexpr int kLdA = odd_c(kBM);  // sA[l * kLdA + i]: op(A) tile kBM x kBK
  static constexpr int kLdB = odd_c(kBK);  // sB[j * kLdB + l]: op(B) tile kBK x kBN
  static constexpr int kSharedA = kLdA * kBK, kSharedB = kLdB * kBN;
  static constexpr int kSharedElements = kSharedA + kSharedB;
  static constexpr int kLoadsA = kBM * kBK / kThreads, kLoadsB = kBK * kBN / kThreads;
  static_assert(kBM % kDX == 0 && kBN % kDY == 0, "the thread grid must divide the tile");
  static_assert(kBM * kBK % kThreads == 0 && kBK * kBN % kThreads == 0,
                "every thread loads the same number of tile elements");
  static_assert(kThreads >= 32 && kThreads <= 1024);

  /// Tile elements of op(X) (kRowsOp x kColsOp at (r0, c0) of op(X), whose sizes are
  /// rows_op x cols_op) into registers, in the stored order of X (coalesced).
  template <bool kTrans, int kRowsOp, int kColsOp, int kLoads>
  MGBLAS_BATCHED_FN static void load(const D* x, int64_t ld, int64_t r0, int64_t c0,
                                     int64_t rows_op, int64_t cols_op, int t, D* v) {
    constexpr int kRows = kTrans ? kColsOp : kRowsOp;
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kLoads; ++u) {
      const int f = t + u * kThreads;
      const int col = f / kRows, row = f - col * kRows;
      // (row, col) of the stored tile is op(X)(i, l) with i, l:
      const int64_t i = r0 + (kTrans ? col : row), l = c0 + (kTrans ? row : col);
      v[u] = (i < rows_op && l < cols_op)
                 ? x[kTrans ? l + i * ld : i + l * ld]
                 : D{};
    }
  }

  /// The registers of load() into shared memory, op(X)(i, l) at s[l * kLd + i]
  /// (column-major, kLd odd so that transposed stores spread over the banks).
  template <bool kTrans, int kRowsOp, int kColsOp, int kLoads, int kLd>
  MGBLAS_BATCHED_FN static void stage(D* s, int t, bool conj_x, const D* v) {
    constexpr int kRows = kTrans ? kColsOp : kRowsOp;
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kLoads; ++u) {
      const int f = t + u * kThreads;
      const int col = f / kRows, row = f - col * kRows;
      const int i = kTrans ? col : row, l = kTrans ? row : col;
      s[l * kLd + i] = maybe_conj(v[u], conj_x);
    }
  }

  /// The block program: block `block` of the launch is tile (block mod tiles) of entry
  /// (block / tiles), tiles = tiles_m * tiles_n, row tiles fastest. blockDim.x must be
  /// kThreads; shared memory kSharedElements elements.
  template <typename Ctx>
  MGBLAS_BATCHED_FN static void run(const BatchArgs<D>& args, Ctx& ctx, D* smem, int64_t block) {
    const int64_t tiles = static_cast<int64_t>(args.tiles_m) * args.tiles_n;
    const int64_t g = block / tiles;
    const int tile = static_cast<int>(block - g * tiles);
    const int64_t m = args.m_of(g), n = args.n_of(g), k = args.k_of(g);
    const int64_t i0 = static_cast<int64_t>(tile % args.tiles_m) * kBM;
    const int64_t j0 = static_cast<int64_t>(tile / args.tiles_m) * kBN;
    // Early termination: the whole block leaves before its first barrier.
    if (i0 >= m || j0 >= n) return;
    const int t = ctx.thread();
    const int tx = t % kDX, ty = t / kDX;
    const D* A = args.a.entry(g);
    const D* B = args.b.entry(g);
    const int64_t lda = args.a.ld_of(g), ldb = args.b.ld_of(g);
    D* sA = smem;
    D* sB = smem + kSharedA;

    D acc[kTm][kTn];
    MGBLAS_BATCHED_UNROLL
    for (int u = 0; u < kTm; ++u)
      MGBLAS_BATCHED_UNROLL
      for (int v = 0; v < kTn; ++v) acc[u][v] = D{};

    for (int64_t l0 = 0; l0 < k; l0 += kBK) {
      D va[kLoadsA], vb[kLoadsB];
      if (args.trans_a) load<true, kBM, kBK, kLoadsA>(A, lda, i0, l0, m, k, t, va);
      else load<false, kBM, kBK, kLoadsA>(A, lda, i0, l0, m, k, t, va);
      // op(B) is k x n; its tile is kBK x kBN at (l0, j0).
      if (args.trans_b) load<true, kBK, kBN, kLoadsB>(B, ldb, l0, j0, k, n, t, vb);
      else load<false, kBK, kBN, kLoadsB>(B, ldb, l0, j0, k, n, t, vb);
      if (args.trans_a) stage<true, kBM, kBK, kLoadsA, kLdA>(sA, t, args.conj_a, va);
      else stage<false, kBM, kBK, kLoadsA, kLdA>(sA, t, args.conj_a, va);
      if (args.trans_b) stage<true, kBK, kBN, kLoadsB, kLdB>(sB, t, args.conj_b, vb);
      else stage<false, kBK, kBN, kLoadsB, kLdB>(sB, t, args.conj_b, vb);
      ctx.sync();
      MGBLAS_BATCHED_UNROLL
      for (int l = 0; l < kBK; ++l) {
        D ra[kTm], rb[kTn];
        MGBLAS_BATCHED_UNROLL
        for (int u = 0; u < kTm; ++u) ra[u] = sA[l * kLdA + tx + u * kDX];
        MGBLAS_BATCHED_UNROLL
        for (int v = 0; v < kTn; ++v) rb[v] = sB[(ty + v * kDY) * kLdB + l];
        MGBLAS_BATCHED_UNROLL
        for (int u = 0; u < kTm; ++u)
          MGBLAS_BATCHED_UNROLL
          for (int v = 0; v < kTn; ++v) acc[u][v] = mul_add(ra[u], rb[v], acc[u][v]);
      }
      ctx.sync();  // before the next step overwrites the tiles
    }

    D* C = args.c.entry(g);
    const int64_t ldc = args.c.ld_of(g);
    const bool read_c = kPolicy == kGeneral && !args.beta_zero;
    MGBLAS_BATCHED_UNROLL
    for (int v = 0; v < kTn; ++v) {
      const int64_t j = j0 + ty + v * kDY;
      MGBLAS_BATCHED_UNROLL
      for (int u = 0; u < kTm; ++u) {
        const int64_t i = i0 + tx + u * kDX;
        if (i >= m || j >= n) continue;
        D& c = C[i + j * ldc];
        if constexpr (kPolicy == kAlphaOneBetaZero) c = acc[u][v];
        else c = read_c ? mul_add(args.alpha, acc[u][v], mul(args.beta, c)) : mul(args.alpha, acc[u][v]);
      }
    }
  }
};

}  // namespace mgblas::kernels::cuda::batched::dev
