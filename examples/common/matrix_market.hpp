// SPDX-License-Identifier: BSD-3-Clause
// A small Matrix Market reader for the examples (header-only, host only): real or complex
// matrices, array format (general, symmetric, hermitian) or coordinate format (general,
// symmetric, hermitian), integer entries read as real. The result is the full matrix,
// column-major, in complex<double>: the caller rounds it to its own precision. Square
// unless the caller allows rectangular (general) files. Not supported
// (std::runtime_error): pattern and skew-symmetric files. The format is described at https://math.nist.gov/MatrixMarket/formats.html.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mgblas::examples {

struct MatrixMarket {
  int64_t m = 0;           ///< rows
  int64_t n = 0;           ///< columns (= m unless the reader allowed a rectangular file)
  bool complex = false;    ///< field complex (else real or integer)
  std::string format;      ///< "array" or "coordinate"
  std::string symmetry;    ///< "general", "symmetric" or "hermitian"
  std::vector<std::complex<double>> a;  ///< m x n, column-major, both triangles filled
};

namespace detail {

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

[[noreturn]] inline void mm_fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("Matrix Market file " + path + ": " + what);
}

}  // namespace detail

/// Reads `path` into a full matrix. A symmetric file's mirrored entries are a(j, i) =
/// a(i, j), a hermitian file's conj(a(i, j)); entries given twice in a coordinate file are
/// summed (the format's convention for assembled matrices). `rectangular`: a general file
/// may be m x n (else it must be square).
inline MatrixMarket read_matrix_market(const std::string& path, bool rectangular = false) {
  using detail::mm_fail;
  std::ifstream in(path);
  if (!in) mm_fail(path, "cannot be opened");
  std::string line;
  if (!std::getline(in, line)) mm_fail(path, "is empty");
  MatrixMarket mm;
  {
    std::istringstream h(detail::lower(line));
    std::string banner, object, field;
    h >> banner >> object >> mm.format >> field >> mm.symmetry;
    if (banner != "%%matrixmarket" || object != "matrix")
      mm_fail(path, "does not start with '%%MatrixMarket matrix'");
    if (mm.format != "array" && mm.format != "coordinate")
      mm_fail(path, "format '" + mm.format + "' is neither array nor coordinate");
    if (field == "complex")
      mm.complex = true;
    else if (field != "real" && field != "integer" && field != "double")
      mm_fail(path, "field '" + field + "' is not supported (real, integer or complex)");
    if (mm.symmetry != "general" && mm.symmetry != "symmetric" && mm.symmetry != "hermitian")
      mm_fail(path, "symmetry '" + mm.symmetry + "' is not supported");
  }
  // Comment lines (and blank ones) until the size line.
  do {
    if (!std::getline(in, line)) mm_fail(path, "has no size line");
  } while (line.empty() || line[0] == '%' ||
           line.find_first_not_of(" \t\r") == std::string::npos);
  int64_t rows = 0, cols = 0, nnz = 0;
  {
    std::istringstream s(line);
    s >> rows >> cols;
    if (mm.format == "coordinate") s >> nnz;
    if (!s || rows < 0 || cols < 0 || nnz < 0) mm_fail(path, "bad size line '" + line + "'");
  }
  const bool mirror = mm.symmetry != "general";
  if (rows != cols && (!rectangular || mirror))
    mm_fail(path, "is not square (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
  const int64_t m = mm.m = rows, n = mm.n = cols;
  mm.a.assign(static_cast<std::size_t>(m * n), 0.0);
  const bool conj = mm.symmetry == "hermitian";
  const auto at = [&](int64_t i, int64_t j) -> std::complex<double>& {
    return mm.a[static_cast<std::size_t>(i + j * m)];
  };
  const auto value = [&](std::istream& s) {
    double re = 0, im = 0;
    s >> re;
    if (mm.complex) s >> im;
    if (!s) mm_fail(path, "bad or missing entry");
    return std::complex<double>(re, im);
  };
  const auto put = [&](int64_t i, int64_t j, std::complex<double> v, bool add) {
    if (mirror && i < j) mm_fail(path, "entry above the diagonal in a " + mm.symmetry + " file");
    add ? at(i, j) += v : at(i, j) = v;
    if (mirror && i != j) {
      const std::complex<double> w = conj ? std::conj(v) : v;
      add ? at(j, i) += w : at(j, i) = w;
    }
  };
  // Entries: whitespace-separated tokens from here on (comments are only allowed above).
  if (mm.format == "array") {
    // Column-major; symmetric and hermitian store the lower triangle only.
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = mirror ? j : 0; i < m; ++i) put(i, j, value(in), false);
  } else {
    for (int64_t k = 0; k < nnz; ++k) {
      int64_t i = 0, j = 0;
      in >> i >> j;
      if (!in || i < 1 || i > m || j < 1 || j > n)
        mm_fail(path, "bad index in entry " + std::to_string(k + 1));
      put(i - 1, j - 1, value(in), true);
    }
  }
  return mm;
}

/// max |a(i, j) - conj(a(j, i))| relative to max |a(i, j)| (0 for a Hermitian matrix):
/// the eigen-solver's check that a general file holds a symmetric / Hermitian matrix.
inline double hermitian_defect(const MatrixMarket& mm) {
  const int64_t n = mm.n;
  double most = 0, big = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      const auto aij = mm.a[static_cast<std::size_t>(i + j * n)];
      const auto aji = mm.a[static_cast<std::size_t>(j + i * n)];
      most = std::max(most, std::abs(aij - std::conj(aji)));
      big = std::max(big, std::abs(aij));
    }
  return big > 0 ? most / big : 0;
}

}  // namespace mgblas::examples
