# SPDX-License-Identifier: BSD-3-Clause
"""The manifest of mgblas's public operations: one entry per operation, from which
api/generate.py writes the C declarations and entry points, the low-level Python
bindings, the .pyi stubs, the API table of docs/api.md and the surface test's list.

An entry names the operation as the C++ API spells it (the C API prefixes the precision
letter, `mgblas_dgemv_mgpu`; Python uses the name as it is), says which precisions it
has, whether it runs on one device (an `_async` form with a stream comes with it) or is
collective over a context's ranks, and lists its arguments in BLAS order with their
roles. Roles (ARGUMENT_ROLES below) carry the C type and how each surface converts the
argument; an entry whose C++ call does not follow from its arguments gives it as `cpp`.

docs/adding-an-operation.md walks through adding one.
"""

# role -> (C type, what the argument is). T is the operation's scalar, R its real type.
ARGUMENT_ROLES = {
    "op": ("mgblas_op_t", "transpose letter N, T or C"),
    "uplo": ("mgblas_uplo_t", "triangle letter L or U"),
    "vect": ("mgblas_vect_t", "which factor of a bidiagonal reduction, letter Q or P"),
    "int": ("int64_t", "size, leading dimension, stride, offset or count"),
    "scalar": ("T", "scalar of the operation's precision"),
    "real": ("R", "real scalar"),
    "in": ("const T*", "array read (device memory for a single-device entry, host memory "
                       "the same on every rank for a collective one)"),
    "out": ("T*", "array written (as `in` for where it lives)"),
    "out_opt": ("T*", "array written (as `out`), or NULL (none: what it would receive is not "
                      "returned)"),
    "real_in": ("const R*", "real array read"),
    "real_out": ("R*", "real array written"),
    "int_out": ("int64_t*", "count written (host memory; every rank receives it)"),
    "range": ("mgblas_range_t", "which eigenvalues, LAPACK's RANGE: A all, I the indices "
                                "il..iu, V the interval (vl, vu]; with the entry's vl, vu, il, "
                                "iu (RANGE_BOUNDS)"),
    "ints": ("const int64_t*", "array of sizes or leading dimensions"),
    "in_ptrs": ("const T* const*", "array of pointers to matrices read"),
    "out_ptrs": ("T* const*", "array of pointers to matrices written"),
    "ops": ("const mgblas_op_t*", "array of transpose letters, one per group"),
    "scalars": ("const T*", "array of scalars, one per group (host memory)"),
    "matrix": ("mgblas_matrix_t", "block-cyclic distributed matrix of the context"),
    "matrix_opt": ("mgblas_matrix_t", "block-cyclic distributed matrix of the context, or "
                                      "NULL (none: what it would receive is not computed)"),
    "tiled": ("mgblas_matrix_t", "row-tiled distributed matrix of the context"),
    "local_in": ("const T* const*", "one pointer per local device, in its memory"),
    "local_out": ("T* const*", "one pointer per local device, in its memory"),
    "options": ("const mgblas_reduction_options_t*", "options of a reduction (NULL: defaults)"),
    "desc2d": ("const mgblas_desc2d_t*", "ScaLAPACK-style 2-D block-cyclic layout of the "
                                         "local array listed right after it (mgblas_desc2d_t; "
                                         "the same on every rank but for lld, that array's "
                                         "leading dimension)"),
    "desc2d_opt": ("const mgblas_desc2d_t*", "as desc2d, or NULL (none: the local array after "
                                             "it is not read and what it would receive is not "
                                             "computed)"),
    "local_2d_in": ("const T*", "this rank's local array of the desc2d before it (host memory, "
                                "column-major, leading dimension desc->lld; NULL where the rank "
                                "holds none of the matrix)"),
    "local_2d_out": ("T*", "as local_2d_in, written (and read first where the operation "
                           "overwrites its input, as hetrd_2d and gebrd_2d do)"),
}

# The arguments that an entry with a `range` argument lists with it (their roles real, real,
# int, int): LAPACK's VL, VU, IL, IU, here 0-based. Only those of the chosen range are read.
RANGE_BOUNDS = ("vl", "vu", "il", "iu")

