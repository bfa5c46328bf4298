// SPDX-License-Identifier: BSD-3-Clause
// Scalar types, BLAS option enums and scalar traits shared by every layer.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

// Functions that device code calls too (layout arithmetic, kernel argument helpers).
#if defined(__CUDACC__)
#define MGBLAS_HD __host__ __device__
#else
#define MGBLAS_HD
#endif

namespace mgblas {

using scomplex = std::complex<float>;
using zcomplex = std::complex<double>;

/// Applies MACRO to each scalar type the library is built for (s, d, c, z):
/// drives explicit instantiations, typed tests and testers from one list.
#define MGBLAS_FOR_EACH_SCALAR(MACRO) \
  MACRO(float)                        \
  MACRO(double)                       \
  MACRO(std::complex<float>)          \
  MACRO(std::complex<double>)

/// op(A): A, A^T, or A^H (conjugate transpose; equals T for real types).
enum class Op : char { N = 'N', T = 'T', C = 'C' };
/// Which triangle of a symmetric/Hermitian matrix is stored and referenced.
enum class Uplo : char { Lower = 'L', Upper = 'U' };

template <typename T> struct is_complex : std::false_type {};
template <typename R> struct is_complex<std::complex<R>> : std::true_type {};
template <typename T> inline constexpr bool is_complex_v = is_complex<T>::value;

template <typename T> struct real_type { using type = T; };
template <typename R> struct real_type<std::complex<R>> { using type = R; };
template <typename T> using real_type_t = typename real_type<T>::type;

template <typename T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                 std::is_same_v<T, scomplex> || std::is_same_v<T, zcomplex>;

/// BLAS precision letter: s, d, c or z.
template <Scalar T> constexpr char precision_letter() {
  if constexpr (std::is_same_v<T, float>) return 's';
  else if constexpr (std::is_same_v<T, double>) return 'd';
  else if constexpr (std::is_same_v<T, scomplex>) return 'c';
  else return 'z';
}

/// Complex conjugate that stays in T for real types (std::conj returns complex).
template <Scalar T> constexpr T conj(T v) {
  if constexpr (is_complex_v<T>) return std::conj(v);
  else return v;
}

inline const char* to_string(Op op) {
  return op == Op::N ? "N" : op == Op::T ? "T" : "C";
}
inline const char* to_string(Uplo uplo) { return uplo == Uplo::Lower ? "L" : "U"; }

}  // namespace mgblas
