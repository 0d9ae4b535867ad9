// The spec: everything one attention computation needs (docs/spec.md, "spec in, trace out").
// Math convention Q = X·W_q: every W is (d, d) and multiplies from the right.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/limits.hpp"
#include "attn/types.hpp"

namespace attn {

/// @brief A bad spec, with one sentence naming the field (e.g. "x[1] has 3 values but x[0] has 4.").
class spec_error : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

enum class score_kind { dot, scaled_dot, additive, bilinear };
enum class mask_kind { none, causal, window, matrix };
enum class positional_kind { none, sinusoidal, learned, rotary };

/// @brief One choice of an enum with its spec name: the tables below are the only place the names
/// are written, for the JSON reader, to_string and the lab's menus alike.
template <class E>
struct named {
    E value;
    const char* name;
};
inline constexpr named<score_kind> score_names[] = {
    {score_kind::dot, "dot"}, {score_kind::scaled_dot, "scaled_dot"}, {score_kind::additive, "additive"},
    {score_kind::bilinear, "bilinear"}};
inline constexpr named<mask_kind> mask_names[] = {
    {mask_kind::none, "none"}, {mask_kind::causal, "causal"}, {mask_kind::window, "window"}, {mask_kind::matrix, "matrix"}};
inline constexpr named<positional_kind> positional_names[] = {
    {positional_kind::none, "none"}, {positional_kind::sinusoidal, "sinusoidal"}, {positional_kind::learned, "learned"},
    {positional_kind::rotary, "rotary"}};

/// @brief One projection y = x·w + b; an absent w is the identity, an absent b is zero.
struct projection {
    std::optional<matrix> w;  // (d, d)
    std::optional<vector> b;  // (d)
};

/// @brief Bahdanau's additive score e_ij = tanh(q_i·W1 + k_j·W2)·v, shared by all heads.
struct additive_params {
    std::optional<matrix> w1;  // (d_h, d_a)
    std::optional<matrix> w2;  // (d_h, d_a)
    std::optional<vector> v;   // (d_a)
};

struct spec {
    matrix x;                                 // (n_q, d) query-side inputs
    std::optional<matrix> memory;             // (n_k, d) key/value-side inputs; absent = self-attention
    std::vector<std::string> query_tokens;    // labels only, n_q of them or none
    std::vector<std::string> key_tokens;      // labels only, n_k of them or none (cross-attention)
    projection wq, wk, wv, wo;                // wo.b without wo.w is refused: output needs wo
    score_kind score = score_kind::scaled_dot;
    additive_params additive;
    std::optional<matrix> bilinear;           // (d_h, d_h): e_ij = q_i·W·k_jᵀ
    int heads = 1;                            // d % heads == 0; head i takes columns [i·d_h, (i+1)·d_h)
    int kv_heads = 0;                         // heads of K and V (grouped-query attention): heads % kv_heads == 0,
                                              // query head i reads key/value head ⌊i / (heads / kv_heads)⌋;
                                              // W_k, W_v are (d, kv_heads·d_h). 0: as many as heads
    mask_kind mask = mask_kind::none;
    int window = 0;                           // mask_kind::window: query i sees keys i-window < j <= i
    matrix mask_matrix;                       // mask_kind::matrix: (n_q, n_k) of 0 (masked) and 1
    float mask_value = -1e9f;                 // written into masked scores before softmax (seed 000); < 0
    positional_kind positional = positional_kind::none;
    matrix learned;                           // positional_kind::learned: (>= max(n_q, n_k), d)
    float rope_theta = 10000.0f;              // positional_kind::rotary: {"rotary": θ}, q and k of every head
                                              // rotated by position p·θ^(−2i/d_h) after the projections
    int online_block = 0;                     // "online_softmax": {"block": B}: also show the streaming
                                              // softmax B keys at a time (0: not shown); 1 <= B <= n_k

    std::size_t n_q() const { return x.shape(0); }
    std::size_t n_k() const { return memory ? memory->shape(0) : x.shape(0); }
    std::size_t d_model() const { return x.shape(1); }
    std::size_t d_head() const { return d_model() / static_cast<std::size_t>(heads); }
    /// A positional table is added to the inputs (sinusoidal, learned); rotary turns q and k instead.
    bool adds_positions() const { return positional == positional_kind::sinusoidal || positional == positional_kind::learned; }
    std::size_t kv_head_count() const { return static_cast<std::size_t>(kv_heads > 0 ? kv_heads : heads); }
    std::size_t d_kv() const { return kv_head_count() * d_head(); }  // the width of K and V
    /// The key/value head query head h reads.
    std::size_t kv_head_of(std::size_t h) const { return h / (static_cast<std::size_t>(heads) / kv_head_count()); }
};

/// @brief Bytes the trace of a spec of these sizes would hold (every stage, float32).
/// A trace keeps five (h, n_q, n_k) stages (scores, scaled, masked, exp, weights), which dominate it.
std::uint64_t trace_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads);

/// @brief Multiply-adds of one trace: projections, scores, softmax, weighted sum (what budget bounds).
std::uint64_t multiply_adds(const spec& s);

/// @brief tanh evaluations of the additive score: h·n_q·n_k·d_a (0 for the other scores).
std::uint64_t tanh_calls(const spec& s);

/// @brief Checks every field against the contract and the cost against a budget (attn/limits.hpp);
/// throws spec_error naming the first bad one.
void validate(const spec& s, const budget& b = default_budget);

const char* to_string(score_kind k);
const char* to_string(mask_kind k);
const char* to_string(positional_kind k);

}  // namespace attn
