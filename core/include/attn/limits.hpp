// Every documented limit of a spec, in one place: the parser, validate(), the CLI, the
// wasm module and docs/limits.md all read these. Each is checked before the work it bounds,
// so a refusal is fast and a spec that passes finishes in seconds and a bounded amount of memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn {

// [SECTION] The spec's text, checked while it is parsed, before any tree is built
inline constexpr std::size_t max_spec_bytes = std::size_t{16} << 20;  // 16 MiB of JSON text
inline constexpr std::size_t max_spec_values = std::size_t{1} << 21;  // 2,097,152 numbers, strings, … in one spec
inline constexpr std::size_t max_nesting = 32;                       // arrays and objects inside each other
inline constexpr std::size_t max_array_length = 4096;                // entries in one array
inline constexpr std::size_t max_object_fields = 64;                 // fields in one object
inline constexpr std::size_t max_string_bytes = 1024;                // one string (a token label), UTF-8
inline constexpr std::size_t max_quoted_chars = 80;                  // of a user's text repeated in a refusal

// [SECTION] The spec's dimensions
inline constexpr std::size_t max_positions = 4096;       // n_q and n_k (and rows of a learned table)
inline constexpr std::size_t max_d_model = 1024;         // d
inline constexpr std::size_t max_heads = 64;             // h
inline constexpr std::size_t max_additive_width = 1024;  // d_a, the additive score's hidden width
inline constexpr std::size_t max_channels = 1024;        // C of a vision feature map (and its bottleneck m)
inline constexpr std::size_t max_map_side = 1024;        // H and W of a vision feature map
inline constexpr std::size_t max_vision_kernel = 31;     // ECA's k and CBAM's K (odd)

// [SECTION] The work and the memory of one trace
/// What one trace may cost. The default is what the CLI and the npm module accept: on a
/// 2-core machine such a trace, with its JSON written out, takes seconds and well under
/// 512 MiB. The interactive budget is the playground's: a trace the page computes between
/// two frames, so editing never freezes it.
struct budget {
    std::uint64_t trace_bytes;    // every stage kept, float32 (see trace_bytes())
    std::uint64_t multiply_adds;  // projections, scores, weighted sum (see multiply_adds())
    std::uint64_t tanh_calls;     // the additive score's tanh(q·W1 + k·W2), the slowest step per element
    const char* who;              // names the limit in a refusal
};
inline constexpr budget default_budget{std::uint64_t{64} << 20, std::uint64_t{4} << 30, std::uint64_t{1} << 25,
                                       "the limit"};
/// A gradient (attn grad, a.grad, a.explainGrad, each training item's step) keeps the forward trace, its
/// adjoint and the backward pass's temporaries: about 15 times the trace's bytes. A quarter of the
/// default's trace keeps it within 5 s and 512 MiB (a 30 KB spec of n = 1830, d = 1 took 12 s and 952 MB).
inline constexpr budget grad_budget{std::uint64_t{16} << 20, std::uint64_t{1} << 30, std::uint64_t{1} << 23,
                                    "the gradient's limit"};
inline constexpr budget interactive_budget{std::uint64_t{16} << 20, std::uint64_t{1} << 28, std::uint64_t{1} << 21,
                                           "the playground's limit (the npm module and the attn CLI go further)"};

// [SECTION] The work of one call that trains, and of one explanation
/// Multiply-adds one call may train for (attn train's whole run, a.train, one trainer step(count)): a
/// step costs about three times each item's forward pass. Seconds on one core; a run of 10⁶ steps over
/// 4096 items (hours) is refused before the first step, with how many steps would fit.
inline constexpr std::uint64_t max_train_multiply_adds = std::uint64_t{1} << 32;
/// What one a.attention call (the npm fast path, no trace) may hold in the wasm heap, q, k, v and the output
/// together, and its work: about nQ·nK·(2d + 16) multiply-adds' time (two products and one exp a score,
/// halved with the causal mask), seconds on one core.
inline constexpr std::uint64_t max_attention_bytes = std::uint64_t{1} << 30;
inline constexpr std::uint64_t max_attention_work = std::uint64_t{1} << 36;
/// Rows of q (or of k and v) that a.attentionBytes() sizes: past any heap wasm can have.
inline constexpr std::uint64_t max_attention_rows = std::uint64_t{1} << 24;
/// Bytes of text one attn explain may write (every cell of a stage, a line each): n = 1800 wrote 336 MB.
inline constexpr std::uint64_t max_explain_bytes = std::uint64_t{64} << 20;

// [SECTION] The guided path's figures (attn/figures.hpp, docs/figures.md): the largest request of each is answered
// in about 0.1 s natively (0.1-0.3 s in WebAssembly), the defaults in 15-65 ms
inline constexpr std::size_t max_figure_rnn_positions = 64;  // rnn-limits: rows of x (n), at least 2
inline constexpr std::size_t max_figure_rnn_width = 64;      // rnn-limits: d of x, and hidden
inline constexpr double max_figure_gain = 16;                // rnn-limits: the weights' gain
inline constexpr std::size_t max_figure_d_k = 1024;          // why-sqrt-dk: one d_k
inline constexpr std::size_t max_figure_d_k_entries = 16;    // why-sqrt-dk: d_k values in one request
inline constexpr std::size_t max_figure_keys = 256;          // why-sqrt-dk: n_keys
inline constexpr std::size_t max_figure_trials = 1000;       // why-sqrt-dk: trials
/// why-sqrt-dk's draws, trials · (n_keys + 1) · Σ d_k normals, about 20 ns each natively (a logarithm, a square
/// root, a sine or cosine): the defaults draw 3.5 million in 65 ms
inline constexpr std::uint64_t max_figure_normals = std::uint64_t{1} << 22;
inline constexpr std::size_t max_figure_table_n = 1024;      // cnn-rnn-attention: one n
inline constexpr std::size_t max_figure_table_entries = 12;  // cnn-rnn-attention: n values in one request
inline constexpr std::size_t max_figure_table_d = 256;       // cnn-rnn-attention: d
inline constexpr std::size_t max_figure_kernel = 9;          // cnn-rnn-attention: the convolution's width (odd, ≥ 3)
/// cnn-rnn-attention's measured work: one layer of each kind, Σ over n of n·2d² + n·kernel·d² + n²·(2d + 16),
/// attention's exp counted as 16 multiply-adds, as max_attention_work does (n = 4096 at d = 1 took 0.8 s for
/// its n² exps and 128 MiB), each layer timed 3 times: the defaults are 9.6 million, 15 ms
inline constexpr std::uint64_t max_figure_multiply_adds = std::uint64_t{1} << 26;

}  // namespace attn
