// validate(): the contract's checks on a spec, in the order a reader would fix them.
#include "attn/spec.hpp"

#include "attn/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <xtensor/xoperation.hpp>

namespace attn {
namespace {

[[noreturn]] void fail(const std::string& sentence) { throw spec_error(sentence); }

std::string shape_text(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + " × " + std::to_string(cols);
}

std::string mebibytes(std::uint64_t bytes) {
    return std::to_string((bytes + (std::uint64_t{1} << 20) - 1) >> 20) + " MiB";
}

/// 1.5e9 rather than 1500000000: the budget's figures are read, not counted digit by digit.
std::string approx(std::uint64_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, n < 100000 ? "%.0f" : "%.2g", static_cast<double>(n));
    return buf;
}

/// name[i][j] (or name[i] for a vector) of the first value that is not finite, refused. validate()
/// runs on every trace (the page's edits, every training step), so nothing here builds a string
/// unless it refuses: the names are C strings and the reasons are functions called only then.
template <class T>
void require_finite(const T& t, const char* name) {
    const float* data = t.data();
    std::size_t flat = 0;
    while (flat < t.size() && std::isfinite(data[flat])) ++flat;
    if (flat == t.size()) return;
    const std::size_t cols = t.dimension() == 2 ? t.shape(1) : 1;  // matrices and vectors only
    fail((t.dimension() == 2 ? cell_at(name, flat / cols, flat % cols) : entry_at(name, flat)) + " is not a finite number.");
}

template <class Why>
void require_shape(const matrix& m, std::size_t rows, std::size_t cols, const char* name, Why why) {
    if (m.shape(0) != rows || m.shape(1) != cols)
        fail(std::string(name) + " is " + shape_text(m.shape(0), m.shape(1)) + " but must be " + shape_text(rows, cols) +
             " (" + why() + ").");
    require_finite(m, name);
}

template <class Why>
void require_length(const vector& v, std::size_t n, const char* name, Why why) {
    if (v.size() != n)
        fail(std::string(name) + " has " + std::to_string(v.size()) + " values but must have " + std::to_string(n) + " (" +
             why() + ").");
    require_finite(v, name);
}

void check_projection(const projection& p, const char* w, const char* b, std::size_t d) {
    const auto why = [d] { return "d_model is " + std::to_string(d); };
    if (p.w) require_shape(*p.w, d, d, w, why);
    if (p.b) require_length(*p.b, d, b, why);
}

}  // namespace

std::uint64_t trace_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads) {
    // 64-bit on purpose: size_t is 32 bits in WebAssembly and these products overflow it
    const std::uint64_t n = std::max(n_q, n_k), h = heads;
    // pe, x, memory, q, k, v, context, concat, output: at most 9 (n, d) stages
    const std::uint64_t per_position = 9 * n * d;
    // scores, scaled, masked, exp, weights: five (h, n_q, n_k) stages, plus row_max and row_sum
    const std::uint64_t quadratic = 5 * h * n_q * n_k + 2 * h * n_q;
    return (per_position + quadratic) * sizeof(float);
}

std::uint64_t multiply_adds(const spec& s) {
    const std::uint64_t n_q = s.n_q(), n_k = s.n_k(), d = s.d_model(), h = static_cast<std::uint64_t>(s.heads);
    const std::uint64_t d_h = d / h;
    std::uint64_t total = 0;
    for (const projection* p : {&s.wq, &s.wo}) total += p->w ? n_q * d * d : 0;
    for (const projection* p : {&s.wk, &s.wv}) total += p->w ? n_k * d * d : 0;
    total += n_q * n_k * d;      // q·kᵀ over all heads (additive: v·tanh(…), below)
    total += 3 * h * n_q * n_k;  // mask, softmax's exp and divide
    total += n_q * n_k * d;      // α·V over all heads
    if (s.score == score_kind::bilinear) total += n_q * d_h * d_h * h;
    if (s.score == score_kind::additive && s.additive.v) {
        const std::uint64_t d_a = s.additive.v->size();
        total += (n_q + n_k) * d_h * d_a * h + h * n_q * n_k * d_a;
    }
    return total;
}

std::uint64_t tanh_calls(const spec& s) {
    if (s.score != score_kind::additive || !s.additive.v) return 0;
    return static_cast<std::uint64_t>(s.heads) * s.n_q() * s.n_k() * s.additive.v->size();
}

