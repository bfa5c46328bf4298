! SPDX-License-Identifier: BSD-3-Clause
! The local blocks from Fortran (issue 36, item 2): one rank (no MPI_Init), 3 host devices;
! every local block of a block-cyclic and of a row-tiled matrix is filled in place through
! c_f_pointer with f(i, j) = i + 1000 j (global, counted from 1), the matrix is collected
! and every entry checked; an index past the count must fail. Then one eigen-solver call
! (mgblas_dsyevd_mgpu, an index subset with vectors) on a matrix filled the same way, whose
! eigenvalues are known; and the same matrix as a ScaLAPACK-style local array (a 1 x 1
! grid, its descriptor from mgblas_desc2d_from_scalapack) through mgblas_dsyevd_2d, Z on
! its own blocks; and the reductions' ScaLAPACK-shaped entries mgblas_dsytrd_2d and
! mgblas_dgebrd_2d on such local arrays, checked by what an orthogonal reduction keeps
! (trace, Frobenius norm) and by LAPACK's storage of d and e in the array; and the SVD's
! entry mgblas_dgesvd_2d, checked by A V = U diag(s), U^T U = I and the Frobenius norm.
! Exit status 1 on failure.
program fortran_local_blocks
  use mgblas
  implicit none
  type(c_ptr) :: ctx
  integer :: failures

  failures = 0
  call check(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 3_c_int, ctx))
  call round_trip(.false., 7_c_int64_t, 13_c_int64_t, 3_c_int64_t)
  call round_trip(.true., 11_c_int64_t, 5_c_int64_t, 2_c_int64_t)
  call eigenpairs(12_c_int64_t, 4_c_int64_t)
  call eigenpairs_2d(12)
  call reductions_2d(11, 8)
  call svd_2d(11, 8)
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

  ! Entry (i, j), counted from 1, of the matrices filled: i + 1000 j, or the lower triangle
  ! of the tridiagonal matrix 2, -1.
  pure real(c_double) function expected(i, j, tridiagonal)
    integer(c_int64_t), intent(in) :: i, j
    logical, intent(in) :: tridiagonal
    if (.not. tridiagonal) then
      expected = real(i, c_double) + 1000 * real(j, c_double)
    else if (i == j) then
      expected = 2
    else if (i == j + 1) then
      expected = -1
    else
      expected = 0
    end if
  end function expected

  ! Every local block of A filled in place with expected(); count: how many blocks.
  subroutine fill(A, tridiagonal, count)
    type(c_ptr), intent(in) :: A
    logical, intent(in) :: tridiagonal
    integer(c_int64_t), intent(out) :: count
    type(mgblas_local_block_t) :: b
    integer(c_int64_t) :: k, i, j
    real(c_double), pointer :: p(:, :)

    call check(mgblas_matrix_local_block_count(A, count))
    do k = 0, count - 1
      call check(mgblas_matrix_local_block(A, k, b))
      call c_f_pointer(b%data, p, [b%ld, b%cols])
      do j = 1, b%cols
        do i = 1, b%rows
          p(i, j) = expected(b%row + i, b%col + j, tridiagonal)
        end do
      end do
    end do
  end subroutine fill

  subroutine round_trip(tiled, m, n, blk)
    logical, intent(in) :: tiled
    integer(c_int64_t), intent(in) :: m, n, blk
    type(c_ptr) :: A
    type(mgblas_local_block_t) :: b
    integer(c_int64_t) :: count, i, j
    real(c_double), allocatable, target :: full(:, :)

    if (tiled) then
      call check(mgblas_matrix_create_row_tiled(ctx, MGBLAS_PREC_D, m, n, blk, A))
    else
      call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, m, n, blk, A))
    end if
    call fill(A, .false., count)
    if (mgblas_matrix_local_block(A, count, b) /= MGBLAS_ERROR_BAD_ARGUMENT) then
      print '(a)', "fortran_local_blocks: index = count was accepted"
      failures = failures + 1
    end if
    allocate(full(m, n))
    call check(mgblas_matrix_collect(ctx, A, c_loc(full), m, 0_c_int))
    do j = 1, n
      do i = 1, m
        if (full(i, j) /= expected(i, j, .false.)) failures = failures + 1
      end do
    end do
    call check(mgblas_matrix_destroy(A))
  end subroutine round_trip

  ! The n x n tridiagonal matrix 2, -1 (filled in its local blocks, lower triangle only)
  ! has the eigenvalues 2 - 2 cos(k pi / (n + 1)), k = 1..n: mgblas_dsyevd_mgpu for the
  ! indices 2..5 (0-based, inclusive), with their vectors, checked by |A z - w z|.
  subroutine eigenpairs(n, nb)
    integer(c_int64_t), intent(in) :: n, nb
    integer(c_int64_t), parameter :: il = 2, iu = 5
    type(c_ptr) :: A, Z
    integer(c_int64_t) :: count, j, m
    real(c_double), allocatable, target :: v(:, :)
    real(c_double) :: w(n), r(n), pi

    pi = acos(-1.0_c_double)
    call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, A))
    call fill(A, .true., count)
    call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, iu - il + 1, nb, Z))
    m = -1
    call check(mgblas_dsyevd_mgpu(ctx, MGBLAS_UPLO_LOWER, A, MGBLAS_RANGE_INDEX, 0.0_c_double, &
                                  0.0_c_double, il, iu, m, w, Z))
    if (m /= iu - il + 1) then
      print '(a, i0)', "fortran_local_blocks: syevd m = ", m
      failures = failures + 1
      return
    end if
    allocate(v(n, m))
    call check(mgblas_matrix_collect(ctx, Z, c_loc(v), n, 0_c_int))
    do j = 1, m
      r = 2 * v(:, j) - w(j) * v(:, j)
      r(2:n) = r(2:n) - v(1:n - 1, j)
      r(1:n - 1) = r(1:n - 1) - v(2:n, j)
      if (abs(w(j) - (2 - 2 * cos((il + j) * pi / (n + 1)))) > 1d-12 .or. &
          maxval(abs(r)) > 1d-12 .or. abs(norm2(v(:, j)) - 1) > 1d-12) then
        print '(a, i0, a, es10.3)', "fortran_local_blocks: syevd eigenpair ", il + j - 1, &
            " off, w = ", w(j)
        failures = failures + 1
      end if
    end do
    call check(mgblas_matrix_destroy(A))
    call check(mgblas_matrix_destroy(Z))
  end subroutine eigenpairs

  ! The tridiagonal matrix of eigenpairs() in one rank's local array (a 1 x 1 grid,
  ! 5 x 5 blocks, lld = n + 1, the upper triangle -9: not read): mgblas_dsyevd_2d with
  ! the indices 1..3 into Z's local array (n x 4, 3 x 2 blocks); Z's last column and the
  ! padding row stay as they were, and a stays untouched.
  subroutine eigenpairs_2d(n)
    integer, intent(in) :: n
    integer(c_int64_t), parameter :: il = 1, iu = 3
    integer(c_int) :: desc(9), zdesc(9)
    type(mgblas_desc2d_t) :: da
    type(mgblas_desc2d_t), target :: dz
    real(c_double) :: a(n + 1, n), a0(n + 1, n), z(n + 1, 4), w(n), r(n), pi
    integer(c_int64_t) :: i, j, m

    pi = acos(-1.0_c_double)
    a = -9
    do j = 1, n
      do i = j, n
        a(i, j) = expected(i, j, .true.)
      end do
    end do
    a0 = a
    z = -7
    desc = [1, 0, n, n, 5, 5, 0, 0, n + 1]
    zdesc = [1, 0, n, 4, 3, 2, 0, 0, n + 1]
    call check(mgblas_desc2d_from_scalapack(desc, 1_c_int, 1_c_int, 'R', da))
    call check(mgblas_desc2d_from_scalapack(zdesc, 1_c_int, 1_c_int, 'R', dz))
    m = -1
    call check(mgblas_dsyevd_2d(ctx, MGBLAS_UPLO_LOWER, da, a, MGBLAS_RANGE_INDEX, &
                                0.0_c_double, 0.0_c_double, il, iu, m, w, c_loc(dz), z))
    if (m /= iu - il + 1 .or. any(a /= a0) .or. any(z(n + 1, :) /= -7) .or. &
        any(z(:, 4) /= -7)) then
      print '(a, i0)', "fortran_local_blocks: syevd_2d m = ", m
      failures = failures + 1
      return
    end if
    do j = 1, m
      r = 2 * z(1:n, j) - w(j) * z(1:n, j)
      r(2:n) = r(2:n) - z(1:n - 1, j)
      r(1:n - 1) = r(1:n - 1) - z(2:n, j)
      if (abs(w(j) - (2 - 2 * cos((il + j) * pi / (n + 1)))) > 1d-12 .or. &
          maxval(abs(r)) > 1d-12 .or. abs(norm2(z(1:n, j)) - 1) > 1d-12) then
        print '(a, i0, a, es10.3)', "fortran_local_blocks: syevd_2d eigenpair ", il + j - 1, &
            " off, w = ", w(j)
        failures = failures + 1
      end if
    end do
  end subroutine eigenpairs_2d

  ! mgblas_dsytrd_2d on the n x n Hilbert-like A(i, j) = 1 / (i + j - 1) (lower triangle,
  ! the upper one -9: not read) and mgblas_dgebrd_2d on the n x m A(i, j) = 1 / (i + 2 j)
  ! (n >= m: B upper bidiagonal), each in one rank's local array (a 1 x 1 grid, 3 x 3
  ! blocks, lld one row longer): an orthogonal reduction keeps the trace (sytrd) and the
  ! Frobenius norm, the array holds d on its diagonal and e next to it (LAPACK's storage),
  ! the upper triangle (sytrd) and the padding row stay as they were, and the reflectors'
  ! scalars lie in [1, 2] (or are 0).
  subroutine reductions_2d(n, m)
    integer, intent(in) :: n, m
    integer(c_int) :: desc(9), gdesc(9)
    type(mgblas_desc2d_t) :: da, dg
    real(c_double) :: a(n + 1, n), a0(n + 1, n), g(n + 1, m), g0(n + 1, m)
    real(c_double) :: d(n), e(n), tau(n), tauq(m), taup(m), fro
    integer :: i, j

    a = -9
    do j = 1, n
      do i = j, n
        a(i, j) = 1 / real(i + j - 1, c_double)
      end do
    end do
    a0 = a
    desc = [1, 0, n, n, 3, 3, 0, 0, n + 1]
    call check(mgblas_desc2d_from_scalapack(desc, 1_c_int, 1_c_int, 'R', da))
    call check(mgblas_dsytrd_2d(ctx, MGBLAS_UPLO_LOWER, da, a, d, e, tau))
    fro = 0
    do j = 1, n
      fro = fro + a0(j, j)**2 + 2 * sum(a0(j + 1:n, j)**2)
    end do
    do j = 1, n
      if (a(j, j) /= d(j) .or. (j < n .and. a(min(j + 1, n), j) /= e(j))) failures = failures + 1
      if (any(a(1:j - 1, j) /= -9)) failures = failures + 1
    end do
    if (abs(sum(d) - sum([(a0(j, j), j = 1, n)])) > 1d-12 .or. &
        abs(sum(d**2) + 2 * sum(e(1:n - 1)**2) - fro) > 1d-12 * fro .or. &
        any(a(n + 1, :) /= -9) .or. &
        any((tau(1:n - 1) < 1 .or. tau(1:n - 1) > 2) .and. tau(1:n - 1) /= 0)) then
      print '(a)', "fortran_local_blocks: sytrd_2d off"
      failures = failures + 1
    end if

    g = -7
    do j = 1, m
      do i = 1, n
        g(i, j) = 1 / real(i + 2 * j, c_double)
      end do
    end do
    g0 = g
    gdesc = [1, 0, n, m, 3, 3, 0, 0, n + 1]
    call check(mgblas_desc2d_from_scalapack(gdesc, 1_c_int, 1_c_int, 'R', dg))
    call check(mgblas_dgebrd_2d(ctx, dg, g, d, e, tauq, taup))
    fro = sum(g0(1:n, :)**2)
    do j = 1, m
      if (g(j, j) /= d(j) .or. (j < m .and. g(j, min(j + 1, m)) /= e(j))) failures = failures + 1
    end do
    if (abs(sum(d(1:m)**2) + sum(e(1:m - 1)**2) - fro) > 1d-12 * fro .or. &
        any(g(n + 1, :) /= -7) .or. &
        any((tauq < 1 .or. tauq > 2) .and. tauq /= 0) .or. &
        any((taup < 1 .or. taup > 2) .and. taup /= 0)) then
      print '(a)', "fortran_local_blocks: gebrd_2d off"
      failures = failures + 1
    end if
  end subroutine reductions_2d
  ! mgblas_dgesvd_2d on the n x m A(i, j) = 1 / (i + 2 j) (n >= m) in one rank's local
  ! array (a 1 x 1 grid, 3 x 3 blocks, lld one row longer), U (n x m) and V (m x m) on
  ! their own blocks: the sum of s^2 is ||A||_F^2, s descends, A V = U diag(s) and
  ! U^T U = I to 1e-12, and a and the padding rows stay as they were.
  subroutine svd_2d(n, m)
    integer, intent(in) :: n, m
    integer(c_int) :: desc(9), udesc(9), vdesc(9)
    type(mgblas_desc2d_t) :: da
    type(mgblas_desc2d_t), target :: du, dv
    real(c_double) :: a(n + 1, m), a0(n + 1, m), u(n + 1, m), v(m + 2, m), s(m)
    integer :: i, j

    a = -9
    do j = 1, m
      do i = 1, n
        a(i, j) = 1.0_c_double / (i + 2 * j)
      end do
    end do
    a0 = a
    u = -7
    v = -7
    desc = [1, 0, n, m, 3, 3, 0, 0, n + 1]
    udesc = [1, 0, n, m, 4, 2, 0, 0, n + 1]
    vdesc = [1, 0, m, m, 2, 5, 0, 0, m + 2]
    call check(mgblas_desc2d_from_scalapack(desc, 1_c_int, 1_c_int, 'R', da))
    call check(mgblas_desc2d_from_scalapack(udesc, 1_c_int, 1_c_int, 'R', du))
    call check(mgblas_desc2d_from_scalapack(vdesc, 1_c_int, 1_c_int, 'R', dv))
    call check(mgblas_dgesvd_2d(ctx, da, a, s, c_loc(du), u, c_loc(dv), v, -1_c_int64_t))
    if (any(a /= a0) .or. any(u(n + 1, :) /= -7) .or. any(v(m + 1:, :) /= -7) .or. &
        any(s(2:m) > s(1:m - 1)) .or. abs(sum(s**2) - sum(a(1:n, :)**2)) > 1d-12) then
      print '(a)', "fortran_local_blocks: gesvd_2d: a, padding, order or norm off"
      failures = failures + 1
      return
    end if
    if (maxval(abs(matmul(a(1:n, :), v(1:m, :)) - u(1:n, :) * spread(s, 1, n))) > 1d-12 .or. &
        maxval(abs(matmul(transpose(u(1:n, :)), u(1:n, :)) - identity(m))) > 1d-12) then
      print '(a)', "fortran_local_blocks: gesvd_2d: A V /= U S or U^T U /= I"
      failures = failures + 1
    end if
  end subroutine svd_2d

  pure function identity(k) result(eye)
    integer, intent(in) :: k
    real(c_double) :: eye(k, k)
    integer :: i
    eye = 0
    do i = 1, k
      eye(i, i) = 1
    end do
  end function identity

end program fortran_local_blocks
