// SPDX-License-Identifier: BSD-3-Clause
// The operations' C entry points, generated at configure time from the manifest
// (api/operations.py, api/generate.py) into the build tree as c_entries.inc: each
// converts its arguments (a collective one inside the ranks' agreement), calls the C++
// API inside guard() and returns a status. docs/api.md lists them.
#include "capi/capi_support.hpp"

using namespace mgblas::capi;

#include "c_entries.inc"
