! SPDX-License-Identifier: BSD-3-Clause
! The two-stage tridiagonal reduction from Fortran: one rank (no MPI_Init), 2 host devices.
! The n x n tridiagonal matrix 2, -1 (lower triangle given) has the eigenvalues
! 2 - 2 cos(k pi / (n + 1)), k = 1..n; they must come back from
!   - mgblas_dsytrd_2stage_mgpu_ex (opts%band = 2) and mgblas_dtridiag_eigenvalues_mgpu on
!     its d and e;
!   - mgblas_dsyevd_mgpu_ex without vectors, opts%stages = MGBLAS_STAGES_TWO;
!   - the band that mgblas_dsytrd_band_mgpu returns in LAPACK's band storage (AB given
!     through c_loc), its tau the same as with AB = c_null_ptr;
! and opts%band and opts%stages must reach the C entries (the options type's layout): a
! band that does not divide nb, or stages given to sytrd_2stage, fail naming the field.
! Exit status 1 on failure.
program fortran_two_stage
  use mgblas
  implicit none
  integer(c_int64_t), parameter :: n = 14, nb = 4, band = 2
  type(c_ptr) :: ctx, A
  type(mgblas_reduction_options_t) :: opts
  real(c_double), allocatable, target :: full(:, :), ab(:, :)
  real(c_double) :: d(n), e(n - 1), w(n), ref(n), tau(n - band), tau0(n - band), pi
  real(c_double) :: t(n, n)
  integer(c_int64_t) :: i, j, m
  integer :: failures

  failures = 0
  pi = acos(-1.0_c_double)
  do i = 1, n
    ref(i) = 2 - 2 * cos(i * pi / (n + 1))
  end do
  allocate(full(n, n), ab(band + 1, n))
  full = 0
  do j = 1, n
    full(j, j) = 2
    if (j < n) full(j + 1, j) = -1
  end do
  call check(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2_c_int, ctx))
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, A))

  ! Both stages, then bisection on T.
  call reset()
  opts%band = band
  call check(mgblas_dsytrd_2stage_mgpu_ex(ctx, MGBLAS_UPLO_LOWER, A, d, e, opts))
  call check(mgblas_dtridiag_eigenvalues_mgpu(ctx, n, d, e, w))
  call compare(w, "sytrd_2stage + tridiag_eigenvalues")

  ! The eigen-solver's values through the two-stage reduction.
  call reset()
  opts%stages = MGBLAS_STAGES_TWO
  m = -1
  call check(mgblas_dsyevd_mgpu_ex(ctx, MGBLAS_UPLO_LOWER, A, MGBLAS_RANGE_ALL, 0.0_c_double, &
                                   0.0_c_double, 0_c_int64_t, 0_c_int64_t, m, w, c_null_ptr, &
                                   opts))
  if (m /= n) failures = failures + 1
  call compare(w, "syevd, stages two")

  ! Stage one alone: B from its band storage, B(i, j) = ab(1 + i - j, j) for i >= j.
  call reset()
  call check(mgblas_dsytrd_band_mgpu(ctx, MGBLAS_UPLO_LOWER, A, band, tau, c_loc(ab), band + 1))
  t = 0
  do j = 1, n
    do i = j, min(n, j + band)
      t(i, j) = ab(1 + i - j, j)
      t(j, i) = ab(1 + i - j, j)
    end do
  end do
  call reset()
  call check(mgblas_dsytrd_band_mgpu(ctx, MGBLAS_UPLO_LOWER, A, band, tau0, c_null_ptr, &
                                     0_c_int64_t))
  if (any(tau0 /= tau)) then
    print '(a)', "fortran_two_stage: sytrd_band's tau differs without AB"
    failures = failures + 1
  end if
  ! the band's eigenvalues: B's trace and Frobenius norm are A's (an orthogonal similarity)
  if (abs(sum([(t(i, i), i = 1, n)]) - sum(ref)) > 1d-12 .or. &
      abs(sum(t**2) - sum(ref**2)) > 1d-11) then
    print '(a)', "fortran_two_stage: sytrd_band's B is not similar to A"
    failures = failures + 1
  end if

  ! The options' fields reach the C entries.
  opts = mgblas_reduction_options_t()
  opts%band = 3
  call expect_bad(mgblas_dsytrd_2stage_mgpu_ex(ctx, MGBLAS_UPLO_LOWER, A, d, e, opts), "opts.band")
  opts = mgblas_reduction_options_t()
  opts%stages = MGBLAS_STAGES_ONE
  call expect_bad(mgblas_dsytrd_2stage_mgpu_ex(ctx, MGBLAS_UPLO_LOWER, A, d, e, opts), &
                  "opts.stages")

  call check(mgblas_matrix_destroy(A))
  call check(mgblas_context_destroy(ctx))
  ! A main program's allocatables are not freed at its end: LeakSanitizer (the CI's
  ! sanitizer build) would report them.
  deallocate(full, ab)
  if (failures /= 0) then
    print '(a, i0, a)', "fortran_two_stage: ", failures, " failure(s)"
    stop 1
  end if
  print '(a)', "fortran_two_stage: ok"

contains

  subroutine check(status)
    integer(c_int), intent(in) :: status
    if (status /= MGBLAS_SUCCESS) then
      print '(a, a)', "fortran_two_stage: ", mgblas_error_text()
      failures = failures + 1
    end if
  end subroutine check

  subroutine reset()
    call check(mgblas_matrix_distribute(ctx, A, c_loc(full), n, 0_c_int))
  end subroutine reset

  subroutine compare(got, what)
    real(c_double), intent(in) :: got(n)
    character(len=*), intent(in) :: what
    if (maxval(abs(got - ref)) > 1d-12) then
      print '(a, a, a, es10.3)', "fortran_two_stage: ", what, ": error ", maxval(abs(got - ref))
      failures = failures + 1
    end if
  end subroutine compare

  subroutine expect_bad(status, field)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: field
    if (status /= MGBLAS_ERROR_BAD_ARGUMENT .or. index(mgblas_error_text(), field) == 0) then
      print '(a, a, a, a)', "fortran_two_stage: a bad ", field, " gave: ", mgblas_error_text()
      failures = failures + 1
    end if
  end subroutine expect_bad
end program fortran_two_stage
