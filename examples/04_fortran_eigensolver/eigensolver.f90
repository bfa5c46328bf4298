! SPDX-License-Identifier: BSD-3-Clause
!
! 04_fortran_eigensolver: the eigenvalues of a symmetric matrix from Fortran, through the
! module `mgblas` (fortran/mgblas.f90.in), on every GPU (or host device) of every rank.
!
! What: rank 0 draws a random symmetric n x n matrix A (entries in (-1, 1), fixed seed);
! mgblas_matrix_distribute spreads it in block columns of width nb over every device of
! every rank; mgblas_dsytrd_mgpu reduces it to tridiagonal form T = Q^T A Q (d, e, tau on
! every rank); mgblas_dtridiag_eigenvalues_mgpu gives T's eigenvalues w, ascending. Rank 0
! checks w against LAPACK's dsyev on the same matrix:
!   eig_err = max_i |w_i - w_lapack_i| / (n ||A||_2 eps),  ||A||_2 = max_i |w_lapack_i|.
!
! How:  mpirun -np 2 ./mgblas_fortran_eigensolver [n [nb]]     (defaults: n = 200, nb = 32)
!       With GPUs each rank drives its GPUs; without, MGBLAS_HOST_DEVICES=2 gives each
!       rank two host devices (the default is one).
!
! Prints on rank 0, for example:
!   mgblas 0.1.0 from Fortran: n = 200, nb = 32, 2 ranks, 4 devices (host)
!   eig_err = max |w - w_lapack| / (n ||A||_2 eps) =  8.60E-02 (pass: <= 100)
! and every rank exits with 0 when eig_err <= 100, with 1 otherwise.
program fortran_eigensolver
  use mpi_f08
  use mgblas
  implicit none
  integer, parameter :: dp = c_double
  real(dp), parameter :: tol = 100
  integer(c_int64_t) :: n, nb
  integer :: rank, nranks
  integer(c_int) :: local_devices, devices, is_gpu
  type(c_ptr) :: ctx, dev, A, host
  real(dp), allocatable, target :: a_host(:, :)
  real(dp), allocatable :: d(:), e(:), tau(:), w(:)
  logical :: ok

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call read_arguments(n, nb)

  ! A context over MPI_COMM_WORLD: the GPUs when there are, else host devices.
  call check(mgblas_context_create_ex(MGBLAS_BACKEND_AUTO, 0_c_int, ctx), "context_create")
  call check(mgblas_context_num_devices(ctx, local_devices, devices), "context_num_devices")
  call check(mgblas_context_device(ctx, 0_c_int, dev), "context_device")
  call check(mgblas_device_is_gpu(dev, is_gpu), "device_is_gpu")
  if (rank == 0) then
    write(*, '(3a, i0, a, i0, a, i0, a, i0, 3a)') "mgblas ", mgblas_version_text(), &
      " from Fortran: n = ", n, ", nb = ", nb, ", ", nranks, " ranks, ", devices, &
      " devices (", merge("GPU ", "host", is_gpu /= 0), ")"
  end if

  ! The matrix lives on rank 0 only; the other ranks pass a null host pointer.
  host = c_null_ptr
  if (rank == 0) then
    call random_symmetric(a_host, n)
    host = c_loc(a_host)
  end if
  call check(mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, nb, A), "matrix_create")
  call check(mgblas_matrix_distribute(ctx, A, host, n, 0_c_int), "matrix_distribute")

  ! T = Q^T A Q, then T's eigenvalues; d, e, tau and w arrive on every rank.
  allocate(d(n), e(max(n - 1, 1_c_int64_t)), tau(max(n - 1, 1_c_int64_t)), w(n))
  call check(mgblas_dsytrd_mgpu(ctx, MGBLAS_UPLO_LOWER, A, d, e, tau), "dsytrd_mgpu")
  call check(mgblas_dtridiag_eigenvalues_mgpu(ctx, n, d, e, w), "dtridiag_eigenvalues_mgpu")
  call check(mgblas_matrix_destroy(A), "matrix_destroy")
  call check(mgblas_context_destroy(ctx), "context_destroy")

  ok = .true.
  if (rank == 0) ok = matches_lapack(a_host, w)
  call MPI_Bcast(ok, 1, MPI_LOGICAL, 0, MPI_COMM_WORLD)
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

  ! [n [nb]] from the command line.
  subroutine read_arguments(n, nb)
    integer(c_int64_t), intent(out) :: n, nb
    character(len=32) :: text
    integer :: i, stat
    integer(c_int64_t) :: values(2)
    values = [200_c_int64_t, 32_c_int64_t]
    do i = 1, min(command_argument_count(), 2)
      call get_command_argument(i, text)
      read(text, *, iostat=stat) values(i)
      if (stat /= 0 .or. values(i) < 1) then
        if (rank == 0) write(*, '(3a)') "usage: mgblas_fortran_eigensolver [n [nb]]: '", &
          trim(text), "' is not a positive integer"
        call MPI_Abort(MPI_COMM_WORLD, 2)
      end if
    end do
    n = values(1)
    nb = values(2)
  end subroutine read_arguments

  ! a = (R + R^T) - 1 for R uniform in [0, 1): symmetric, entries in (-1, 1).
  subroutine random_symmetric(a, n)
    real(dp), allocatable, intent(out) :: a(:, :)
    integer(c_int64_t), intent(in) :: n
    integer, allocatable :: seed(:)
    integer :: k, i
    call random_seed(size=k)
    seed = [(20240 + 7 * i, i = 1, k)]
    call random_seed(put=seed)
    allocate(a(n, n))
    call random_number(a)
    a = a + transpose(a) - 1
  end subroutine random_symmetric

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
