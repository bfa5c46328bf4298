# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pytest

import mgblas


def test_context_properties(ctx):
    assert ctx.size >= 1
    assert 0 <= ctx.rank < ctx.size
    assert ctx.backend in ("host", "cuda")
    assert ctx.num_devices == len(ctx.devices) >= 1
    assert ctx.global_num_devices >= ctx.num_devices
    assert 0 <= ctx.device_offset < ctx.global_num_devices
    assert "rank=" in repr(ctx)
    report = ctx.binding_report()  # collective
    assert report.count("\n") >= ctx.global_num_devices - 1
    ctx.synchronize()
    ctx.barrier()


def test_context_host_devices():
    c = mgblas.Context(backend="host", host_devices=3)
    assert c.backend == "host"
    assert c.devices == ["host:0", "host:1", "host:2"]
    assert c.global_num_devices == 3 * c.size


def test_context_from_mpi4py_communicators():
    MPI = pytest.importorskip("mpi4py.MPI")
    world = mgblas.Context(MPI.COMM_WORLD, backend="host", host_devices=1)
    assert (world.rank, world.size) == (MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size())
    assert world.comm is MPI.COMM_WORLD
    alone = mgblas.Context(MPI.COMM_SELF, backend="host", host_devices=2)
    assert (alone.rank, alone.size, alone.global_num_devices) == (0, 1, 2)
    # A split communicator: even and odd ranks apart.
    sub = MPI.COMM_WORLD.Split(MPI.COMM_WORLD.Get_rank() % 2, 0)
    c = mgblas.Context(sub, backend="host", host_devices=1)
    assert c.size == sub.Get_size()
    A = np.arange(12.0).reshape(3, 4)
    M = mgblas.DistMatrix.from_array(c, A, nb=1, root=None)
    np.testing.assert_array_equal(M.to_array(root=None), A)
    sub.Free()


@pytest.mark.parametrize("kwargs, exc", [
    (dict(backend="gpu"), mgblas.BadArgument),
    (dict(host_devices=0), mgblas.BadArgument),
    (dict(comm="world"), mgblas.BadArgument),
])
def test_context_bad_arguments(kwargs, exc):
    with pytest.raises(exc):
        mgblas.Context(**kwargs)


def test_error_hierarchy():
    assert issubclass(mgblas.BadArgument, mgblas.Error)
    assert issubclass(mgblas.BadArgument, ValueError)
    assert issubclass(mgblas.DimensionMismatch, ValueError)
    assert issubclass(mgblas.NotCompiled, NotImplementedError)
    assert issubclass(mgblas.RemoteError, mgblas.Error)
    for name in ("CudaError", "CublasError", "NcclError", "MpiError", "HwlocError",
                 "Unimplemented"):
        assert issubclass(getattr(mgblas, name), mgblas.Error)


def test_cuda_backend_without_gpu_is_a_clear_error():
    if mgblas.cuda_device_count() > 0:
        pytest.skip("a GPU is visible")
    with pytest.raises(mgblas.Error, match="GPU"):
        mgblas.Context(backend="cuda")
