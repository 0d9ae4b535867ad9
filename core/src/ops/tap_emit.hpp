// How a forward pass reports to the tap (attn/tap.hpp): the character model's (lm/forward.cpp) and the model
// folders' (hf/forward.cpp) alike, attention's sub-steps included, under the sequence core's stage ids.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "attn/tap.hpp"

namespace attn::ops {

/// @brief Where attention's sub-steps are kept when a trace asks for them, each h × n × t (row_max, row_sum
/// h × n × 1).
struct attention_steps {
    std::vector<float> scores, scaled, masked, row_max, exp, row_sum, weights;
};

/// @brief Reports a pass's stages when it has a tap; without one every call is a no-op, so the fast path is the
/// same code.
struct emitter {
    const tap* t = nullptr;
    explicit operator bool() const { return t != nullptr && static_cast<bool>(*t); }
    void operator()(const char* id, int layer, std::vector<std::size_t> shape, const float* data) const {
        if (*this) (*t)(tapped_stage{id, layer, std::move(shape), data});
    }
    /// a stage the pass has done with: the tap may take its numbers
    void spare(const char* id, int layer, std::vector<std::size_t> shape, std::vector<float>& data) const {
        if (*this) (*t)(tapped_stage{id, layer, std::move(shape), data.data(), &data});
    }
    /// attention's sub-steps of n queries over t keys, h heads, in the sequence core's order
    void steps(int layer, std::size_t h, std::size_t n, std::size_t t, attention_steps& s) const {
        spare("scores", layer, {h, n, t}, s.scores);
        spare("scaled", layer, {h, n, t}, s.scaled);
        spare("masked", layer, {h, n, t}, s.masked);
        spare("row_max", layer, {h, n, 1}, s.row_max);
        spare("exp", layer, {h, n, t}, s.exp);
        spare("row_sum", layer, {h, n, 1}, s.row_sum);
        spare("weights", layer, {h, n, t}, s.weights);
    }
};

}  // namespace attn::ops
