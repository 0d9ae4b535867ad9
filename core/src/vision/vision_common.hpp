// What the vision blocks share: adding a stage, a dense layer on a vector, the activations.
// Internal to the library.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/vision.hpp"

namespace attn::vision_detail {

inline const std::vector<float>& add_stage(vision_trace& t, std::string id, std::vector<std::size_t> shape, std::vector<float> data) {
    t.stages.push_back({std::move(id), std::move(shape), std::move(data)});
    return t.stages.back().data;
}

/// out = z·W + b for one vector z (layer.in values).
inline std::vector<float> dense(const float* z, const dense_layer& layer) {
    std::vector<float> out(layer.b.begin(), layer.b.end());
    for (std::size_t i = 0; i < layer.in; ++i)
        for (std::size_t o = 0; o < layer.out; ++o) out[o] += z[i] * layer.w[i * layer.out + o];
    return out;
}

inline float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }
inline float relu(float v) { return v > 0 ? v : 0.0f; }
/// h_swish(f) = f·relu6(f + 3)/6, MobileNetV3's cheap swish, as Coordinate Attention uses it.
inline float h_swish(float f) { return f * std::min(6.0f, std::max(0.0f, f + 3.0f)) / 6.0f; }

template <class F>
std::vector<float> map(const std::vector<float>& v, F f) {
    std::vector<float> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), f);
    return out;
}

}  // namespace attn::vision_detail
