/* SPDX-License-Identifier: BSD-3-Clause */
/* Installed-package check, C API: a hand-checked zgemv on a host device, its operands
 * in device memory through the C memory entries (no CUDA runtime call of its own), and
 * a bad argument that must come back as MGBLAS_ERROR_BAD_ARGUMENT naming the argument. */
#include <mgblas/mgblas.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  mgblas_context_t ctx;
  mgblas_device_t dev;
  if (mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 1, &ctx) != MGBLAS_SUCCESS ||
      mgblas_context_device(ctx, 0, &dev) != MGBLAS_SUCCESS) {
    printf("context: %s\n", mgblas_last_error());
    return 1;
  }
  /* A = [i 2], x = [1, i] -> A x = i + 2i = 3i. */
  mgblas_complex_double A[2] = {{0, 1}, {2, 0}}, x[2] = {{1, 0}, {0, 1}}, y[1] = {{-1, -1}};
  mgblas_complex_double one = {1, 0}, zero = {0, 0};
  void *dA = NULL, *dx = NULL, *dy = NULL;
  int ok = mgblas_malloc_device(dev, sizeof A, &dA) == MGBLAS_SUCCESS &&
           mgblas_malloc_device(dev, sizeof x, &dx) == MGBLAS_SUCCESS &&
           mgblas_malloc_device(dev, sizeof y, &dy) == MGBLAS_SUCCESS &&
           mgblas_memcpy(dev, dA, A, sizeof A) == MGBLAS_SUCCESS &&
           mgblas_memcpy(dev, dx, x, sizeof x) == MGBLAS_SUCCESS &&
           mgblas_zgemv_async(dev, NULL, MGBLAS_OP_N, 1, 2, one, (const mgblas_complex_double*)dA,
                              1, (const mgblas_complex_double*)dx, 1, zero,
                              (mgblas_complex_double*)dy, 1) == MGBLAS_SUCCESS &&
           mgblas_device_synchronize(dev) == MGBLAS_SUCCESS &&
           mgblas_memcpy(dev, y, dy, sizeof y) == MGBLAS_SUCCESS && y[0].re == 0 && y[0].im == 3;
  mgblas_free_device(dev, dA);
  mgblas_free_device(dev, dx);
  mgblas_free_device(dev, dy);
  /* lda = 0 < m = 1 is rejected and y is left alone. */
  mgblas_status_t bad = mgblas_zgemv(dev, MGBLAS_OP_N, 1, 2, one, A, 0, x, 1, zero, y, 1);
  ok = ok && bad == MGBLAS_ERROR_BAD_ARGUMENT && strstr(mgblas_last_error(), "lda") != NULL &&
       y[0].im == 3;
  printf("mgblas %s consumer (C): zgemv = (%g, %g); bad lda -> '%s': %s\n", mgblas_version(),
         y[0].re, y[0].im, mgblas_last_error(), ok ? "ok" : "WRONG");
  mgblas_context_destroy(ctx);
  return ok ? 0 : 1;
}
