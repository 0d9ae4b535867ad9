// validate(): the contract's checks on a spec, in the order a reader would fix them.
#include "attn/spec.hpp"

#include "attn/spec_fields.hpp"
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

/// A number of the spec as a refusal quotes it (10000, 0.5, inf).
std::string number_text(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
}

/// name[i][j] (or name[i] for a vector) of the first of `size` values (`cols` to a row) that is not
/// finite, refused. validate() runs on every trace (the page's edits, every training step), so nothing
/// here builds a string unless it refuses: the names are views and the reasons are functions called only then.
void require_finite(const float* data, std::size_t size, std::size_t cols, bool matrix, std::string_view name) {
    std::size_t flat = 0;
    while (flat < size && std::isfinite(data[flat])) ++flat;
    if (flat == size) return;
    const std::string n(name);
    fail((matrix ? cell_at(n, flat / cols, flat % cols) : entry_at(n, flat)) + " is not a finite number.");
}

template <class T>
void require_finite(const T& t, const char* name) {  // matrices and vectors only
    require_finite(t.data(), t.size(), t.dimension() == 2 ? t.shape(1) : 1, t.dimension() == 2, name);
}


}  // namespace

std::uint64_t trace_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads) {
    // 64-bit on purpose: size_t is 32 bits in WebAssembly and these products overflow it
    const std::uint64_t n = std::max(n_q, n_k), h = heads;
    // x, memory, q, k, v, context, concat, output, and pe or (rotary positions) q_rot and k_rot: at most 10 (n, d) stages
    const std::uint64_t per_position = 10 * n * d;
    // scores, scaled, masked, exp, weights: five (h, n_q, n_k) stages, plus row_max and row_sum
    const std::uint64_t quadratic = 5 * h * n_q * n_k + 2 * h * n_q;
    return (per_position + quadratic) * sizeof(float);
}

std::uint64_t multiply_adds(const spec& s) {
    const std::uint64_t n_q = s.n_q(), n_k = s.n_k(), d = s.d_model(), h = static_cast<std::uint64_t>(s.heads);
    const std::uint64_t d_h = d / h;
    std::uint64_t total = 0;
    for (const projection* p : {&s.wq, &s.wo}) total += p->w ? n_q * d * d : 0;
    for (const projection* p : {&s.wk, &s.wv}) total += p->w ? n_k * d * s.d_kv() : 0;
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
    if (s.kv_heads != 0) {
        if (s.kv_heads < 1 || s.kv_heads > s.heads)
            fail("kv_heads is " + std::to_string(s.kv_heads) + " but must be between 1 and heads (" + std::to_string(s.heads) + ").");
        if (s.heads % s.kv_heads != 0)
            fail("kv_heads is " + std::to_string(s.kv_heads) + " but heads " + std::to_string(s.heads) +
                 " is not divisible by it: each key/value head serves the same number of query heads.");
        if (s.kv_heads < s.heads && (!s.wk.w || !s.wv.w))
            fail("kv_heads is " + std::to_string(s.kv_heads) + ", fewer than heads, so weights.wk and weights.wv are needed (d_model × d_kv, d_kv = " +
                 std::to_string(s.d_kv()) + "): without them K and V would be X itself, " + std::to_string(d) + " wide.");
    }
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

    // pass 3: the additive width, which the additive matrices' shapes are read against
    if (s.additive.v) {
        const std::size_t d_a = s.additive.v->size();
        if (d_a == 0) fail("additive.v is empty: it needs at least one value.");
        if (d_a > max_additive_width)
            fail("additive.v has " + std::to_string(d_a) + " values; the additive width d_a is at most " +
                 std::to_string(max_additive_width) + ".");
    }

    // pass 4: the field table's rules (attn/spec_fields.hpp), in its order: a score's own parameters, given
    // with that score only; a bias given only with its matrix; then every shape its words name
    spec& fields_of = const_cast<spec&>(s);  // in_spec hands out spans of the spec's floats; nothing here writes
    const auto given = [&](const tensor_field& f) { return f.in_spec(fields_of).given; };
    for (const tensor_field& f : sequence_tensor_fields()) {
        const bool has = given(f);
        if (!f.score.empty() && (f.score == to_string(s.score)) != has) {  // strings only for a refusal
            const std::string path(f.path), score(f.score), group = path.substr(0, path.find('.'));
            if (!has) fail("score is \"" + score + "\" but " + path + " is missing.");
            fail(group + " is given but score is \"" + to_string(s.score) + "\": remove " + group + ", or set score to \"" +
                 score + "\".");
        }
        if (!f.bias_of.empty() && has && !given(*tensor_field_at(f.bias_of)))
            fail(std::string(f.path) + " is given without " + std::string(f.bias_of) + ": a bias is added after its matrix.");
    }
    for (const tensor_field& f : sequence_tensor_fields()) {
        const float_span span = f.in_spec(fields_of);
        if (!span.given) continue;
        const std::optional<shape_rule> rule = shape_rule_of(f, s);
        if (!rule) continue;  // its own rule, below (positional.learned)
        const auto why = [&] {
            std::string text;
            shape_rule_of(f, s, &text);
            return text;
        };
        const std::size_t rows = span.cols ? span.size / span.cols : 0;  // an empty matrix: 0 × 0
        if (f.rank == 2 && (rows != rule->rows || span.cols != rule->cols))
            fail(std::string(f.path) + " is " + shape_text(rows, span.cols) + " but must be " +
                 shape_text(rule->rows, rule->cols) + " (" + why() + ").");
        if (f.rank == 1 && span.size != rule->rows)
            fail(std::string(f.path) + " has " + std::to_string(span.size) + " values but must have " +
                 std::to_string(rule->rows) + " (" + why() + ").");
        require_finite(span.data, span.size, span.cols, f.rank == 2, f.path);
    }

    // pass 5: mask
    if (s.mask == mask_kind::window && s.window < 1)
        fail("mask.window is " + std::to_string(s.window) + " but must be at least 1.");
    if (s.mask == mask_kind::window && static_cast<std::size_t>(s.window) > max_positions)
        fail("mask.window is " + std::to_string(s.window) + "; at most " + std::to_string(max_positions) + ".");
    if (s.mask == mask_kind::matrix) {  // its shape was checked with the table's (pass 4)
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

    if (s.positional == positional_kind::rotary) {
        if (!std::isfinite(s.rope_theta) || !(s.rope_theta > 1.0f))
            fail("positional.rotary is " + number_text(s.rope_theta) + " but the rotary base θ must be a finite number over 1 (Llama uses 10000 or 500000).");
        if (s.d_head() % 2 != 0)
            fail("positional is rotary but d_head is " + std::to_string(s.d_head()) +
                 ": rotary positions turn pairs of columns (i, i + d_head/2), so d_head must be even.");
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
