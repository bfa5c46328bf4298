! SPDX-License-Identifier: BSD-3-Clause
! Installed-package check, Fortran module: the C consumer's hand-checked zgemv on a host
! device (complex scalars by value, operands in device memory as c_ptr), a dgemv_mgpu on
! host arrays, and a bad argument that must come back as MGBLAS_ERROR_BAD_ARGUMENT naming
! the argument.
program consumer_fortran
  use mgblas
  implicit none
  type(mgblas_complex_double), parameter :: one = mgblas_complex_double(1, 0)
  type(mgblas_complex_double), parameter :: zero = mgblas_complex_double(0, 0)
  integer(c_int64_t), parameter :: i1 = 1, i2 = 2
  type(c_ptr) :: ctx, dev, dA, dx, dy, B
  complex(c_double_complex), target :: A(2), x(2), y(1)
  real(c_double), target :: hostB(2, 2)
  real(c_double) :: u(2), v(2)
  integer(c_int) :: bad
  logical :: ok

  ok = .true.
  call expect(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 1_c_int, ctx))
  call expect(mgblas_context_device(ctx, 0_c_int, dev))
  if (.not. ok) stop 1
  ! A = [i 2], x = [1, i] -> A x = i + 2i = 3i.
  A = [(0, 1), (2, 0)]
  x = [(1, 0), (0, 1)]
  y = (-1, -1)
  call expect(mgblas_malloc_device(dev, c_sizeof(A), dA))
  call expect(mgblas_malloc_device(dev, c_sizeof(x), dx))
  call expect(mgblas_malloc_device(dev, c_sizeof(y), dy))
  call expect(mgblas_memcpy(dev, dA, c_loc(A), c_sizeof(A)))
  call expect(mgblas_memcpy(dev, dx, c_loc(x), c_sizeof(x)))
  call expect(mgblas_zgemv_async(dev, c_null_ptr, MGBLAS_OP_N, i1, i2, one, dA, i1, dx, i1, &
                                 zero, dy, i1))
  call expect(mgblas_device_synchronize(dev))
  call expect(mgblas_memcpy(dev, c_loc(y), dy, c_sizeof(y)))
  call expect(mgblas_free_device(dev, dA))
  call expect(mgblas_free_device(dev, dx))
  call expect(mgblas_free_device(dev, dy))
  ok = ok .and. y(1) == (0, 3)
  ! B = [1 2; 3 4] in block columns of width 1, u = [1, 1] -> B u = [3, 7] (host arrays).
  hostB = reshape([1, 3, 2, 4], [2, 2])
  u = 1
  v = -1
  call expect(mgblas_matrix_create(ctx, MGBLAS_PREC_D, i2, i2, i1, B))
  call expect(mgblas_matrix_distribute(ctx, B, c_loc(hostB), i2, 0_c_int))
  call expect(mgblas_dgemv_mgpu(ctx, MGBLAS_OP_N, 1d0, B, u, 0d0, v))
  call expect(mgblas_matrix_destroy(B))
  ok = ok .and. all(v == [3, 7])
  ! lda = 0 < m = 1 is rejected and y is left alone.
  bad = mgblas_zgemv(dev, MGBLAS_OP_N, i1, i2, one, c_loc(A), 0_c_int64_t, c_loc(x), i1, &
                     zero, c_loc(y), i1)
  ok = ok .and. bad == MGBLAS_ERROR_BAD_ARGUMENT .and. index(mgblas_error_text(), "lda") > 0 &
       .and. y(1) == (0, 3)
  write(*, '(3a, 2f5.1, a, 2f5.1, 4a)') "mgblas ", mgblas_version_text(), &
    " consumer (Fortran): zgemv =", y(1), "; dgemv_mgpu =", v, "; bad lda -> '", &
    mgblas_error_text(), "': ", trim(merge("ok   ", "WRONG", ok))
  call expect(mgblas_context_destroy(ctx))
  if (.not. ok) stop 1

contains

  subroutine expect(status)
    integer(c_int), intent(in) :: status
    if (status == MGBLAS_SUCCESS) return
    write(*, '(4a)') "failed: ", mgblas_status_text(status), ": ", mgblas_error_text()
    ok = .false.
  end subroutine expect
end program consumer_fortran