void validate(const spec& s, const budget& b) {
    // pass 1: inputs, their sizes and the limits, before anything else is looked at
    if (s.x.shape(0) == 0 || s.x.shape(1) == 0) fail("x is empty: it needs at least one row of at least one number.");
    const std::size_t d = s.d_model(), n_q = s.n_q(), n_k = s.n_k();
    if (n_q > max_positions)
        fail("x has " + std::to_string(n_q) + " rows, over the limit of " + std::to_string(max_positions) + " positions.");
    if (d > max_d_model)
        fail("x rows have " + std::to_string(d) + " values, over the d_model limit of " + std::to_string(max_d_model) + ".");
    require_finite(s.x, "x");
    if (s.memory) {
        if (s.memory->shape(0) == 0) fail("memory is empty: give at least one row, or leave it out for self-attention.");
        if (s.memory->shape(1) != d)
            fail("memory rows have " + std::to_string(s.memory->shape(1)) + " values but x rows have " +
                 std::to_string(d) + ": both must have d_model values.");
        if (n_k > max_positions)
            fail("memory has " + std::to_string(n_k) + " rows, over the limit of " + std::to_string(max_positions) + " positions.");
        require_finite(*s.memory, "memory");
    }
    if (s.heads < 1) fail("heads is " + std::to_string(s.heads) + " but must be at least 1.");
    if (static_cast<std::size_t>(s.heads) > max_heads)
        fail("heads is " + std::to_string(s.heads) + "; at most " + std::to_string(max_heads) + ".");
    if (d % static_cast<std::size_t>(s.heads) != 0)
        fail("heads is " + std::to_string(s.heads) + " but d_model " + std::to_string(d) + " is not divisible by it.");
    const std::uint64_t bytes = trace_bytes(n_q, n_k, d, static_cast<std::size_t>(s.heads));
    if (bytes > b.trace_bytes)
        fail("the trace for n_q " + std::to_string(n_q) + ", n_k " + std::to_string(n_k) + ", d_model " +
             std::to_string(d) + " and " + std::to_string(s.heads) + " heads would need " + mebibytes(bytes) +
             ", over " + b.who + " of " + mebibytes(b.trace_bytes) + ": use fewer positions or heads.");

    // pass 2: labels
    if (!s.query_tokens.empty() && s.query_tokens.size() != n_q)
        fail("tokens.query has " + std::to_string(s.query_tokens.size()) + " labels but x has " + std::to_string(n_q) + " rows.");
    if (!s.key_tokens.empty() && s.key_tokens.size() != n_k)
        fail("tokens.key has " + std::to_string(s.key_tokens.size()) + " labels but there are " + std::to_string(n_k) + " keys.");

    // pass 3: projections
    check_projection(s.wq, "weights.wq", "weights.bq", d);
    check_projection(s.wk, "weights.wk", "weights.bk", d);
    check_projection(s.wv, "weights.wv", "weights.bv", d);
    check_projection(s.wo, "weights.wo", "weights.bo", d);
    if (s.wo.b && !s.wo.w) fail("weights.bo is given without weights.wo: the output projection needs wo.");

    // pass 4: score function parameters, given only with the score that uses them
    const std::size_t d_h = s.d_head();
    const auto head_why = [d_h] { return "d_head is " + std::to_string(d_h); };
    if (s.score == score_kind::additive) {
        if (!s.additive.w1) fail("score is \"additive\" but additive.w1 is missing.");
        if (!s.additive.w2) fail("score is \"additive\" but additive.w2 is missing.");
        if (!s.additive.v) fail("score is \"additive\" but additive.v is missing.");
    }
    const bool has_additive = s.additive.w1 || s.additive.w2 || s.additive.v;
    if (has_additive && s.score != score_kind::additive)
        fail(std::string("additive is given but score is \"") + to_string(s.score) +
             "\": remove additive, or set score to \"additive\".");
    if (s.bilinear && s.score != score_kind::bilinear)
        fail(std::string("bilinear is given but score is \"") + to_string(s.score) +
             "\": remove bilinear, or set score to \"bilinear\".");
    if (has_additive) {
        if (!s.additive.w1 || !s.additive.w2 || !s.additive.v)
            fail("additive needs all of w1, w2 and v.");
        const std::size_t d_a = s.additive.v->size();
        if (d_a == 0) fail("additive.v is empty: it needs at least one value.");
        if (d_a > max_additive_width)
            fail("additive.v has " + std::to_string(d_a) + " values; the additive width d_a is at most " +
                 std::to_string(max_additive_width) + ".");
        const auto additive_why = [&] { return head_why() + " and additive.v has " + std::to_string(d_a) + " values"; };
        require_shape(*s.additive.w1, d_h, d_a, "additive.w1", additive_why);
        require_shape(*s.additive.w2, d_h, d_a, "additive.w2", additive_why);
        require_finite(*s.additive.v, "additive.v");
    }
    if (s.score == score_kind::bilinear && !s.bilinear) fail("score is \"bilinear\" but bilinear.w is missing.");
    if (s.bilinear) require_shape(*s.bilinear, d_h, d_h, "bilinear.w", head_why);

    // pass 5: mask
    if (s.mask == mask_kind::window && s.window < 1)
        fail("mask.window is " + std::to_string(s.window) + " but must be at least 1.");
    if (s.mask == mask_kind::window && static_cast<std::size_t>(s.window) > max_positions)
        fail("mask.window is " + std::to_string(s.window) + "; at most " + std::to_string(max_positions) + ".");
    if (s.mask == mask_kind::matrix) {
        require_shape(s.mask_matrix, n_q, n_k, "mask.matrix", [] { return std::string("n_q × n_k"); });
        for (std::size_t i = 0; i < n_q; ++i)
            for (std::size_t j = 0; j < n_k; ++j)
                if (s.mask_matrix(i, j) != 0.0f && s.mask_matrix(i, j) != 1.0f)
                    fail("mask.matrix[" + std::to_string(i) + "][" + std::to_string(j) +
                         "] must be 0 (masked) or 1 (kept).");
    }
    if (!std::isfinite(s.mask_value)) fail("mask_value is not a finite number.");
    // a positive mask_value would hand the masked keys the weight instead of taking it away
    if (!(s.mask_value < 0.0f)) fail("mask_value must be negative (seed 000 uses -1e9).");

    // pass 6: positional encoding
    if (s.positional == positional_kind::learned) {
        const std::size_t n = std::max(n_q, n_k);
        if (s.learned.shape(0) > max_positions)
            fail("positional.learned has " + std::to_string(s.learned.shape(0)) + " rows; at most " +
                 std::to_string(max_positions) + ", one per position.");
        if (s.learned.shape(0) < n)
            fail("positional.learned has " + std::to_string(s.learned.shape(0)) + " rows but needs at least " +
                 std::to_string(n) + ", one per position.");
        if (s.learned.shape(1) != d)
            fail("positional.learned rows have " + std::to_string(s.learned.shape(1)) + " values but d_model is " +
                 std::to_string(d) + ".");
        require_finite(s.learned, "positional.learned");
    }

    // pass 7: the online softmax's tiles
    if (s.online_block < 0 || static_cast<std::size_t>(s.online_block) > n_k)
        fail("online_softmax.block is " + std::to_string(s.online_block) + " but must be between 1 and n_k = " +
             std::to_string(n_k) + " (the keys a tile holds).");

    // pass 8: the work, now that every size is known
    const std::uint64_t work = multiply_adds(s), tanhs = tanh_calls(s);
    if (tanhs > b.tanh_calls)
        fail("the additive score would evaluate tanh " + approx(tanhs) + " times (heads · n_q · n_k · d_a), over " +
             b.who + " of " + approx(b.tanh_calls) + ": use fewer positions or a narrower additive.v.");
    if (work > b.multiply_adds)
        fail("this spec needs about " + approx(work) + " multiply-adds, over " + b.who + " of " +
             approx(b.multiply_adds) + ": use fewer positions or a smaller d_model.");
}

namespace {

template <class E, std::size_t N>
const char* name_of(E value, const named<E> (&table)[N]) {
    for (const named<E>& n : table)
        if (n.value == value) return n.name;
    return "";
}

}  // namespace

const char* to_string(score_kind k) { return name_of(k, score_names); }
const char* to_string(mask_kind k) { return name_of(k, mask_names); }
const char* to_string(positional_kind k) { return name_of(k, positional_names); }

}  // namespace attn
