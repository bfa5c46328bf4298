# SPDX-License-Identifier: BSD-3-Clause
# tester_dist: distributed gemv/symv/hemv over the GPUs of every rank, host and NCCL
# reducers, against mgblas on one GPU. Included from CMakeLists.txt (CUDA builds only).
mgblas_add_tester(tester_dist tester_dist.cpp tester_dist_fill.cu)
target_compile_options(tester_dist PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
# A small checked run of every precision, operation, reducer and vector form, so that
# `ctest -L tester` exercises it on a GPU machine (one rank, all its GPUs).
add_test(NAME tester_dist_check
         COMMAND tester_dist --op gemv,symv,hemv --type ${MGBLAS_TYPE_ARG} --trans N,T,C --uplo L,U
                 -n 1000,2131 --nb 100 --offset 0,17 --reducer host,nccl --chunks 1,3
                 --vectors device,host,cyclic --niter 2 --warmup 1)
set_tests_properties(tester_dist_check PROPERTIES LABELS "tester;gpu" RESOURCE_LOCK gpu
                     SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "NCCL_NVLS_ENABLE=0")