# What every operation of a group shares, said once in the C header and docs/api.md.
GROUPS = {
    "Level 2, one device":
        "Single device. The plain forms are queued on the device's own stream, each _async "
        "form on `stream` (a cudaStream_t passed as void*, so this header needs no CUDA "
        "include; NULL: the device's own stream; ignored on a host device, which computes "
        "before returning). Pointers are the device's memory. The _offset forms work on "
        "the submatrix at (row_off, col_off) (gemv) or (off, off) (symv, hemv) of A.",
    "GEMM, one device":
        "Single device, queued as the Level-2 entries are. The batched forms: strided; "
        "arrays of pointers; variable sizes with per-entry arrays in device memory and "
        "host bounds max_m/n/k; groups of one shape each with per-group host arrays "
        "(cuBLAS's gemmGroupedBatched).",
    "Band reduction, one device":
        "Single device, queued as the Level-2 entries are: stage two of the two-stage "
        "tridiagonal reduction (the bulge chase, LAPACK's ?sytrd_sb2st / ?hetrd_hb2st) and "
        "its back-transformation, and stage two of the two-stage bidiagonal reduction (the "
        "upper band's chase to bidiagonal form, whose Q2 and P2 the same back-transformation "
        "applies). Every array is the device's memory. The C names keep the "
        "C++ names (mgblas_<p>band_to_tridiag, not LAPACK's sytrd_sb2st / hetrd_hb2st): the "
        "arguments are not LAPACK's (no VECT, HOUS or WORK; 0-based reflector layout of "
        "kernels/lapack.hpp), and one name serves the real and the complex precisions.",
    "Level 2, distributed":
        "Collective over ctx's ranks; A a block-cyclic matrix of ctx. x and y are host "
        "vectors, the same x on every rank; every rank receives the full y. The _offset "
        "forms work on the trailing submatrix A(i0:m, j0:n) (gemv), A(off:n, off:n) (symv, "
        "hemv); x and y have its lengths.",
    "GEMM, distributed":
        "Collective. tsgemm_mgpu works on row-tiled matrices "
        "(mgblas_matrix_create_row_tiled), B the same host array on every rank; the "
        "k-split form returns the host C whole on every rank. The batched forms split the "
        "batch over every device of every rank (host arrays; C on every rank on return); "
        "the _local form takes data already split over the devices: A[d], B[d], C[d] hold "
        "entry 0 of local device d's share.",
    "ScaLAPACK-shaped entries":
        "Collective over the context's ranks, on matrices held as ScaLAPACK holds them: each "
        "rank passes its local array of a 2-D block-cyclic layout (mgblas_desc2d_t, e.g. from "
        "mgblas_desc2d_from_scalapack; host memory) and the call moves them to and from the "
        "context's devices itself (mgblas_matrix_import_2d / _export_2d). The descriptors "
        "describe whole matrices (ScaLAPACK's ia = ja = 1). Inputs are left untouched; "
        "outputs are written in place, only where the routine says.",
    "Reductions and eigenvalues":
        "Collective over the context's ranks, LAPACK's routines on a distributed matrix. "
        "Vectors (d, e, tau, w, the replicated A and B of her2k/syr2k) are host memory, the "
        "same on every rank; outputs arrive on every rank. The _ex forms take a "
        "mgblas_reduction_options_t (NULL or all zeros: the defaults). The eigen-solver's "
        "subsets are LAPACK ?syevr's (range, vl, vu, il, iu) with il and iu counted from 0.",
}

ALL = "sdcz"
REAL = "sd"


