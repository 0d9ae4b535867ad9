// explain_cell(): one sentence of arithmetic per result cell, stage by stage (the page's captions).
#include "attn/explain.hpp"

#include "explain/explain_writer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "attn/format.hpp"
#include "ops/ops.hpp"

namespace attn {
namespace {

using namespace explain_detail;

/// How a caption names rows, columns and vectors: by the tokens people read beside the rows
/// (e[猫, sat] = q_猫·k_sat), by position where the spec has none (e[q1, k2] = q1·k2). A token that
/// occurs twice on its axis carries its position (the#2).
struct cell_names {
    std::vector<std::string> query, key;
    bool query_tokens, key_tokens;

    explicit cell_names(const spec& s)
        : query(axis_labels(axis_kind::query, stage_registry()[0], s)),
          key(axis_labels(axis_kind::key, stage_registry()[0], s)),
          query_tokens(!s.query_tokens.empty()),
          key_tokens(!s.key_tokens.empty() || (!s.memory && !s.query_tokens.empty())) {}

    static std::string pick(const std::vector<std::string>& axis, std::size_t k) {
        if (k >= axis.size()) return n1(k);
        return std::count(axis.begin(), axis.end(), axis[k]) > 1 ? axis[k] + "#" + n1(k) : axis[k];
    }
    std::string q(std::size_t i) const { return pick(query, i); }
    std::string k(std::size_t j) const { return pick(key, j); }
    static std::string d(std::size_t j) { return "d" + n1(j); }
    static std::string at(const std::string& row, const std::string& col) { return "[" + row + ", " + col + "]"; }
    /// query i's vector: q_猫, or q1 without tokens
    std::string q_vec(std::size_t i) const { return query_tokens ? "q_" + q(i) : q(i); }
    std::string k_vec(std::size_t j) const { return key_tokens ? "k_" + k(j) : k(j); }
    /// a per-row quantity of query i: m_猫, or m₁ without tokens
    std::string per_row(const char* letter, std::size_t i) const {
        return query_tokens ? std::string(letter) + "_" + q(i) : std::string(letter) + sub(i + 1);
    }
};



/// Q, K or V's own projection and letter.
const projection& projection_of(const spec& s, stage_id id) {
    if (id == stage_id::q) return s.wq;
    return id == stage_id::k ? s.wk : s.wv;
}

std::string explain_projection(const trace& t, stage_id id, std::size_t i, std::size_t j, const writer& f) {
    const spec& s = t.spec;
    const std::string letter(1, static_cast<char>(std::tolower(static_cast<unsigned char>(stage_info_of(id).symbol[0]))));
    const projection& p = projection_of(s, id);
    const bool from_memory = id != stage_id::q && s.memory;
    const stage_at in = of(t, from_memory ? stage_id::memory : stage_id::x);
    const char* x = from_memory ? "m" : "x";
    const cell_names names(s);
    const std::string row = id == stage_id::q ? names.q(i) : names.k(i);  // K's and V's rows are the keys
    const std::string name = letter + cell_names::at(row, cell_names::d(j));
    const std::string input = x + cell_names::at(row, cell_names::d(j));
    const std::string bias_term = p.b ? " + b_" + letter + "[" + cell_names::d(j) + "]" : "";
    const std::string bias_value = p.b ? " + " + f.num((*p.b)(j)) : "";
    const float result = merged(of(t, id), i, j);
    if (!p.w && !p.b) return name + " = " + input + " = " + f.num(result);  // a copy: one value, said once
    if (!p.w) return name + " = " + input + bias_term + " = " + f.num(in(0, i, j)) + bias_value + " = " + f.num(result);
    std::vector<std::pair<float, float>> pairs;
    for (std::size_t k = 0; k < s.d_model(); ++k) pairs.emplace_back(in(0, i, k), (*p.w)(k, j));
    return name + " = Σₖ " + x + cell_names::at(row, "k") + "·W_" + letter + cell_names::at("k", cell_names::d(j)) + bias_term + " = " +
           f.products(pairs) + bias_value + " = " + f.num(result);
}


/// A rotated cell: column j and its partner j ± d_h/2 of the same row, turned by the row's position.
std::string explain_rotation(const trace& t, stage_id id, std::size_t h, std::size_t i, std::size_t j, const writer& f) {
    const spec& s = t.spec;
    const bool query = id == stage_id::q_rot;
    const stage_at in = of(t, query ? stage_id::q : stage_id::k);
    const std::size_t d_h = s.d_head(), half = d_h / 2, pair = j % half, partner = j < half ? j + half : j - half;
    const cell_names names(s);
    const std::string row = query ? names.q(i) : names.k(i), letter = query ? "q" : "k";
    const double angle = ops::rope_angle(i, pair, d_h, s.rope_theta);  // as ops::rope turns it
    const float c = static_cast<float>(std::cos(angle)), sn = static_cast<float>(std::sin(angle));
    const float a = in(h, i, j), b = in(h, i, partner);
    const std::string theta = "θ" + sub(pair + 1);
    const std::string turn = std::to_string(i) + "·" + theta;  // the row's position times the pair's frequency
    const char* sign = j < half ? " − " : " + ";
    return letter + "_rot" + cell_names::at(row, cell_names::d(j)) + " = " + letter + cell_names::at(row, cell_names::d(j)) + "·cos(" + turn + ")" +
           sign + letter + cell_names::at(row, cell_names::d(partner)) + "·sin(" + turn + ") = " + f.num(a) + "×" + f.num(c) + sign + f.num(b) + "×" +
           f.num(sn) + " = " + f.num(of(t, id)(h, i, j)) + " (" + theta + " = " + format_exact(s.rope_theta) + "^(−" + std::to_string(2 * pair) + "/" +
           std::to_string(d_h) + "), position " + std::to_string(i) + ")";
}

/// The online softmax's sentences: one tile of keys, its visible scores and the state before it.
struct online_cell {
    const trace& t;
    std::size_t h, i, tile, block, d_h;
    stage_at in;  // the softmax's input as the page shows it (masked keys read mask_value)

