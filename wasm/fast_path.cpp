// a.attention's exports: the whole of the wasm-threads module (which runs a.attention only, beside the
// one-thread module: docs/toolchain.md), and of the fast part beside the one-thread core (loaded when first
// used: a blog post showing a worked example never downloads the streaming kernel).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "attn/kernels.hpp"
#include "attn/streaming.hpp"
#include "text_answer.hpp"

// The npm package's a.attention, called as a plain wasm export (web/src/api.js: core._attn_attention):
// a call that marshals its arguments (Embind's did) costs microseconds, as much as the whole attention of 16 rows. q, k and v lie one
// after another at qkv (n_q, n_k, n_k rows of d). Returns 0, or 1 when refused with its sentence in
// attn_error(), as every module refuses (text_answer.hpp): a value of q, k or v that is not finite (found in one
// pass here instead of a slow one in JavaScript; nothing computed then), or an output that overflowed. The
// other shapes were checked in JS, where the sentences name the arguments.

extern "C" EMSCRIPTEN_KEEPALIVE int attn_attention(float* out, const float* qkv, int n_q, int n_k, int d, int heads, int causal) {
    const std::size_t nq = std::size_t(n_q), nk = std::size_t(n_k), ud = std::size_t(d), total = (nq + 2 * nk) * ud;
    if (const long bad = attn::first_not_finite(qkv, total); bad >= 0) {
        const std::size_t at = std::size_t(bad);
        const auto [name, index] = at < nq * ud ? std::pair{"q", at} : at < (nq + nk) * ud ? std::pair{"k", at - nq * ud} : std::pair{"v", at - (nq + nk) * ud};
        attn::wasm::answer_error() = std::string(name) + "[" + std::to_string(index) + "] is not a finite number.";
        return 1;
    }
    // split between threads in the wasm-threads module (streaming_threads.cpp); one thread elsewhere
    attn::attention_streaming_threads(out, qkv, qkv + nq * ud, qkv + (nq + nk) * ud, nq, nk, ud, std::size_t(heads),
                                      causal != 0, attn::streaming_max_threads());
    // finite inputs can still overflow (q·k of 3e38s, or a weighted sum of them): refused as a.trace refuses it
    if (attn::first_not_finite(out, nq * ud) >= 0) {
        attn::wasm::answer_error() = "the attention overflowed the float range: q·kᵀ or the weighted sum of v is too large for float32.";
        return 1;
    }
    return 0;
}

// a.attentionBytes: what one a.attention call of these sizes holds in the wasm heap.
extern "C" EMSCRIPTEN_KEEPALIVE double attn_attention_bytes(int n_q, int n_k, int d, int heads) {
    const std::size_t nq = std::size_t(n_q), nk = std::size_t(n_k), ud = std::size_t(d);
    const std::size_t threads = attn::streaming_threads_for(nq, nk, ud, attn::streaming_max_threads());
    return double(attn::attention_streaming_bytes(nq, nk, ud, std::size_t(heads), threads));
}

// a.threads: how many threads a large a.attention call uses (1 but in the wasm-threads module).
extern "C" EMSCRIPTEN_KEEPALIVE int attn_max_threads() {
    return int(attn::streaming_max_threads());
}

// Benchmark entry: out (n, d) = softmax(q·kᵀ/√d)·v on buffers already in the wasm heap; scratch holds
// 2·n·n + 2·n floats. simd = 0 runs the scalar twins.
extern "C" EMSCRIPTEN_KEEPALIVE void attn_forward(float* out, const float* q, const float* k, const float* v, float* scratch, int n, int d,
                                                  int simd) {
    const std::size_t un = static_cast<std::size_t>(n), ud = static_cast<std::size_t>(d);
    float* scores = scratch;  // (n, n), then exp (n, n), row_max (n), row_sum (n)
    float* exp = scores + un * un;
    float* row_max = exp + un * un;
    // the weights overwrite the scores in place, so the scratch needs no third n × n block
    attn::attention_forward(out, scores, exp, scores, row_max, row_max + un, q, k, v, un, ud, simd ? attn::simd_kernels() : attn::scalar_kernels());
}
