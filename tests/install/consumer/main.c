/* SPDX-License-Identifier: BSD-3-Clause */
/* Installed-package check, C API: a hand-checked zgemv on a host device and a bad
 * argument that must come back as MGBLAS_ERROR_BAD_ARGUMENT naming the argument. */
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
  int ok = mgblas_zgemv(dev, MGBLAS_OP_N, 1, 2, one, A, 1, x, 1, zero, y, 1) == MGBLAS_SUCCESS &&
           y[0].re == 0 && y[0].im == 3;
  /* lda = 0 < m = 1 is rejected and y is left alone. */
  mgblas_status_t bad = mgblas_zgemv(dev, MGBLAS_OP_N, 1, 2, one, A, 0, x, 1, zero, y, 1);
  ok = ok && bad == MGBLAS_ERROR_BAD_ARGUMENT && strstr(mgblas_last_error(), "lda") != NULL &&
       y[0].im == 3;
  printf("mgblas %s consumer (C): zgemv = (%g, %g); bad lda -> '%s': %s\n", mgblas_version(),
         y[0].re, y[0].im, mgblas_last_error(), ok ? "ok" : "WRONG");
  mgblas_context_destroy(ctx);
  return ok ? 0 : 1;
}
