// What both twins of the streaming attention share: the walk over heads and query rows, each
// row's accumulator, the causal bound on its keys, and the last division by the running sum.
// Internal to the library.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn::streaming_detail {

/// For every head h and query row i: acc (d_h) zeroed, then l = keys_of_row(q_i, column offset of h,
/// number of keys it sees, acc, 1/√d_h) accumulates Σ e^(s_ij − m)·v_j into acc and returns Σ e^(s_ij − m);
/// out_i = acc / l.
template <class KeysOfRow>
void for_each_row(float* out, const float* q, std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads, bool causal,
                  KeysOfRow keys_of_row) {
    const std::size_t dh = d / heads;
    const float scale = 1.0f / std::sqrt(float(dh));
    std::vector<float> acc(dh);
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n_q; ++i) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            const std::size_t keys = causal ? std::min(n_k, i + 1) : n_k;
            const float l = keys_of_row(q + i * d + h * dh, h * dh, keys, acc.data(), scale);
            float* oi = out + i * d + h * dh;
            for (std::size_t p = 0; p < dh; ++p) oi[p] = acc[p] / l;
        }
}

}  // namespace attn::streaming_detail
