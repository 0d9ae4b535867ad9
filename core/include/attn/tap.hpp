// The one tap of every architecture's forward pass, and the key/value cache it takes as an argument. The
// character model (lm) and the model folders (hf) report each intermediate through it under DESIGN.md's
// stage ids, so a trace is what the tap saw and the fast path is the same code with no tap.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace attn {

/// @brief One intermediate, as the tap reports it: stage id (DESIGN.md), layer (0-based; -1 for a global
/// stage), shape (row-major) and its values, valid during the call. `spare`, when not null, holds those values
/// and is not read again by the pass: a tap that keeps the stage may take it (swap) instead of copying it.
struct tapped_stage {
    const char* id;
    int layer;
    std::vector<std::size_t> shape;
    const float* data;
    std::vector<float>* spare = nullptr;
};
using tap = std::function<void(const tapped_stage&)>;

/// @brief Keys and values of the positions run so far, per layer: [position][key/value head][d_head] (a new
/// position appends its rows).
struct kv_cache {
    std::vector<std::vector<float>> k, v;
    int length = 0;
};

}  // namespace attn