    std::size_t first() const { return tile * block; }
    std::size_t last() const { return std::min(in.cols, first() + block); }
    bool visible(std::size_t j) const {
        if (!t.mask || (*t.mask)(i, j)) return true;
        return std::find(t.empty_rows.begin(), t.empty_rows.end(), i) != t.empty_rows.end();
    }
    std::string tile_name() const { return "t" + n1(tile); }
    /// "m₂⁽¹⁾": a state's symbol for this row after tile k (0-based).
    std::string state(const char* letter, std::size_t k) const { return letter + sub(i + 1) + "⁽" + sup(k + 1) + "⁾"; }
    float before(stage_id id, std::size_t c = 0) const { return of(t, id)(h, i, (tile - 1) * (id == stage_id::online_acc ? d_h : 1) + c); }
};

std::string explain_online(const trace& t, stage_id id, std::size_t h, std::size_t i, std::size_t j, const writer& f) {
    const spec& s = t.spec;
    const std::size_t d_h = s.d_head(), tile = id == stage_id::online_acc ? j / d_h : j;
    const online_cell o{t, h, i, tile, std::size_t(s.online_block), d_h, of(t, stage_operands(stage_id::online_max, s)[0])};
    const float result = of(t, id)(h, i, j);
    const std::string at = "[" + n1(i) + "][" + n1(j) + "]";
    if (id == stage_id::online_output) {
        const float a = of(t, stage_id::online_acc)(h, i, (of(t, stage_id::online_sum).cols - 1) * d_h + j);
        const float l = of(t, stage_id::online_sum)(h, i, of(t, stage_id::online_sum).cols - 1);
        return "o" + at + " = a ÷ ℓ (after the last tile) = " + f.num(a) + " ÷ " + f.num(l) + " = " + f.num(result) +
               " (context" + at + " = " + f.num(of(t, stage_id::context)(h, i, j)) + ")";
    }
    const float m = of(t, stage_id::online_max)(h, i, tile);
    if (id == stage_id::online_max) {
        std::vector<std::string> items;
        if (tile > 0) items.push_back(f.num(o.before(stage_id::online_max)));
        for (std::size_t k = o.first(); k < o.last(); ++k)
            if (o.visible(k)) items.push_back(f.num(o.in(h, i, k)));
        const std::string of_what = tile > 0 ? o.state("m", tile - 1) + ", tile " + n1(tile) + "'s scores" : "tile 1's scores";
        return o.state("m", tile) + " = max(" + of_what + ") = max(" + f.join(items, ", ") + ") = " + f.num(result);
    }
    if (id == stage_id::online_rescale) {
        if (result == 0.0f && tile == 0) return o.state("r", 0) + " = 0: nothing was summed before the first tile";
        if (tile == 0 || result == 0.0f)
            return o.state("r", tile) + " = 0: no key was seen before this tile";
        return o.state("r", tile) + " = exp(" + o.state("m", tile - 1) + " − " + o.state("m", tile) + ") = exp(" +
               f.num(o.before(stage_id::online_max)) + " − " + f.num(m) + ") = " + f.num(result);
    }
    const float r = of(t, stage_id::online_rescale)(h, i, tile);
    const bool sum = id == stage_id::online_sum;
    const std::size_t c = sum ? 0 : j % d_h;
    std::vector<std::string> terms;
    for (std::size_t k = o.first(); k < o.last(); ++k)
        if (o.visible(k)) {
            const std::string e = "exp(" + f.num(o.in(h, i, k)) + " − " + f.num(m) + ")";
            terms.push_back(sum ? e : e + "×" + f.num(of(t, stage_id::v)(t.spec.kv_head_of(h), k, c)));
        }
    const char* letter = sum ? "ℓ" : "a";
    const std::string column = sum ? "" : "[" + n1(c) + "]";
    const std::string formula = (tile > 0 ? o.state(letter, tile - 1) + column + "·" + o.state("r", tile) + " + " : "") +
                                "Σ_{j ∈ tile " + n1(tile) + "} exp(e" + sub(i + 1) + "ⱼ − " + o.state("m", tile) + ")" +
                                (sum ? "" : "·v_j" + column);
    std::vector<std::string> values;
    if (tile > 0) values.push_back(f.num(sum ? o.before(stage_id::online_sum) : o.before(stage_id::online_acc, c)) + "×" + f.num(r));
    if (!terms.empty()) values.push_back(f.join(terms, " + "));
    return o.state(letter, tile) + column + " = " + formula + " = " + (values.empty() ? "0" : f.join(values, " + ")) + " = " +
           f.num(result);
}

}  // namespace

std::string format_exact(float v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "−Infinity";
    if (v == 0) return "0";
    char buf[40];
    int digits = 1;
    for (; digits < 9; ++digits) {  // the fewest significant digits that read back as v
        std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(v));
        if (static_cast<float>(std::strtod(buf, nullptr)) == v) break;  // as JavaScript reads it: a double, then Math.fround
    }
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(v));
    // buf is [-]d[.ddd]e±XX: written out as JavaScript does, plain from 1e-6 up to 1e21
    std::string s(buf);
    const bool negative = s[0] == '-';
    if (negative) s.erase(0, 1);
    const std::size_t e = s.find('e');
    const int exponent = std::atoi(s.c_str() + e + 1);
    std::string mantissa = s.substr(0, e);
    mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'), mantissa.end());
    std::string out;
    if (exponent >= -6 && exponent < 21) {
        if (exponent < 0) out = "0." + std::string(std::size_t(-exponent - 1), '0') + mantissa;
        else if (std::size_t(exponent) + 1 >= mantissa.size()) out = mantissa + std::string(exponent + 1 - mantissa.size(), '0');
        else out = mantissa.substr(0, exponent + 1) + "." + mantissa.substr(exponent + 1);
    } else {
        out = mantissa.substr(0, 1) + (mantissa.size() > 1 ? "." + mantissa.substr(1) : "") + "e" + std::to_string(exponent);
    }
    return negative ? "−" + out : out;
}

