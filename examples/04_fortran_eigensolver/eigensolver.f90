! SPDX-License-Identifier: BSD-3-Clause
!
! 04_fortran_eigensolver: the eigenvalues of a symmetric matrix held in ScaLAPACK's 2-D
! block-cyclic layout, from Fortran, through the module `mgblas` (fortran/mgblas.f90.in),
! on every GPU (or host device) of every rank.
!
! What: the ranks form an nprow x npcol process grid (the squarest of the ranks, row-major
! as blacs_gridinit's 'Row'), and each rank fills its own ScaLAPACK local array of the
! symmetric n x n matrix A (blocks mb x mb, a(i, j) = cos(0.37 i j + i + j), no rank holds
! more than its part) under a ScaLAPACK descriptor desc(9), as a ScaLAPACK code has it.
! mgblas_desc2d_from_scalapack reads the descriptor; mgblas_matrix_import_2d moves the
! local arrays into a matrix of block columns of width nb on every device of every rank
! (one all-to-all, no root); mgblas_dsytrd_mgpu reduces it to T = Q^T A Q;
! mgblas_dtridiag_eigenvalues_mgpu gives T's eigenvalues w, ascending. Rank 0 checks w
! against LAPACK's dsyev on the whole matrix (built there for the check only):
!   eig_err = max_i |w_i - w_lapack_i| / (n ||A||_2 eps),  ||A||_2 = max_i |w_lapack_i|.
! mgblas_matrix_export_2d writes the (reduced) matrix back into local arrays of the same
! descriptor; every rank checks that the entries outside the reflectors' part came back.
! Then the one call a ScaLAPACK code makes instead of pdsyevd: mgblas_dsyevd_2d on the
! same local arrays and descriptor (only read) with the eigenvectors into local arrays
! z under the same descriptor; rank 0 gathers Z (for the check only) and requires
!   res  = ||A Z - Z diag(w)||_1 / (n ||A||_1 eps),  orth = ||I - Z^T Z||_1 / (n eps)
! and the eigenvalues' eig_err within the same bound.
!
! How:  mpirun -np 4 ./mgblas_fortran_eigensolver [n [mb [nb]]]
!       (defaults: n = 200, mb = 16, nb = 32). With GPUs each rank drives its GPUs;
!       without, MGBLAS_HOST_DEVICES=2 gives each rank two host devices (default one).
!       A ScaLAPACK code passes its own descriptor and the grid from blacs_gridinfo.
!
! Prints on rank 0, for example:
!   mgblas 0.1.0 from Fortran: n = 200, 2 x 2 grid of mb = 16, nb = 32, 4 ranks, 4 devices (host)
!   eig_err = max |w - w_lapack| / (n ||A||_2 eps) =  6.85E-02 (pass: <= 100)
!   dsyevd_2d: eig_err = max |w - w_lapack| / (n ||A||_2 eps) =  7.38E-02 (pass: <= 100)
!   dsyevd_2d: res =  8.64E+00, orth =  6.25E-01 (pass: <= 100)
! and every rank exits with 0 when all pass and the export matched, with 1 otherwise.
program fortran_eigensolver
  use mpi_f08
  use mgblas
  implicit none
  integer, parameter :: dp = c_double
  real(dp), parameter :: tol = 100
  integer(c_int64_t) :: n, mb, nb
  integer :: rank, nranks, nprow, npcol, myrow, mycol, locr, locc, i, j, bad
  integer(c_int) :: local_devices, devices, is_gpu, desc(9)
  type(c_ptr) :: ctx, dev, A, mine, back_ptr, Zm, z_ptr
  type(mgblas_desc2d_t), target :: grid_desc
  real(dp), allocatable, target :: a_local(:, :), back(:, :), z_local(:, :), z_full(:, :)
  real(dp), allocatable :: a_full(:, :), d(:), e(:), tau(:), w(:), w2(:), a_before(:, :)
  integer(c_int64_t) :: m
  logical :: ok

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call read_arguments(n, mb, nb)

  ! A context over the grid's communicator (here MPI_COMM_WORLD, handed over as Fortran's
  ! handle): the GPUs when there are, else host devices.
  call check(mgblas_context_create_fcomm(int(MPI_COMM_WORLD%MPI_VAL, c_int), &
                                         MGBLAS_BACKEND_AUTO, 0_c_int, ctx), "context_create_fcomm")
  call check(mgblas_context_num_devices(ctx, local_devices, devices), "context_num_devices")
  call check(mgblas_context_device(ctx, 0_c_int, dev), "context_device")
  call check(mgblas_device_is_gpu(dev, is_gpu), "device_is_gpu")

  ! The process grid and this rank's place in it (row-major, as blacs_gridinit 'Row').
  nprow = 1
  do i = 1, nranks
    if (i * i <= nranks .and. mod(nranks, i) == 0) nprow = i
  end do
  npcol = nranks / nprow
  myrow = rank / npcol
  mycol = mod(rank, npcol)
  if (rank == 0) then
    write(*, '(3a, i0, a, i0, a, i0, a, i0, a, i0, a, i0, a, i0, 3a)') "mgblas ", &
      mgblas_version_text(), " from Fortran: n = ", n, ", ", nprow, " x ", npcol, &
      " grid of mb = ", mb, ", nb = ", nb, ", ", nranks, " ranks, ", devices, &
      " devices (", merge("GPU ", "host", is_gpu /= 0), ")"
  end if

  ! This rank's ScaLAPACK local array and descriptor (DTYPE 1; the BLACS context, desc(2),
  ! is not read by mgblas).
  locr = numroc(int(n), int(mb), myrow, nprow)
  locc = numroc(int(n), int(mb), mycol, npcol)
  desc = [1_c_int, 0_c_int, int(n, c_int), int(n, c_int), int(mb, c_int), int(mb, c_int), &
          0_c_int, 0_c_int, int(max(1, locr), c_int)]
  allocate(a_local(max(1, locr), max(1, locc)), back(max(1, locr), max(1, locc)))
  do j = 1, locc
    do i = 1, locr
      a_local(i, j) = entry(global_index(i, myrow, nprow), global_index(j, mycol, npcol))
    end do
  end do
  call check(mgblas_desc2d_from_scalapack(desc, int(nprow, c_int), int(npcol, c_int), "R", &
                                          grid_desc), "desc2d_from_scalapack")

  ! Into mgblas's block columns: every rank hands over its own part.
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, A), "matrix_create")
  mine = c_loc(a_local)
  call check(mgblas_matrix_import_2d(ctx, A, grid_desc, mine), "matrix_import_2d")

  ! T = Q^T A Q, then T's eigenvalues; d, e, tau and w arrive on every rank.
  allocate(d(n), e(max(n - 1, 1_c_int64_t)), tau(max(n - 1, 1_c_int64_t)), w(n))
  call check(mgblas_dsytrd_mgpu(ctx, MGBLAS_UPLO_LOWER, A, d, e, tau), "dsytrd_mgpu")
  call check(mgblas_dtridiag_eigenvalues_mgpu(ctx, n, d, e, w), "dtridiag_eigenvalues_mgpu")

  ! Back into the 2-D layout: above the first superdiagonal the reduction (lower) left A as
  ! it was, so those entries must come back unchanged.
  back = -7
  back_ptr = c_loc(back)
  call check(mgblas_matrix_export_2d(ctx, A, grid_desc, back_ptr), "matrix_export_2d")
  bad = 0
  do j = 1, locc
    do i = 1, locr
      ! Bit for bit: the entries only moved.
      if (global_index(j, mycol, npcol) > global_index(i, myrow, nprow) + 1 .and. &
          transfer(back(i, j), 0_c_int64_t) /= transfer(a_local(i, j), 0_c_int64_t)) &
        bad = bad + 1
    end do
  end do
  if (bad > 0) write(*, '(a, i0, a, i0, a)') "rank ", rank, ": ", bad, &
    " entries of the upper triangle differ after export_2d"
  call check(mgblas_matrix_destroy(A), "matrix_destroy")

  ! The ScaLAPACK-shaped call, in place of pdsyevd("V", "L", n, a_local, 1, 1, desc, w2,
  ! z_local, 1, 1, desc, ...): A's local arrays are only read.
  allocate(z_local(max(1, locr), max(1, locc)), w2(n))
  allocate(a_before, source=a_local)
  z_local = 0
  call check(mgblas_dsyevd_2d(ctx, MGBLAS_UPLO_LOWER, grid_desc, a_local, MGBLAS_RANGE_ALL, &
                              0.0_dp, 0.0_dp, 0_c_int64_t, 0_c_int64_t, m, w2, &
                              c_loc(grid_desc), z_local), "dsyevd_2d")
  if (any(transfer(a_local, 0_c_int64_t, size(a_local)) /= &
          transfer(a_before, 0_c_int64_t, size(a_before))) .or. m /= n) then
    write(*, '(a, i0, a, i0)') "rank ", rank, ": dsyevd_2d changed a or found m = ", m
    bad = bad + 1
  end if
  ! Z on rank 0, for the check only.
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, Zm), "matrix_create")
  z_ptr = c_loc(z_local)
  call check(mgblas_matrix_import_2d(ctx, Zm, grid_desc, z_ptr), "matrix_import_2d")
  allocate(z_full(merge(n, 1_c_int64_t, rank == 0), merge(n, 1_c_int64_t, rank == 0)))
  call check(mgblas_matrix_collect(ctx, Zm, c_loc(z_full), n, 0_c_int), "matrix_collect")
  call check(mgblas_matrix_destroy(Zm), "matrix_destroy")
  call check(mgblas_context_destroy(ctx), "context_destroy")

  ok = bad == 0
  if (rank == 0) then
    allocate(a_full(n, n))
    do j = 1, int(n)
      do i = 1, int(n)
        a_full(i, j) = entry(i, j)
      end do
    end do
    ok = matches_lapack(a_full, w) .and. ok
    write(*, '(a)', advance="no") "dsyevd_2d: "
    ok = matches_lapack(a_full, w2) .and. ok
    ok = vectors_pass(a_full, w2, z_full) .and. ok
  end if
  call MPI_Allreduce(MPI_IN_PLACE, ok, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (.not. ok) stop 1

contains

  ! Stops every rank, with the library's own words, when an mgblas call fails.
  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status == MGBLAS_SUCCESS) return
    write(*, '(a, i0, 6a)') "rank ", rank, ": mgblas_", what, " failed: ", &
      mgblas_status_text(status), ": ", mgblas_error_text()
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine check

  ! [n [mb [nb]]] from the command line.
  subroutine read_arguments(n, mb, nb)
    integer(c_int64_t), intent(out) :: n, mb, nb
    character(len=32) :: text
    integer :: i, stat
    integer(c_int64_t) :: values(3)
    values = [200_c_int64_t, 16_c_int64_t, 32_c_int64_t]
    do i = 1, min(command_argument_count(), 3)
      call get_command_argument(i, text)
      read(text, *, iostat=stat) values(i)
      if (stat /= 0 .or. values(i) < 1) then
        if (rank == 0) write(*, '(3a)') "usage: mgblas_fortran_eigensolver [n [mb [nb]]]: '", &
          trim(text), "' is not a positive integer"
        call MPI_Abort(MPI_COMM_WORLD, 2)
      end if
    end do
    n = values(1)
    mb = values(2)
    nb = values(3)
  end subroutine read_arguments

  ! The matrix, entry (i, j) counted from 1: symmetric, in [-1, 1].
  real(dp) function entry(i, j)
    integer, intent(in) :: i, j
    entry = cos(0.37_dp * i * j + i + j)
  end function entry

  ! ScaLAPACK's NUMROC with the first block on process 0: how many of the n rows (or
  ! columns), cut in blocks of b, process p of np holds.
  integer function numroc(n, b, p, np)
    integer, intent(in) :: n, b, p, np
    integer :: blocks
    blocks = (n + b - 1) / b
    numroc = 0
    if (p >= blocks) return
    numroc = ((blocks - p - 1) / np + 1) * b
    if (mod(blocks - 1, np) == p) numroc = numroc - (blocks * b - n)
  end function numroc

  ! ScaLAPACK's INDXL2G with the first block on process 0: the global index (from 1) of
  ! local index l (from 1) of process p of np, blocks of mb.
  integer function global_index(l, p, np)
    integer, intent(in) :: l, p, np
    global_index = ((l - 1) / int(mb) * np + p) * int(mb) + mod(l - 1, int(mb)) + 1
  end function global_index

  ! The residual and orthogonality of the eigenpairs (w, z) of a; prints them.
  logical function vectors_pass(a, w, z)
    real(dp), intent(in) :: a(:, :), w(:), z(:, :)
    real(dp) :: res, orth, ident(size(w), size(w))
    integer :: k, m
    m = size(a, 1)
    ident = 0
    do k = 1, m
      ident(k, k) = 1
    end do
    res = maxval(sum(abs(matmul(a, z) - z * spread(w, 1, m)), 1)) / &
          (m * max(maxval(sum(abs(a), 1)), tiny(1.0_dp)) * epsilon(1.0_dp))
    orth = maxval(sum(abs(ident - matmul(transpose(z), z)), 1)) / (m * epsilon(1.0_dp))
    ! A NaN fails too.
    vectors_pass = res <= tol .and. orth <= tol
    write(*, '(a, es9.2, a, es9.2, a, i0, a)') "dsyevd_2d: res = ", res, ", orth = ", orth, &
      merge(" (pass: <= ", " (FAIL: >  ", vectors_pass), nint(tol), ")"
  end function vectors_pass

  ! w against LAPACK's dsyev on (a copy of) a; prints eig_err.
  logical function matches_lapack(a, w)
    real(dp), intent(in) :: a(:, :), w(:)
    real(dp), allocatable :: a_copy(:, :), w_ref(:), work(:)
    real(dp) :: query(1), err
    integer :: m, info
    external :: dsyev
    m = size(a, 1)
    allocate(a_copy, source=a)
    allocate(w_ref(m))
    call dsyev("N", "L", m, a_copy, m, w_ref, query, -1, info)
    allocate(work(int(query(1))))
    call dsyev("N", "L", m, a_copy, m, w_ref, work, size(work), info)
    if (info /= 0) then
      write(*, '(a, i0)') "LAPACK dsyev failed: info = ", info
      matches_lapack = .false.
      return
    end if
    err = maxval(abs(w - w_ref)) / (m * max(maxval(abs(w_ref)), tiny(1.0_dp)) * epsilon(1.0_dp))
    ! A NaN in w fails the comparison too.
    matches_lapack = err <= tol
    write(*, '(a, es9.2, a, i0, a)') "eig_err = max |w - w_lapack| / (n ||A||_2 eps) = ", &
      err, merge(" (pass: <= ", " (FAIL: >  ", matches_lapack), nint(tol), ")"
  end function matches_lapack
end program fortran_eigensolver
