// SPDX-License-Identifier: BSD-3-Clause
// Scalar types, BLAS option enums and scalar traits shared by every layer.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/config.hpp"

// Functions that device code calls too (layout arithmetic, kernel argument helpers).
#if defined(__CUDACC__)
#define MGBLAS_HD __host__ __device__
#else
#define MGBLAS_HD
#endif

// The one precision list. X(letter, Type, args...) for each precision this build has:
// the CMake list MGBLAS_PRECISIONS (default s;d;c;z) sets MGBLAS_HAVE_PRECISION_? in
// core/config.hpp, so declarations, stubs, instances, the Reducer, the C API, tests and
// testers all shrink together. Extra arguments are passed through, so that a macro
// can be applied per precision without a helper macro per use.
#if MGBLAS_HAVE_PRECISION_S
#define MGBLAS_IF_PRECISION_S_(...) __VA_ARGS__
#else
#define MGBLAS_IF_PRECISION_S_(...)
#endif
#if MGBLAS_HAVE_PRECISION_D
#define MGBLAS_IF_PRECISION_D_(...) __VA_ARGS__
#else
#define MGBLAS_IF_PRECISION_D_(...)
#endif
#if MGBLAS_HAVE_PRECISION_C
#define MGBLAS_IF_PRECISION_C_(...) __VA_ARGS__
#else
#define MGBLAS_IF_PRECISION_C_(...)
#endif
#if MGBLAS_HAVE_PRECISION_Z
#define MGBLAS_IF_PRECISION_Z_(...) __VA_ARGS__
#else
#define MGBLAS_IF_PRECISION_Z_(...)
#endif
#define MGBLAS_FOR_EACH_PRECISION(X, ...)                                         \
  MGBLAS_IF_PRECISION_S_(X(s, float __VA_OPT__(, ) __VA_ARGS__))                  \
  MGBLAS_IF_PRECISION_D_(X(d, double __VA_OPT__(, ) __VA_ARGS__))                 \
  MGBLAS_IF_PRECISION_C_(X(c, std::complex<float> __VA_OPT__(, ) __VA_ARGS__))    \
  MGBLAS_IF_PRECISION_Z_(X(z, std::complex<double> __VA_OPT__(, ) __VA_ARGS__))

/// MACRO(Type, args...) for each scalar type the library is built for: drives explicit
/// instantiations, kernel declarations and stubs, typed tests and testers.
#define MGBLAS_FOR_EACH_SCALAR(MACRO, ...) \
  MGBLAS_FOR_EACH_PRECISION(MGBLAS_SCALAR_OF_PRECISION_, MACRO __VA_OPT__(, ) __VA_ARGS__)
#define MGBLAS_SCALAR_OF_PRECISION_(p, T, MACRO, ...) MACRO(T __VA_OPT__(, ) __VA_ARGS__)

namespace mgblas {

using scomplex = std::complex<float>;
using zcomplex = std::complex<double>;

/// op(A): A, A^T, or A^H (conjugate transpose; equals T for real types).
enum class Op : char { N = 'N', T = 'T', C = 'C' };
/// Which triangle of a symmetric/Hermitian matrix is stored and referenced.
enum class Uplo : char { Lower = 'L', Upper = 'U' };
/// Which factor of a bidiagonal reduction Q^H A P = B an operation applies (LAPACK's VECT
/// of ?ormbr / ?unmbr).
enum class Vect : char { Q = 'Q', P = 'P' };

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

/// The scalar type of untyped buffers (the Reducer's entry, the C API), as NCCL's
/// ncclDataType_t: one enumerator per precision, whether or not this build has it.
enum class DataType : std::uint8_t { kFloat32, kFloat64, kComplex64, kComplex128 };

template <Scalar T> constexpr DataType data_type_of() {
  if constexpr (std::is_same_v<T, float>) return DataType::kFloat32;
  else if constexpr (std::is_same_v<T, double>) return DataType::kFloat64;
  else if constexpr (std::is_same_v<T, scomplex>) return DataType::kComplex64;
  else return DataType::kComplex128;
}

constexpr char precision_letter(DataType t) {
  constexpr char letters[] = {'s', 'd', 'c', 'z'};
  return letters[static_cast<int>(t)];
}

/// The scalar type of an enabled precision letter: scalar_of_t<'d'> is double (generated
/// sources name their precision by letter only).
template <char kLetter> struct ScalarOf;
#define MGBLAS_SCALAR_OF_(p, T) \
  template <> struct ScalarOf<#p[0]> { using type = T; };
MGBLAS_FOR_EACH_PRECISION(MGBLAS_SCALAR_OF_)
#undef MGBLAS_SCALAR_OF_
template <char kLetter> using scalar_of_t = typename ScalarOf<kLetter>::type;

/// Whether this build has the precision (MGBLAS_PRECISIONS).
template <Scalar T> inline constexpr bool precision_enabled_v = false;
#define MGBLAS_PRECISION_ENABLED_(T) \
  template <> inline constexpr bool precision_enabled_v<T> = true;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_PRECISION_ENABLED_)