std::string explain_cell(const trace& t, stage_id id, std::size_t head, std::size_t i, std::size_t j, bool detail) {
    const writer f{detail};
    const spec& s = t.spec;
    const stage_at result = of(t, id);
    // `head` is a query head for every per-head stage; k_rot, kept once per key/value head, reads the one it shares
    const bool per_head = stage_info_of(id).per_head;
    const bool merged_view = id == stage_id::q || id == stage_id::k || id == stage_id::v;
    const std::size_t cols = merged_view ? (id == stage_id::q ? s.d_model() : s.d_kv()) : result.cols;
    const std::size_t heads = per_head ? static_cast<std::size_t>(s.heads) : 1;
    const std::size_t asked = per_head ? head : 0;
    if (!merged_view && asked >= heads)
        throw spec_error("head " + n1(asked) + " is out of range: stage " + stage_name(id) + " has " + std::to_string(heads) +
                         (heads == 1 ? " head." : " heads, 1 to " + std::to_string(heads) + "."));
    if (i >= result.rows || j >= cols)
        throw spec_error(std::string("stage ") + stage_name(id) + " has no cell (" + n1(i) + ", " + n1(j) + "): it has " +
                         std::to_string(result.rows) + " rows and " + std::to_string(cols) + " columns.");
    const std::size_t h = id == stage_id::k_rot ? s.kv_head_of(asked) : asked;
    const cell_names names(s);
    const stage_info& info = stage_info_of(id);
    // the cell as the rows and columns beside it read: [猫, sat], [猫, d2], or [q1, k2] without tokens
    const std::string row_name = info.rows == axis_kind::key ? names.k(i) : names.q(i);
    const std::string at = cell_names::at(row_name, info.cols == axis_kind::key ? names.k(j) : cell_names::d(j));
    const std::size_t d_h = s.d_head();
    switch (id) {
        case stage_id::pe: {
            const float v = result(0, i, j);
            if (s.positional == positional_kind::learned)
                return "PE(pos=" + std::to_string(i) + ", d" + n1(j) + ") = table row " + n1(i) + ", column " + n1(j) + " = " + f.num(v);
            const bool even = j % 2 == 0;
            return "PE(pos=" + std::to_string(i) + ", " + (even ? "2i" : "2i+1") + "=" + std::to_string(j) + ") = " +
                   (even ? "sin" : "cos") + "(" + std::to_string(i) + " / 10000^(" + std::to_string(j - j % 2) + "/" +
                   std::to_string(s.d_model()) + ")) = " + f.num(v);
        }
        case stage_id::x:
        case stage_id::memory: {
            const std::string name = std::string(id == stage_id::x ? "x" : "m") + at;  // memory's rows are keys
            if (!t.pe) return name + " = " + f.num(result(0, i, j));
            const matrix& raw = id == stage_id::x ? s.x : *s.memory;
            return name + " = " + f.num(raw(i, j)) + " + PE(pos=" + std::to_string(i) + ", d" + n1(j) + ") " +
                   f.num((*t.pe)(i, j)) + " = " + f.num(result(0, i, j));
        }
        case stage_id::q:
        case stage_id::k:
        case stage_id::v: return explain_projection(t, id, i, j, f);
        case stage_id::q_rot:
        case stage_id::k_rot: return explain_rotation(t, id, h, i, j, f);
        case stage_id::scores: {
            const std::string head_e = "e" + at + " = ";
            if (s.score == score_kind::additive)
                return head_e + "Σₐ v[a]·tanh((" + names.q_vec(i) + "·W1)[a] + (" + names.k_vec(j) + "·W2)[a]) = " + f.num(result(h, i, j));
            if (s.score == score_kind::bilinear) return head_e + names.q_vec(i) + "·W·" + names.k_vec(j) + "ᵀ = " + f.num(result(h, i, j));
            const std::vector<stage_id> qk = stage_operands(id, s);  // q and k, or after rotary q_rot and k_rot
            const stage_at q = of(t, qk[0]), k = of(t, qk[1]);
            std::vector<std::pair<float, float>> pairs;
            for (std::size_t c = 0; c < d_h; ++c) pairs.emplace_back(q(h, i, c), k(s.kv_head_of(h), j, c));
            return head_e + names.q_vec(i) + "·" + names.k_vec(j) + " = " + f.products(pairs) + " = " + f.num(result(h, i, j));
        }
        case stage_id::scaled: {
            const float e = of(t, stage_id::scores)(h, i, j);
            return "scaled" + at + " = e" + at + " ÷ √" + std::to_string(d_h) + " = " + f.num(e) + " ÷ " +
                   f.num(std::sqrt(static_cast<float>(d_h))) + " = " + f.num(result(h, i, j));
        }
        case stage_id::masked: {
            const float before = of(t, stage_operands(id, s)[0])(h, i, j);
            if ((*t.mask)(i, j)) return "mask" + at + " = 1: " + f.num(before) + " is kept";
            return "mask" + at + " = 0: " + f.num(before) + " → mask_value = " + f.num(result(h, i, j));
        }
        case stage_id::row_max: {
            const stage_at e = of(t, stage_operands(id, s)[0]);
            std::vector<float> row;
            for (std::size_t c = 0; c < e.cols; ++c) row.push_back(e(h, i, c));
            return names.per_row("m", i) + " = max(" + f.list(row, ", ") + ") = " + f.num(result(h, i, 0));
        }
        case stage_id::exp: {
            const float e = of(t, stage_operands(id, s)[0])(h, i, j), m = of(t, stage_id::row_max)(h, i, 0);
            return "exp(e" + at + " − " + names.per_row("m", i) + ") = exp(" + f.num(e) + " − " + f.num(m) + ") = " + f.num(result(h, i, j));
        }
        case stage_id::row_sum: {
            const stage_at x = of(t, stage_id::exp);
            std::vector<float> row;
            for (std::size_t c = 0; c < x.cols; ++c) row.push_back(x(h, i, c));
            return names.per_row("s", i) + " = " + f.list(row, " + ") + " = " + f.num(result(h, i, 0));
        }
        case stage_id::weights: {
            const float x = of(t, stage_id::exp)(h, i, j), sum = of(t, stage_id::row_sum)(h, i, 0);
            return "α" + at + " = exp" + at + " ÷ " + names.per_row("s", i) + " = " + f.num(x) + " ÷ " + f.num(sum) + " = " + f.num(result(h, i, j));
        }
        case stage_id::context: {
            const stage_at w = of(t, stage_id::weights), v = of(t, stage_id::v);
            std::vector<std::pair<float, float>> pairs;
            for (std::size_t k = 0; k < w.cols; ++k) pairs.emplace_back(w(h, i, k), v(s.kv_head_of(h), k, j));
            return "c" + at + " = Σₖ α" + cell_names::at(row_name, "k") + "·v" + cell_names::at("k", cell_names::d(j)) + " = " + f.products(pairs) + " = " +
                   f.num(result(h, i, j));
        }
        case stage_id::online_max:
        case stage_id::online_rescale:
        case stage_id::online_sum:
        case stage_id::online_acc:
        case stage_id::online_output: return explain_online(t, id, h, i, j, f);
        case stage_id::concat:
            return "concat" + at + " = head " + n1(j / d_h) + ": c" + cell_names::at(row_name, cell_names::d(j % d_h)) + " = " + f.num(result(0, i, j));
        case stage_id::output: {
            const stage_at c = of(t, stage_id::concat);
            std::vector<std::pair<float, float>> pairs;
            for (std::size_t k = 0; k < s.d_model(); ++k) pairs.emplace_back(c(0, i, k), (*s.wo.w)(k, j));
            const std::string bias_term = s.wo.b ? " + b_o[" + cell_names::d(j) + "]" : "";
            const std::string bias_value = s.wo.b ? " + " + f.num((*s.wo.b)(j)) : "";
            return "output" + at + " = Σₖ concat" + cell_names::at(row_name, "k") + "·W_o" + cell_names::at("k", cell_names::d(j)) + bias_term + " = " +
                   f.products(pairs) + bias_value + " = " + f.num(result(0, i, j));
        }
    }
    return "";
}

}  // namespace attn
