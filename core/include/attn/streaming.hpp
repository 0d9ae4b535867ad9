// Attention without its n_q × n_k matrices: softmax(q·kᵀ/√d_h [+ causal mask])·v computed a
// block of keys at a time with an online softmax (FlashAttention's idea): for each query row a
// running maximum m, a running sum ℓ and an accumulator of weighted values; when a new block
// raises the maximum, ℓ and the accumulator are rescaled by e^(m_old − m_new). Memory is O(d) per
// row whatever the length, so long sequences fit where the trace's n² stages would not.
// The public fast path of the npm package (a.attention) runs this; the twins are attn::simd and
// attn::scalar as for the other kernels.
#pragma once

#include <atomic>
#include <cstddef>

namespace attn {

/// @brief out (n_q × d) for q (n_q × d), k and v (n_k × d), with `heads` heads as contiguous column
/// blocks of d (head h is columns h·d/heads … (h+1)·d/heads − 1), each scaled by 1/√(d/heads). causal:
/// query i sees keys j ≤ i. d must be a multiple of heads; a causal row with no key cannot occur (j = 0 ≤ i).
void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal);

/// @brief The instruction sets the SIMD kernel is built for: four lanes everywhere (SSE, wasm SIMD128);
/// on x86-64 also AVX2 + FMA and AVX-512F, used when the CPU has them.
enum class simd_level { lanes4, avx2, avx512 };
/// @brief The widest level this CPU runs: what attention_streaming uses (decided once).
simd_level streaming_level();
/// @brief e.g. "avx2+fma (8 lanes)".
const char* simd_level_name(simd_level level);
/// @brief attention_streaming at one level (tests and `attn bench` compare them); false, and nothing
/// computed, when this CPU or this build lacks that level.
bool attention_streaming_at(simd_level level, float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                            std::size_t n_k, std::size_t d, std::size_t heads, bool causal);

/// @brief One of the threads that share an attention_streaming call: the work is items (one head's block of
/// query rows each), and each thread takes the next item from next_item (0 at the start, one counter for all
/// of them) until none is left, so a thread that starts late or runs slower takes fewer. Together they
/// write every row of out, the same numbers bit for bit as one thread (every row is computed on its own).
void attention_streaming_shared(float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                                std::size_t n_k, std::size_t d, std::size_t heads, bool causal,
                                std::atomic<std::size_t>& next_item);

/// @brief How many threads attention_streaming_threads uses for a call: 1 in a build without threads
/// (everywhere but the wasm-threads module) and for a call under about 4M multiply-adds, where starting
/// a thread costs more than it saves; else min(max_threads, the build's pool, the machine's cores).
std::size_t streaming_threads_for(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t max_threads);
/// @brief The most threads a large call uses here: 1 without threads, else min(the pool + 1, cores).
std::size_t streaming_max_threads();

/// @brief attention_streaming shared (attention_streaming_shared) between streaming_threads_for(…)
/// threads, this one among them: the same numbers, bit for bit, as one thread.
void attention_streaming_threads(float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                                 std::size_t n_k, std::size_t d, std::size_t heads, bool causal, std::size_t max_threads);

/// @brief The index of the first value that is ±∞ or NaN, or −1: the fast path's check of its inputs and
/// output (blocks of 256 tested in one vector pass each, and only a block that holds one searched).
long first_not_finite(const float* values, std::size_t count);

/// @brief Bytes one attention_streaming call holds: q, k, v and out, and the kernel's buffers (one head's
/// K packed, a block of accumulators), once per thread: O((n_q + threads·n_k)·d), never n_q × n_k. A
/// small call's buffers fit the 32 KiB each thread keeps and are not counted.
std::size_t attention_streaming_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads,
                                      std::size_t threads = 1);

namespace scalar {
void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal);
}  // namespace scalar

}  // namespace attn