#undef MGBLAS_PRECISION_ENABLED_

constexpr bool precision_enabled(DataType t) {
#define MGBLAS_PRECISION_ENABLED_(T) \
  if (t == data_type_of<T>()) return true;
  MGBLAS_FOR_EACH_SCALAR(MGBLAS_PRECISION_ENABLED_)
#undef MGBLAS_PRECISION_ENABLED_
  return false;
}

/// The precisions of this build, e.g. "s;d;c;z" (the value of MGBLAS_PRECISIONS).
constexpr const char* enabled_precisions() { return MGBLAS_PRECISIONS_STRING; }

/// The letters of MGBLAS_FOR_EACH_PRECISION in order, e.g. "sdcz" (for loops over
/// precision letters; tests check it against enabled_precisions()).
#define MGBLAS_PRECISION_LETTER_STRING_(p, T) #p
constexpr const char* enabled_precision_letters() {
  return "" MGBLAS_FOR_EACH_PRECISION(MGBLAS_PRECISION_LETTER_STRING_);
}
#undef MGBLAS_PRECISION_LETTER_STRING_

/// The enabled scalar types as a type list: EnabledScalars::apply<L> is L<float, ...>
/// (typed tests use ::testing::Types).
template <typename... Ts> struct TypeList {
  template <template <typename...> class L> using apply = L<Ts...>;
};
namespace detail {
template <typename First, typename... Ts> struct DropFirst { using type = TypeList<Ts...>; };
}  // namespace detail
#define MGBLAS_COMMA_SCALAR_(T) , T
using EnabledScalars = detail::DropFirst<void MGBLAS_FOR_EACH_SCALAR(MGBLAS_COMMA_SCALAR_)>::type;
#undef MGBLAS_COMMA_SCALAR_

namespace detail {
/// Throws NotCompiled naming the precision and MGBLAS_PRECISIONS (core/error.cpp).
[[noreturn]] void throw_precision_not_compiled(DataType t, const char* what);
/// Throws BadArgument for a letter that is no precision.
[[noreturn]] void throw_unknown_precision(char letter, const char* what);
}  // namespace detail

/// The DataType of a letter s, d, c or z; BadArgument otherwise.
inline DataType data_type_of_letter(char letter, const char* what = "precision") {
  switch (letter) {
    case 's': return DataType::kFloat32;
    case 'd': return DataType::kFloat64;
    case 'c': return DataType::kComplex64;
    case 'z': return DataType::kComplex128;
    default: detail::throw_unknown_precision(letter, what);
  }
}

/// f(std::type_identity<T>{}) for the scalar type of `t`; NotCompiled (naming the
/// precision and MGBLAS_PRECISIONS) where this build lacks it: the one run-time switch
/// over the precision list, for --type flags, the C API and untyped buffers.
template <typename F>
decltype(auto) visit_scalar(DataType t, F&& f, const char* what = "precision") {
#define MGBLAS_VISIT_SCALAR_(T) \
  if (t == data_type_of<T>()) return f(std::type_identity<T>{});
  MGBLAS_FOR_EACH_SCALAR(MGBLAS_VISIT_SCALAR_)
#undef MGBLAS_VISIT_SCALAR_
  detail::throw_precision_not_compiled(t, what);
}

/// f(std::type_identity<T>{}) for the precision letter s, d, c or z: BadArgument for
/// another letter, NotCompiled for a precision this build lacks (--type options).
template <typename F>
decltype(auto) visit_scalar(char letter, F&& f, const char* what = "precision") {
  return visit_scalar(data_type_of_letter(letter, what), std::forward<F>(f), what);
}

/// The letters of `wanted` that this build has, in the order given: the defaults of
/// --type options ("dz" gives "d" in a build with MGBLAS_PRECISIONS=d).
inline std::string enabled_of(std::string_view wanted) {
  std::string out;
  for (char c : wanted)
    if (std::string_view(enabled_precision_letters()).find(c) != std::string_view::npos) out += c;
  return out;
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