def op(name, kind, args, doc, precisions=ALL, cpp=None, c_names=None, python_binding=True,
       group=""):
    """One operation. kind: 'single' (one device; _async form) or 'collective'.
    args: 'role name' strings. cpp: the C++ call when it does not follow from args, with
    {T} for the scalar type, {queue} for a single-device entry's queue, {ctx} for the context's shared_ptr, {args} for all converted
    arguments in order and {name} for one of them. c_names: letter ->
    C name after the 'mgblas_<letter>' prefix where it differs from `name` (sytrd/hetrd).
    python_binding: False when the Python extension binds it by hand (python/src)."""
    parsed = []
    for a in args:
        role, arg = a.split()
        assert role in ARGUMENT_ROLES, f"{name}: unknown role {role}"
        parsed.append((role, arg))
    for k, (role, arg) in enumerate(parsed):  # a local array follows its descriptor
        if role in ("local_2d_in", "local_2d_out"):
            assert k > 0 and parsed[k - 1][0] in ("desc2d", "desc2d_opt"), \
                f"{name}: '{role} {arg}' must come right after its desc2d"
    if any(role == "range" for role, _ in parsed):
        bounds = dict((arg, role) for role, arg in parsed)
        for arg, role in zip(RANGE_BOUNDS, ("real", "real", "int", "int")):
            assert bounds.get(arg) == role, f"{name}: a range needs '{role} {arg}'"
    return dict(name=name, kind=kind, args=parsed, doc=doc, precisions=precisions, cpp=cpp,
                c_names=c_names or {}, python_binding=python_binding, group=group)


GEMV = ["op op", "int m", "int n", "scalar alpha", "in A", "int lda", "in x", "int incx",
        "scalar beta", "out y", "int incy"]
GEMV_OFFSET = GEMV[:6] + ["int row_off", "int col_off"] + GEMV[6:]
SYMV = ["uplo uplo", "int n", "scalar alpha", "in A", "int lda", "in x", "int incx",
        "scalar beta", "out y", "int incy"]
SYMV_OFFSET = SYMV[:5] + ["int off"] + SYMV[5:]
GEMM = ["op opA", "op opB", "int m", "int n", "int k", "scalar alpha", "in A", "int lda",
        "in B", "int ldb", "scalar beta", "out C", "int ldc"]
STRIDED = ["op opA", "op opB", "int m", "int n", "int k", "scalar alpha", "in A", "int lda",
           "int strideA", "in B", "int ldb", "int strideB", "scalar beta", "out C", "int ldc",
           "int strideC", "int batch"]
DIST_GEMV = ["op op", "scalar alpha", "matrix A", "in x", "scalar beta", "out y"]
DIST_SYMV = ["uplo uplo", "scalar alpha", "matrix A", "in x", "scalar beta", "out y"]

