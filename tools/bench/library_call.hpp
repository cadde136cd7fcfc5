// A tilemm product through the public C API (tilemmGemmEx, or tilemmGemmStridedBatchedEx
// for a batch), so that what the bench times is what a user's call gets: argument
// validation, dispatch and launch included.
#pragma once

#include "dtype.hpp"
#include "operands.hpp"
#include "options.hpp"
#include "tilemm/tilemm.h"

namespace tilemm::bench {

tilemmStatus_t call_tilemm(tilemmHandle_t handle, const Shape& shape, const BenchDType& dtype,
                           const OperandLayout& layout, const OperandSet& set, float alpha, float beta);

}  // namespace tilemm::bench
