// The vision part's trace (vision_trace.cpp), which its table's trace operations call (vision_call.cpp).
#pragma once

#include "trace_paths.hpp"

namespace attn::wasm {

/// A vision trace's layout as JSON text, [{id, formula, operands, axes, shape, offset, size}] (written once per
/// structure, in the -Oz file: vision_call.cpp).
std::string vision_layout_text(const vision_trace& t);

/// trace_skeleton for vision specs (trace_paths.hpp), which the trace operations call.
json trace_vision(std::string_view skeleton, const float* numbers, std::size_t count, bool interactive, skeleton_of what);

}  // namespace attn::wasm
