// The sequence spec's field tables (attn/spec_fields.hpp): each matrix and vector field is one row, its
// member found once here for a spec and for its gradients.
#include "attn/spec_fields.hpp"

#include <type_traits>
#include <utility>

#include "attn/limits.hpp"
#include "attn/text.hpp"
#include "io/json_read.hpp"

namespace attn {
namespace {

using json_read::fail;

float_span span_of(matrix& m) { return m.size() ? float_span{m.data(), m.size(), m.shape(1), true} : float_span{}; }  // empty: absent
/// A matrix the spec has, even empty: "wq": [] is given, and refused by its shape.
float_span given_span(matrix& m) {
    float_span span = span_of(m);
    span.given = true;
    return span;
}
float_span span_of(std::optional<matrix>& m) { return m ? given_span(*m) : float_span{}; }
float_span span_of(std::optional<vector>& v) { return v ? float_span{v->data(), v->size(), v->size(), true} : float_span{}; }

void assign(matrix& m, const json& j, const std::string& path) { m = json_read::read_matrix(j, path); }
void assign(std::optional<matrix>& m, const json& j, const std::string& path) { m = json_read::read_matrix(j, path); }
void assign(std::optional<vector>& v, const json& j, const std::string& path) { v = json_read::read_vector(j, path); }

template <class T>
constexpr int rank_of() {
    if constexpr (std::is_same_v<T, std::optional<vector>>) return 1;
    return 2;
}

// One row: the member is named once and serves the spec, its gradients and the reader alike.
#define ATTN_TENSOR(PATH, SHAPE, SYMBOL, PARAM, GRAD, MEMBER)                                           \
    tensor_field {                                                                                       \
        PATH, rank_of<std::remove_reference_t<decltype(std::declval<spec&>().MEMBER)>>(), SHAPE, SYMBOL, PARAM, GRAD, true, \
            [](spec& s) { return span_of(s.MEMBER); }, [](param_grads& g) { return span_of(g.MEMBER); },   \
            [](spec& s, const json& j, const std::string& path) { assign(s.MEMBER, j, path); }              \
    }

/// mask.matrix: 0 (masked) or 1 (kept), exactly as written (1e-46 would become 0 as a float and silently
/// mean "masked"), so it crosses as text, never packed; it has no gradient.
void read_mask_matrix(spec& s, const json& m, const std::string& path) {
    s.mask_matrix = json_read::read_matrix(m, path);
    for (std::size_t i = 0; i < m.size(); ++i)
        for (std::size_t c = 0; c < m[i].size(); ++c)
            if (const double v = m[i][c].get<double>(); v != 0.0 && v != 1.0)
                fail(cell_at(path, i, c) + " is " + user_text(m[i][c].dump()) + " but must be 0 (masked) or 1 (kept).");
}

/// The row, needed with `score` and refused with any other (tensor_field::score).
tensor_field with_score(tensor_field row, std::string_view score) {
    row.score = score;
    return row;
}

/// The row, filled with `start` when an editor adds it (tensor_field::start).
tensor_field starting_at(tensor_field row, std::string_view start) {
    row.start = start;
    return row;
}

/// The row, a bias refused without its matrix (tensor_field::bias_of).
tensor_field bias_after(tensor_field row, std::string_view matrix) {
    row.bias_of = matrix;
    return row;
}

size_word word_of(std::string_view word) {
    for (const auto& [name, size] : {std::pair{"d_model", size_word::d_model}, {"d_head", size_word::d_head},
                                     {"d_kv", size_word::d_kv}, {"d_a", size_word::d_a}, {"n_q", size_word::n_q}, {"n_k", size_word::n_k}})
        if (word == name) return size;
    return size_word::none;
}

/// The row's shape words read into shape_rows and shape_cols: "rows × cols" or "length", each a size's
/// name, then nothing or words about the values (" of 0 and 1").
tensor_field with_shape_words(tensor_field row) {
    const std::string_view shape = row.shape;
    const std::size_t times = shape.find(" × ");
    const size_word rows = word_of(shape.substr(0, std::min(times, shape.find(' '))));
    size_word cols = size_word::none;
    if (row.rank == 2 && times != std::string_view::npos) {
        const std::string_view rest = shape.substr(times + std::string_view(" × ").size());
        cols = word_of(rest.substr(0, rest.find(' ')));
    }
    if (rows != size_word::none && (row.rank == 1 || cols != size_word::none)) row.shape_rows = rows, row.shape_cols = cols;
    return row;
}

/// A size's value in s, and (given why) its words added there once.
std::size_t size_of(size_word word, const spec& s, std::string* why) {
    std::size_t value = 0;
    const char *name = "", *then = "";  // then: what follows the value in why
    switch (word) {
        case size_word::d_model: value = s.d_model(), name = "d_model"; break;
        case size_word::d_head: value = s.d_head(), name = "d_head"; break;
        case size_word::d_kv: value = s.d_kv(), name = "d_kv", then = s.kv_heads > 0 ? ", kv_heads · d_head" : ""; break;
        case size_word::d_a: value = s.additive.v ? s.additive.v->size() : 0, name = "d_a", then = ", the length of additive.v"; break;
        case size_word::n_q: value = s.n_q(), name = "n_q"; break;
        case size_word::n_k: value = s.n_k(), name = "n_k"; break;
        case size_word::none: break;
    }
    if (why) {
        const std::string text = std::string(name) + " is " + std::to_string(value) + then;
        if (why->find(text) == std::string::npos) *why += (why->empty() ? "" : " and ") + text;
    }
    return value;
}

}  // namespace

std::optional<shape_rule> shape_rule_of(const tensor_field& field, const spec& s, std::string* why) {
    if (field.shape_rows == size_word::none) return std::nullopt;
    const std::size_t rows = size_of(field.shape_rows, s, why);
    return shape_rule{rows, field.rank == 2 ? size_of(field.shape_cols, s, why) : 1};
}

namespace {

/// The rows as written; sequence_tensor_fields() reads their shape words once.
std::vector<tensor_field> written_rows() {
    return {
        ATTN_TENSOR("x", "n_q × d_model", "X", "", "x", x),
        {"memory", 2, "n_k × d_model", "M", "", "memory", true, [](spec& s) { return span_of(s.memory); },
         [](param_grads& g) { return span_of(g.memory); },
         [](spec& s, const json& j, const std::string& path) {
             if (!j.is_null()) s.memory = json_read::read_matrix(j, path);  // null: self-attention, as absent
         }},
        ATTN_TENSOR("weights.wq", "d_model × d_model", "W_q", "wq", "wq", wq.w),
        ATTN_TENSOR("weights.bq", "d_model", "b_q", "bq", "bq", wq.b),
        ATTN_TENSOR("weights.wk", "d_model × d_kv", "W_k", "wk", "wk", wk.w),
        ATTN_TENSOR("weights.bk", "d_kv", "b_k", "bk", "bk", wk.b),
        ATTN_TENSOR("weights.wv", "d_model × d_kv", "W_v", "wv", "wv", wv.w),
        ATTN_TENSOR("weights.bv", "d_kv", "b_v", "bv", "bv", wv.b),
        ATTN_TENSOR("weights.wo", "d_model × d_model", "W_o", "wo", "wo", wo.w),
        bias_after(ATTN_TENSOR("weights.bo", "d_model", "b_o", "bo", "bo", wo.b), "weights.wo"),
        with_score(ATTN_TENSOR("additive.w1", "d_head × d_a", "W_1", "additive.w1", "additive.w1", additive.w1), "additive"),
        with_score(ATTN_TENSOR("additive.w2", "d_head × d_a", "W_2", "additive.w2", "additive.w2", additive.w2), "additive"),
        with_score(ATTN_TENSOR("additive.v", "d_a", "v", "additive.v", "additive.v", additive.v), "additive"),
        with_score(ATTN_TENSOR("bilinear.w", "d_head × d_head", "W", "bilinear", "bilinear.w", bilinear), "bilinear"),
        starting_at({"mask.matrix", 2, "n_q × n_k of 0 and 1", "mask", "", "", false,
                     [](spec& s) { return s.mask == mask_kind::matrix ? given_span(s.mask_matrix) : float_span{}; }, nullptr,
                     read_mask_matrix},
                    "ones"),
        // the spec keeps the table (a matrix, not optional) only with positional "learned"
        starting_at({"positional.learned", 2, "at least max(n_q, n_k) × d_model", "P", "learned", "learned", true,
                     [](spec& s) { return s.positional == positional_kind::learned ? span_of(s.learned) : float_span{}; },
                     [](param_grads& g) { return span_of(g.learned); },
                     [](spec& s, const json& j, const std::string& path) { s.learned = json_read::read_matrix(j, path); }},
                    "zeros"),
    };
}

}  // namespace

const std::vector<tensor_field>& sequence_tensor_fields() {
    static const std::vector<tensor_field> rows = [] {
        std::vector<tensor_field> made = written_rows();
        for (tensor_field& row : made) row = with_shape_words(row);
        return made;
    }();
    return rows;
}

#undef ATTN_TENSOR

const std::vector<scalar_field>& sequence_scalar_fields() {
    using holds = scalar_field::holds;
    const auto always = [](const spec&) { return true; };
    static const std::vector<scalar_field> rows{
        {"tokens.query", holds::labels, 0, 0, false, {}, nullptr, nullptr, [](spec& s) { return &s.query_tokens; },
         [](const spec& s) { return !s.query_tokens.empty(); }},
        {"tokens.key", holds::labels, 0, 0, false, {}, nullptr, nullptr, [](spec& s) { return &s.key_tokens; },
         [](const spec& s) { return !s.key_tokens.empty(); }},
        {"heads", holds::whole, 1, static_cast<long long>(max_heads), false, {}, [](spec& s) { return &s.heads; }, nullptr, nullptr, always},
        {"kv_heads", holds::whole, 1, static_cast<long long>(max_heads), false, {}, [](spec& s) { return &s.kv_heads; }, nullptr, nullptr,
         [](const spec& s) { return s.kv_heads > 0; }},
        // read when the mask is {"window": k} (json.cpp's read_mask chooses the kind)
        {"mask.window", holds::whole, 1, static_cast<long long>(max_positions), false, {}, [](spec& s) { return &s.window; }, nullptr,
         nullptr, [](const spec& s) { return s.mask == mask_kind::window; }, 2},
        {"mask_value", holds::number, 0, 0, false, {}, nullptr, [](spec& s) { return &s.mask_value; }, nullptr, always},
        // read when positional is {"rotary": θ} ("rotary" alone: θ = 10000, as Llama 2 and the RoFormer paper)
        {"positional.rotary", holds::number, 0, 0, false, {}, nullptr, [](spec& s) { return &s.rope_theta; }, nullptr,
         [](const spec& s) { return s.positional == positional_kind::rotary; }, 10000},
        {"online_softmax.block", holds::whole, 1, static_cast<long long>(max_positions), true, "the keys per tile, e.g. {\"block\": 2}",
         [](spec& s) { return &s.online_block; }, nullptr, nullptr, [](const spec& s) { return s.online_block > 0; }, 2},
    };
    return rows;
}

const std::array<field_label, 11>& sequence_field_labels() {
    static constexpr std::array<field_label, 11> rows{{
        {"score", {"Score function", "打分函数"}},
        {"heads", {"Heads", "头数"}},
        {"kv_heads", {"Key/value heads", "键/值头数"}},
        {"mask", {"Mask", "掩码"}},
        {"mask.window", {"Window k", "窗口 k"}},
        {"mask_value", {"Mask value", "掩码值"}},
        {"positional", {"Positional encoding", "位置编码"}},
        {"positional.rotary", {"Rotary base θ", "旋转基数 θ"}},
        {"online_softmax.block", {"Keys per tile", "每块的键数"}},
        {"tokens.query", {"Query tokens", "查询的 token"}},
        {"tokens.key", {"Key tokens", "键的 token"}},
    }};
    return rows;
}

const std::vector<std::string_view>& sequence_top_fields() {
    static const std::vector<std::string_view> names{"x", "memory", "tokens", "weights", "score", "additive", "bilinear",
                                                     "heads", "kv_heads", "mask", "mask_value", "positional", "online_softmax"};
    return names;
}

const tensor_field* tensor_field_at(std::string_view path) {
    for (const tensor_field& f : sequence_tensor_fields())
        if (f.path == path) return &f;
    return nullptr;
}

const tensor_field* tensor_param(std::string_view param) {
    for (const tensor_field& f : sequence_tensor_fields())
        if (!f.param.empty() && f.param == param) return &f;
    return nullptr;
}

const json* json_at(const json& j, std::string_view path) {
    const json* at = &j;
    while (true) {
        const std::size_t dot = path.find('.');
        const std::string key(path.substr(0, dot));
        if (!at->is_object() || !at->contains(key)) return nullptr;
        at = &(*at)[key];
        if (dot == std::string_view::npos) return at;
        path.remove_prefix(dot + 1);
    }
}

json& json_make(json& j, std::string_view path) {
    json* at = &j;
    while (true) {
        const std::size_t dot = path.find('.');
        at = &(*at)[std::string(path.substr(0, dot))];
        if (dot == std::string_view::npos) return *at;
        path.remove_prefix(dot + 1);
    }
}

json sequence_schema_json() {
    json tensors = json::array();
    for (const tensor_field& f : sequence_tensor_fields())
        tensors.push_back({{"path", f.path}, {"rank", f.rank}, {"shape", f.shape}, {"symbol", f.symbol}, {"param", f.param},
                           {"grad", f.grad}, {"packed", f.packed}, {"score", f.score}, {"bias_of", f.bias_of}, {"start", f.start}});
    // the values of the fields that name a kind, from the enums' own name tables (attn/spec.hpp)
    const auto names = [](const auto& table) {
        json out = json::array();
        for (const auto& k : table) out.push_back(k.name);
        return out;
    };
    json scalars = json::array();
    for (const scalar_field& f : sequence_scalar_fields()) {
        const char* kind = f.kind == scalar_field::holds::whole ? "whole" : f.kind == scalar_field::holds::number ? "number" : "labels";
        json row = {{"path", f.path}, {"kind", kind}};
        if (f.kind == scalar_field::holds::whole) row["min"] = f.lo, row["max"] = f.hi, row["start"] = f.start ? f.start : f.lo;
        if (f.kind == scalar_field::holds::number && f.start) row["start"] = f.start;  // a kind's own number (rotary's θ)
        scalars.push_back(std::move(row));
    }
    json labels = json::object();
    for (const field_label& f : sequence_field_labels()) labels[std::string(f.path)] = {{"en", f.label.en}, {"zh", f.label.zh}};
    return {{"top", sequence_top_fields()},
            {"tensors", std::move(tensors)},
            {"scalars", std::move(scalars)},
            {"choices", {{"score", names(score_names)}, {"mask", names(mask_names)}, {"positional", names(positional_names)}}},
            {"labels", std::move(labels)}};
}

}  // namespace attn