OPERATIONS = [
    # ---- single device: Level 2 --------------------------------------------------
    op("gemv", "single", GEMV, "y = alpha op(A) x + beta y", group="Level 2, one device"),
    op("gemv_offset", "single", GEMV_OFFSET,
       "gemv on the submatrix of A at (row_off, col_off)", group="Level 2, one device"),
    op("symv", "single", SYMV, "y = alpha A x + beta y, A symmetric (complex: complex "
       "symmetric), its uplo triangle read", group="Level 2, one device"),
    op("symv_offset", "single", SYMV_OFFSET, "symv on the diagonal submatrix of A at "
       "(off, off)", group="Level 2, one device"),
    op("hemv", "single", SYMV, "y = alpha A x + beta y, A Hermitian", group="Level 2, one device"),
    op("hemv_offset", "single", SYMV_OFFSET, "hemv on the diagonal submatrix of A at "
       "(off, off)", group="Level 2, one device"),
    # ---- single device: GEMM -----------------------------------------------------
    op("gemm", "single", GEMM, "C = alpha op(A) op(B) + beta C", group="GEMM, one device"),
    op("tsgemm", "single", GEMM, "gemm by the tall-and-skinny engine (TSM2R/TSM2L)",
       group="GEMM, one device"),
    op("gemm_batched_strided", "single", STRIDED, "batch GEMMs of one shape, operands at "
       "fixed strides", group="GEMM, one device"),
    op("gemm_batched", "single",
       ["op opA", "op opB", "int m", "int n", "int k", "scalar alpha", "in_ptrs Aarray",
        "int lda", "in_ptrs Barray", "int ldb", "scalar beta", "out_ptrs Carray", "int ldc",
        "int batch"],
       "batch GEMMs of one shape, operands by device arrays of pointers",
       group="GEMM, one device"),
    op("gemm_vbatched", "single",
       ["op opA", "op opB", "ints m", "ints n", "ints k", "scalar alpha", "in_ptrs Aarray",
        "ints lda", "in_ptrs Barray", "ints ldb", "scalar beta", "out_ptrs Carray",
        "ints ldc", "int batch", "int max_m", "int max_n", "int max_k"],
       "batch GEMMs of their own sizes (device arrays; host bounds max_m/n/k)",
       group="GEMM, one device"),
    op("gemm_grouped", "single",
       ["int group_count", "ops opA", "ops opB", "ints m", "ints n", "ints k",
        "scalars alpha", "in_ptrs Aarray", "ints lda", "in_ptrs Barray", "ints ldb",
        "scalars beta", "out_ptrs Carray", "ints ldc", "ints group_size"],
       "groups of GEMMs, one shape per group (host arrays per group)",
       group="GEMM, one device"),
    # ---- single device: band reduction --------------------------------------------
    op("band_to_tridiag", "single",
       ["int n", "int b", "out AB", "int ldab", "real_out d", "real_out e", "out_opt V2",
        "out_opt tau2"],
       "T = Q2^H B Q2: the band matrix B (half-bandwidth b, LAPACK's lower band storage in "
       "AB, ldab >= b + 1; AB is workspace, unspecified on return) to the real tridiagonal "
       "(d: n, e: n - 1); where V2 is not NULL, Q2's reflectors into V2 (n (n - 1) / 2) and "
       "tau2 ((n - 1) T0, T0 = (n - 2) / b + 1, at most 2 for b = 1); tau2 is not read when V2 "
       "is NULL",
       group="Band reduction, one device"),
    op("band_to_tridiag_apply_q", "single",
       ["op op", "int n", "int b", "in V2", "in tau2", "int m", "out C", "int ldc"],
       "C = op(Q2) C (n x m, ldc >= max(1, n); op N or C, real T also T) with the Q2 that "
       "band_to_tridiag(n, b) left in V2 and tau2",
       group="Band reduction, one device"),
    op("band_to_bidiag", "single",
       ["int n", "int b", "in AB", "int ldab", "real_out d", "real_out e", "out_opt VQ",
        "out_opt tauQ", "out_opt VP", "out_opt tauP"],
       "B = Q2 bidiag(d, e) P2^H: the upper band matrix B (b superdiagonals, LAPACK's upper "
       "band storage in AB, ldab >= b + 1; read only; complex B(0, 0) taken as real) to the "
       "real upper bidiagonal (d: n, e: n - 1); where VQ is not NULL, Q2's reflectors into "
       "VQ and tauQ and P2's into VP and tauP, each in band_to_tridiag's V2 and tau2 layout "
       "(band_to_tridiag_apply_q applies them); tauQ, VP, tauP are not read when VQ is NULL",
       group="Band reduction, one device"),
    # ---- collective: Level 2 -----------------------------------------------------
    op("gemv_mgpu", "collective", DIST_GEMV, "y = alpha op(A) x + beta y, A distributed; "
       "y on every rank", python_binding=False, group="Level 2, distributed"),
    op("symv_mgpu", "collective", DIST_SYMV, "symv on a distributed A",
       python_binding=False, group="Level 2, distributed"),
    op("hemv_mgpu", "collective", DIST_SYMV, "hemv on a distributed A",
       python_binding=False, group="Level 2, distributed"),
    op("gemv_mgpu_offset", "collective",
       DIST_GEMV[:3] + ["int i0", "int j0"] + DIST_GEMV[3:],
       "gemv_mgpu on the trailing submatrix A(i0:m, j0:n)", python_binding=False,
       group="Level 2, distributed"),
    op("symv_mgpu_offset", "collective", DIST_SYMV[:3] + ["int off"] + DIST_SYMV[3:],
       "symv_mgpu on the trailing submatrix A(off:n, off:n)", python_binding=False,
       group="Level 2, distributed"),
    op("hemv_mgpu_offset", "collective", DIST_SYMV[:3] + ["int off"] + DIST_SYMV[3:],
       "hemv_mgpu on the trailing submatrix A(off:n, off:n)", python_binding=False,
       group="Level 2, distributed"),
    # ---- collective: GEMM --------------------------------------------------------
    op("tsgemm_mgpu", "collective",
       ["op opB", "scalar alpha", "tiled A", "in B", "int ldb", "scalar beta", "tiled C"],
       "C = alpha A op(B) + beta C, A and C row-tiled alike, B replicated",
       cpp="mgblas::tsgemm_mgpu<{T}>({ctx}, {opB}, {alpha}, {A}, {B}, ldb, {beta}, {C})",
       group="GEMM, distributed"),
    op("tsgemm_mgpu_ksplit", "collective",
       ["op opA", "scalar alpha", "tiled A", "tiled B", "scalar beta", "out C", "int ldc"],
       "C = alpha op(A) B + beta C, A and B row-tiled alike, C on every rank",
       cpp="mgblas::tsgemm_mgpu<{T}>({ctx}, {opA}, {alpha}, {A}, {B}, {beta}, {C}, ldc)",
       group="GEMM, distributed"),
    op("gemm_batched_strided_mgpu", "collective", STRIDED,
       "gemm_batched_strided split over every device of every rank; host arrays, C on "
       "every rank", cpp="mgblas::gemm_batched_strided_mgpu<{T}>({ctx}, {args})",
       group="GEMM, distributed"),
    op("gemm_vbatched_mgpu", "collective",
       ["op opA", "op opB", "ints m", "ints n", "ints k", "scalar alpha", "in_ptrs Aarray",
        "ints lda", "in_ptrs Barray", "ints ldb", "scalar beta", "out_ptrs Carray",
        "ints ldc", "int batch"],
       "gemm_vbatched split over every device of every rank; host arrays",
       cpp="mgblas::gemm_vbatched_mgpu<{T}>({ctx}, {args})", group="GEMM, distributed"),
    op("gemm_batched_strided_mgpu_local", "collective",
       ["op opA", "op opB", "int m", "int n", "int k", "scalar alpha", "local_in A",
        "int lda", "int strideA", "local_in B", "int ldb", "int strideB", "scalar beta",
        "local_out C", "int ldc", "int strideC", "int batch"],
       "gemm_batched_strided on data already split over the local devices",
       cpp="mgblas::gemm_batched_strided_mgpu_local<{T}>({ctx}, {args})",
       group="GEMM, distributed"),
    # ---- collective: LAPACK-style ------------------------------------------------
    op("her2k_mgpu", "collective",
       ["uplo uplo", "int k", "scalar alpha", "in A", "int lda", "in B", "int ldb",
        "real beta", "matrix C"],
       "C = alpha A B^H + conj(alpha) B A^H + beta C on C's uplo triangle; A, B replicated",
       group="Reductions and eigenvalues"),
    op("syr2k_mgpu", "collective",
       ["uplo uplo", "int k", "scalar alpha", "in A", "int lda", "in B", "int ldb",
        "scalar beta", "matrix C"],
       "C = alpha A B^T + alpha B A^T + beta C on C's uplo triangle; A, B replicated",
       group="Reductions and eigenvalues"),
    op("hetrd_mgpu", "collective",
       ["uplo uplo", "matrix A", "real_out d", "real_out e", "out tau", "options opts"],
       "A = Q T Q^H: tridiagonal reduction (real: sytrd); d, e, tau on every rank",
       c_names={"s": "sytrd_mgpu", "d": "sytrd_mgpu"}, group="Reductions and eigenvalues"),
    op("hetrd_band_mgpu", "collective",
       ["uplo uplo", "matrix A", "int band", "out tau", "out_opt AB", "int ldab",
        "options opts"],
       "stage one of the two-stage tridiagonal reduction (real: sytrd_sy2sb / hetrd_he2hb): "
       "A = Q1 B Q1^H, B of half-bandwidth band (1..128, a divisor of A's nb); B's band and "
       "Q1's reflectors overwrite A's uplo triangle, tau (n - band) and, where AB is not "
       "NULL, B in LAPACK's lower band storage (ldab >= band + 1) arrive on every rank",
       c_names={"s": "sytrd_band_mgpu", "d": "sytrd_band_mgpu"},
       group="Reductions and eigenvalues"),
    op("hetrd_2stage_mgpu", "collective",
       ["uplo uplo", "matrix A", "real_out d", "real_out e", "options opts"],
       "T = Q^H A Q by the two-stage reduction (dense to band over every device, then the "
       "bulge chase; real: sytrd_2stage), LAPACK's ?sytrd_2stage with VECT = 'N': d, e on "
       "every rank, Q not kept (A holds stage one's reflectors); opts.band the band, 0 "
       "automatic",
       c_names={"s": "sytrd_2stage_mgpu", "d": "sytrd_2stage_mgpu"},
       group="Reductions and eigenvalues"),
    op("gebrd_mgpu", "collective",
       ["matrix A", "real_out d", "real_out e", "out tauq", "out taup", "options opts"],
       "Q^H A P = B: bidiagonal reduction; d, e, tauq, taup on every rank",
       group="Reductions and eigenvalues"),
    op("unmtr_mgpu", "collective",
       ["uplo uplo", "op op", "matrix A", "in tau", "matrix C", "options opts"],
       "C = op(Q) C with the Q that hetrd_mgpu(uplo) left in A and tau (real: ormtr)",
       c_names={"s": "ormtr_mgpu", "d": "ormtr_mgpu"}, group="Reductions and eigenvalues"),
    op("geqrf_mgpu", "collective",
       ["matrix A", "out tau", "options opts"],
       "A = Q R, LAPACK's ?geqrf: R in A's upper triangle, Q's reflectors below it, tau "
       "(min(m, n)) on every rank; the first step of the SVD of a tall matrix",
       group="Reductions and eigenvalues"),
    op("unmbr_mgpu", "collective",
       ["vect vect", "op op", "matrix A", "in tau", "matrix C", "options opts"],
       "C = op(Q) C (vect Q, C m x K) or C = op(P) C (vect P, C n x K) with the Q or P that "
       "gebrd_mgpu left in the m x n A and tauq or taup (real: ormbr), LAPACK's ?unmbr with "
       "side L",
       c_names={"s": "ormbr_mgpu", "d": "ormbr_mgpu"}, group="Reductions and eigenvalues"),
    op("gesvd_mgpu", "collective",
       ["matrix A", "real_out s", "matrix_opt U", "matrix_opt V", "int nvec", "options opts"],
       "A V = U diag(s): all k = min(m, n) singular values (descending) into s on every rank "
       "and, where U or V is not NULL, the singular vectors of the nvec largest (-1: all k) "
       "into the first columns of U (m x KU) and V (n x KV; V itself, not V^H); U with m "
       "columns (V with n) and nvec = k receives the full factor; A is overwritten by its "
       "bidiagonal reduction",
       group="Reductions and eigenvalues"),
    op("heevd_mgpu", "collective",
       ["uplo uplo", "matrix A", "range range", "real vl", "real vu", "int il", "int iu",
        "int_out m", "real_out w", "matrix_opt Z", "options opts"],
       "eigenvalues (ascending, on every rank: m of them into w, room for n) and, where Z "
       "is not NULL, eigenvectors (Z's columns 0..m-1; Z n x K, K >= n, for range I K >= "
       "iu - il + 1) of the Hermitian A (real: syevd), whose reduction overwrites A; range "
       "A all, I indices il..iu (0-based, inclusive), V the interval (vl, vu]",
       c_names={"s": "syevd_mgpu", "d": "syevd_mgpu"},
       cpp="*{m} = mgblas::heevd_mgpu<{T}>({uplo}, {A}, {w}, {Z}, {range}, {opts})",
       group="Reductions and eigenvalues"),
    op("heevd_2d", "collective",
       ["uplo uplo", "desc2d desca", "local_2d_in a", "range range", "real vl", "real vu",
        "int il", "int iu", "int_out m", "real_out w", "desc2d_opt descz", "local_2d_out z",
        "options opts"],
       "heevd_mgpu (real: syevd) on local arrays in ScaLAPACK's 2-D block-cyclic layout, "
       "p?heevd / p?syevd's shape: A (desca, a; n x n, only read) is moved to the devices, "
       "the m selected eigenvalues go to w (room for n, every rank) and, where descz is not "
       "NULL, their eigenvectors to Z's columns 0..m-1 (descz n x K, K >= n, for range I K "
       ">= iu - il + 1; its own blocks and grid)",
       c_names={"s": "syevd_2d", "d": "syevd_2d"},
       cpp="*{m} = mgblas::heevd_2d<{T}>({ctx}, {uplo}, {desca}, {a}, {w}, {descz}, {z}, "
           "{range}, {opts})",
       group="ScaLAPACK-shaped entries"),
    op("gesvd_2d", "collective",
       ["desc2d desca", "local_2d_in a", "real_out s", "desc2d_opt descu", "local_2d_out u",
        "desc2d_opt descv", "local_2d_out v", "int nvec", "options opts"],
       "gesvd_mgpu on local arrays in ScaLAPACK's 2-D block-cyclic layout, p?gesvd's shape "
       "with V in place of VT: A (desca, a; m x n, only read) is moved to the devices, all k "
       "= min(m, n) singular values go to s (descending, every rank) and, where descu or "
       "descv is not NULL, the vectors of the nvec largest (-1: all k) to the first columns "
       "of U (descu m x KU) and V (descv n x KV; V itself), each on its own blocks and grid; "
       "KU = m (KV = n) with all k vectors receives the full factor",
       cpp="mgblas::gesvd_2d<{T}>({ctx}, {desca}, {a}, {s}, {descu}, {u}, {descv}, {v}, "
           "{nvec}, {opts})",
       group="ScaLAPACK-shaped entries"),
    op("hetrd_2d", "collective",
       ["uplo uplo", "desc2d desca", "local_2d_out a", "real_out d", "real_out e", "out tau",
        "options opts"],
       "hetrd_mgpu (real: sytrd) on local arrays in ScaLAPACK's 2-D block-cyclic layout, "
       "p?hetrd / p?sytrd's shape: A (desca, a; n x n) is moved to the devices, reduced in "
       "one stage and moved back: a holds T and the reflectors in its uplo triangle as "
       "p?sytrd leaves them; d (n), e and tau (n - 1, LAPACK's numbering) whole on every rank",
       c_names={"s": "sytrd_2d", "d": "sytrd_2d"},
       cpp="mgblas::hetrd_2d<{T}>({ctx}, {uplo}, {desca}, {a}, {d}, {e}, {tau}, {opts})",
       group="ScaLAPACK-shaped entries"),
    op("gebrd_2d", "collective",
       ["desc2d desca", "local_2d_out a", "real_out d", "real_out e", "out tauq", "out taup",
        "options opts"],
       "gebrd_mgpu on local arrays in ScaLAPACK's 2-D block-cyclic layout, p?gebrd's shape: "
       "A (desca, a; m x n, any m and n: B upper bidiagonal for m >= n, lower otherwise) is "
       "moved to the devices, reduced and moved back: a holds B and both reflector sets as "
       "p?gebrd leaves them; d, tauq, taup (min(m, n)) and e (min(m, n) - 1) whole on every "
       "rank",
       cpp="mgblas::gebrd_2d<{T}>({ctx}, {desca}, {a}, {d}, {e}, {tauq}, {taup}, {opts})",
       group="ScaLAPACK-shaped entries"),
    op("tridiag_eigenvalues_mgpu", "collective",
       ["int n", "real_in d", "real_in e", "real_out w"],
       "all eigenvalues of the real symmetric tridiagonal (d, e), ascending, on every "
       "rank, by bisection over every device",
       precisions=REAL, cpp="mgblas::tridiag_eigenvalues_mgpu<{T}>(*{ctx}, {args})",
       group="Reductions and eigenvalues"),
    op("tridiag_eigenvectors_mgpu", "collective",
       ["int n", "real_in d", "real_in e", "range range", "real vl", "real vu", "int il",
        "int iu", "int_out m", "real_out w", "matrix Z"],
       "eigenpairs of the real symmetric tridiagonal (d: n, e: n - 1, every rank): the m "
       "selected eigenvalues (ascending) into w (room for n, every rank) and their "
       "eigenvectors into Z's columns 0..m-1 (Z n x K as in heevd_mgpu; a complex Z "
       "receives real vectors); range as heevd_mgpu's",
       cpp="*{m} = mgblas::tridiag_eigenvectors_mgpu<{T}>({n}, {d}, {e}, {w}, {Z}, {range})",
       group="Reductions and eigenvalues"),
]


def c_name(entry, letter):
    """The C name of `entry` in precision `letter`."""
    return "mgblas_" + letter + entry["c_names"].get(letter, entry["name"])
