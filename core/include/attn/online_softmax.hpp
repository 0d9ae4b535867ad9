// The online softmax shown step by step (the `online-softmax` example): the same α·V as the
// softmax stages, computed a tile of B keys at a time the way attn/streaming.hpp does it for long
// sequences, with its running state kept after every tile so the page can show it.
#pragma once

#include <cstddef>

#include "attn/types.hpp"

namespace attn {

/// @brief The running state after each of the T = ⌈n_k / B⌉ tiles, per head and query row.
struct online_steps {
    tensor3 max;      // (h, n_q, T)        m⁽ᵗ⁾ = max(m⁽ᵗ⁻¹⁾, max_{j ∈ tile t} e_ij)
    tensor3 rescale;  // (h, n_q, T)        r⁽ᵗ⁾ = exp(m⁽ᵗ⁻¹⁾ − m⁽ᵗ⁾), 0 while nothing was seen before
    tensor3 sum;      // (h, n_q, T)        ℓ⁽ᵗ⁾ = ℓ⁽ᵗ⁻¹⁾·r⁽ᵗ⁾ + Σ_{j ∈ tile t} exp(e_ij − m⁽ᵗ⁾)
    tensor3 acc;      // (h, n_q, T·d_h)    a⁽ᵗ⁾ = a⁽ᵗ⁻¹⁾·r⁽ᵗ⁾ + Σ_{j ∈ tile t} exp(e_ij − m⁽ᵗ⁾)·v_j
    tensor3 output;   // (h, n_q, d_h)      a⁽ᵀ⁾ / ℓ⁽ᵀ⁾: equal to the context α·V
};

/// @brief Tiles of `block` keys. `scores` is the softmax's input (h, n_q, n_k) with −∞ for a masked
/// key (softmax_input): such a key is skipped. Before a row has seen any key its running maximum
/// reads `nothing_yet` (the spec's mask_value), so every stage stays a finite number.
online_steps online_softmax(const tensor3& scores, const tensor3& v, std::size_t block, float nothing_yet);

/// @brief Number of tiles of `block` keys over n_k keys.
inline std::size_t tile_count(std::size_t n_k, std::size_t block) { return (n_k + block - 1) / block; }

}  // namespace attn
