// a.attention's exports: the whole of the wasm-threads module (which runs a.attention only, beside the
// one-thread module: docs/toolchain.md), and part of the one-thread module.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "attn/streaming.hpp"

// The npm package's a.attention, called as a plain wasm export (web/src/api.js: core._attn_attention):
// a call that marshals its arguments (Embind's did) costs microseconds, as much as the whole attention of 16 rows. q, k and v lie one
// after another at qkv (n_q, n_k, n_k rows of d). Returns −1, −2 when the output overflowed, or the index
// in qkv of the first value that is not finite (nothing computed then): one pass here instead of a slow one in JavaScript. The
// other shapes were checked in JS, where the sentences name the arguments.

extern "C" EMSCRIPTEN_KEEPALIVE int attn_attention(float* out, const float* qkv, int n_q, int n_k, int d, int heads, int causal) {
    const std::size_t nq = std::size_t(n_q), nk = std::size_t(n_k), ud = std::size_t(d), total = (nq + 2 * nk) * ud;
    if (const long bad = attn::first_not_finite(qkv, total); bad >= 0) return int(bad);
    // split between threads in the wasm-threads module (streaming_threads.cpp); one thread elsewhere
    attn::attention_streaming_threads(out, qkv, qkv + nq * ud, qkv + (nq + nk) * ud, nq, nk, ud, std::size_t(heads),
                                      causal != 0, attn::streaming_max_threads());
    // finite inputs can still overflow (q·k of 3e38s, or a weighted sum of them): −2, refused as a.trace refuses it
    if (attn::first_not_finite(out, nq * ud) >= 0) return -2;
    return -1;
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
