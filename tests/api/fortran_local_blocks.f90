! SPDX-License-Identifier: BSD-3-Clause
! The local blocks from Fortran (issue 36, item 2): one rank (no MPI_Init), 3 host devices;
! every local block of a block-cyclic and of a row-tiled matrix is filled in place through
! c_f_pointer with f(i, j) = i + 1000 j (global, counted from 1), the matrix is collected
! and every entry checked; an index past the count must fail. Exit status 1 on failure.
program fortran_local_blocks
  use mgblas
  implicit none
  type(c_ptr) :: ctx
  integer :: failures

  failures = 0
  call check(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 3_c_int, ctx))
  call round_trip(.false., 7_c_int64_t, 13_c_int64_t, 3_c_int64_t)
  call round_trip(.true., 11_c_int64_t, 5_c_int64_t, 2_c_int64_t)
  call check(mgblas_context_destroy(ctx))
  if (failures /= 0) then
    print '(a, i0, a)', "fortran_local_blocks: ", failures, " failure(s)"
    stop 1
  end if
  print '(a)', "fortran_local_blocks: ok"

contains

  subroutine check(status)
    integer(c_int), intent(in) :: status
    if (status /= MGBLAS_SUCCESS) then
      print '(a, a)', "fortran_local_blocks: ", mgblas_error_text()
      failures = failures + 1
    end if
  end subroutine check

  subroutine round_trip(tiled, m, n, blk)
    logical, intent(in) :: tiled
    integer(c_int64_t), intent(in) :: m, n, blk
    type(c_ptr) :: A
    type(mgblas_local_block_t) :: b
    integer(c_int64_t) :: count, k, i, j
    real(c_double), pointer :: p(:, :)
    real(c_double), allocatable, target :: full(:, :)

    if (tiled) then
      call check(mgblas_matrix_create_row_tiled(ctx, MGBLAS_PREC_D, m, n, blk, A))
    else
      call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, m, n, blk, A))
    end if
    call check(mgblas_matrix_local_block_count(A, count))
    do k = 0, count - 1
      call check(mgblas_matrix_local_block(A, k, b))
      call c_f_pointer(b%data, p, [b%ld, b%cols])
      do j = 1, b%cols
        do i = 1, b%rows
          p(i, j) = real(b%row + i, c_double) + 1000 * real(b%col + j, c_double)
        end do
      end do
    end do
    if (mgblas_matrix_local_block(A, count, b) /= MGBLAS_ERROR_BAD_ARGUMENT) then
      print '(a)', "fortran_local_blocks: index = count was accepted"
      failures = failures + 1
    end if
    allocate(full(m, n))
    call check(mgblas_matrix_collect(ctx, A, c_loc(full), m, 0_c_int))
    do j = 1, n
      do i = 1, m
        if (full(i, j) /= real(i, c_double) + 1000 * real(j, c_double)) failures = failures + 1
      end do
    end do
    call check(mgblas_matrix_destroy(A))
  end subroutine round_trip
end program fortran_local_blocks
