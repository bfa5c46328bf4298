! SPDX-License-Identifier: BSD-3-Clause
! The SVD from Fortran: one rank (no MPI_Init), 2 host devices. A = U0 diag(S0) V0^T with
! U0, V0 Householder reflections I - 2 u u^T / u^T u (orthogonal) and S0 = 1 .. 1 / 10;
! mgblas_dgesvd_mgpu (all vectors, then values only through the _ex form) must give S0
! back, A V = U diag(s) and U^T U = V^T V = I; mgblas_dormbr_mgpu with vect P on V's
! first column of the identity, and a bad vect letter, must reach the C entry (the role
! vect). Exit status 1 on failure.
program fortran_svd
  use mgblas
  implicit none
  integer(c_int64_t), parameter :: m = 17, n = 11, nb = 4
  type(c_ptr) :: ctx, A, U, V
  type(mgblas_reduction_options_t) :: opts
  real(c_double), allocatable, target :: full(:, :), uh(:, :), vh(:, :), ident(:, :)
  real(c_double) :: s(n), s0(n), hu(m), hv(n), tau(n), d(n), e(n - 1), taup(n)
  integer(c_int64_t) :: i
  integer :: failures
  integer(c_int) :: status

  failures = 0
  allocate(full(m, n), uh(m, n), vh(n, n), ident(n, 1))
  do i = 1, n
    s0(i) = 1.0_c_double / i
  end do
  hu = [(real(mod(7 * i, 5) + 1, c_double), i = 1, m)]
  hv = [(real(mod(3 * i, 4) - 1.5_c_double, c_double), i = 1, n)]
  full = 0
  do i = 1, n
    full(i, i) = s0(i)
  end do
  ! full := (I - 2 hu hu^T / |hu|^2) full (I - 2 hv hv^T / |hv|^2)
  full = full - 2 * spread(hu, 2, n) * spread(matmul(hu, full), 1, m) / dot_product(hu, hu)
  full = full - 2 * spread(matmul(full, hv), 2, n) * spread(hv, 1, m) / dot_product(hv, hv)

  call check(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2_c_int, ctx))
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, m, n, nb, A))
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, m, n, nb, U))
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, V))

  call check(mgblas_matrix_distribute(ctx, A, c_loc(full), m, 0_c_int))
  call check(mgblas_dgesvd_mgpu(ctx, A, s, U, V, -1_c_int64_t))
  call check(mgblas_matrix_collect(ctx, U, c_loc(uh), m, 0_c_int))
  call check(mgblas_matrix_collect(ctx, V, c_loc(vh), n, 0_c_int))
  call expect_small(maxval(abs(s - s0)), "singular values")
  call expect_small(maxval(abs(matmul(full, vh) - uh * spread(s, 1, m))), "A V - U S")
  call expect_small(maxval(abs(matmul(transpose(uh), uh) - eye(n))), "U^T U - I")
  call expect_small(maxval(abs(matmul(transpose(vh), vh) - eye(n))), "V^T V - I")

  ! Values only through the _ex form (no profile), U and V NULL.
  s = -1
  call check(mgblas_matrix_distribute(ctx, A, c_loc(full), m, 0_c_int))
  call check(mgblas_dgesvd_mgpu_ex(ctx, A, s, c_null_ptr, c_null_ptr, -1_c_int64_t, opts))
  call expect_small(maxval(abs(s - s0)), "values only")

  ! ormbr with vect P: P e_0 = e_0 (P's first reflector acts from row 1 on, m >= n).
  call check(mgblas_matrix_distribute(ctx, A, c_loc(full), m, 0_c_int))
  call check(mgblas_dgebrd_mgpu(ctx, A, d, e, tau, taup))
  ident = 0
  ident(1, 1) = 1
  call check(mgblas_matrix_destroy(V))
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, 1_c_int64_t, nb, V))
  call check(mgblas_matrix_distribute(ctx, V, c_loc(ident), n, 0_c_int))
  call check(mgblas_dormbr_mgpu(ctx, MGBLAS_VECT_P, MGBLAS_OP_N, A, taup, V))
  call check(mgblas_matrix_collect(ctx, V, c_loc(ident), n, 0_c_int))
  call expect_small(abs(ident(1, 1) - 1) + maxval(abs(ident(2:n, 1))), "P e_0")
  ! The status first: Fortran may evaluate an expression's operands in any order.
  status = mgblas_dormbr_mgpu(ctx, int(iachar('X'), c_int), MGBLAS_OP_N, A, taup, V)
  if (status /= MGBLAS_ERROR_BAD_ARGUMENT .or. index(mgblas_error_text(), "vect") == 0) then
    print '(a, a)', "fortran_svd: a bad vect gave: ", mgblas_error_text()
    failures = failures + 1
  end if

  call check(mgblas_matrix_destroy(A))
  call check(mgblas_matrix_destroy(U))
  call check(mgblas_matrix_destroy(V))
  call check(mgblas_context_destroy(ctx))
  deallocate(full, uh, vh, ident)  ! LeakSanitizer (the CI's sanitizer build) would report them
  if (failures /= 0) then
    print '(a, i0, a)', "fortran_svd: ", failures, " failure(s)"
    stop 1
  end if
  print '(a)', "fortran_svd: ok"

contains

  function eye(k) result(x)
    integer(c_int64_t), intent(in) :: k
    real(c_double) :: x(k, k)
    integer(c_int64_t) :: j
    x = 0
    do j = 1, k
      x(j, j) = 1
    end do
  end function eye

  subroutine check(status)
    integer(c_int), intent(in) :: status
    if (status /= MGBLAS_SUCCESS) then
      print '(a, a)', "fortran_svd: ", mgblas_error_text()
      failures = failures + 1
    end if
  end subroutine check

  subroutine expect_small(err, what)
    real(c_double), intent(in) :: err
    character(len=*), intent(in) :: what
    if (.not. (err < 1d-12)) then
      print '(a, a, a, es10.3)', "fortran_svd: ", what, ": error ", err
      failures = failures + 1
    end if
  end subroutine expect_small
end program fortran_svd
