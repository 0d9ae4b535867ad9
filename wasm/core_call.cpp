// The core's module (web/dist/core): a.trace and a.example of sequence specs, the worked examples, the stage
// registry, the field tables and the limits, each an operation of the one call (one_call.hpp), as every module's.
// The trace machinery it shares with the vision part is trace_paths.hpp; a vision spec sent here is answered
// other_kind(), and JS sends it to the vision part (web/dist/vision), loaded when first needed. A cell's
// arithmetic is the explain part's (explain_call.cpp), a.attention's fast path the fast part's (fast_path.cpp).
//
// [SECTION] a sequence spec's trace · the operations · the table
#include <cstdint>
#include <utility>

#include "attn/attn.hpp"
#include "attn/spec_fields.hpp"
#include "trace_paths.hpp"

// [SECTION] a sequence spec's trace

namespace attn::wasm {
namespace {

/// What a trace's layout is made from, read from the same functions that write it: each stage's id,
/// shape, formula and operands (no list of the spec fields they depend on to keep in step with them).
std::string layout_key(const trace& t, const std::vector<stage_view>& views) {
    std::string key;
    for (const stage_view& v : views) {
        key += char('a' + int(v.id));
        for (std::size_t n : v.shape) key += std::to_string(n) + ',';
        key += stage_formula(v.id, t.spec);
        for (stage_id id : stage_operands(v.id, t.spec)) key += char('a' + int(id));
        key += '|';
    }
    return key;
}

/// What the axis labels are made from: the sizes and the tokens, each token length-prefixed so that no
/// label, whatever characters it holds, can make two different lists give one key.
std::string axes_key(const spec& s) {
    std::string key = std::to_string(s.n_q()) + ',' + std::to_string(s.n_k()) + ',' + std::to_string(s.d_model()) + ',' +
                      std::to_string(s.heads) + ',' + std::to_string(s.online_block);
    for (const auto* tokens : {&s.query_tokens, &s.key_tokens}) {
        key += ';' + std::to_string(tokens->size()) + ';';
        for (const std::string& token : *tokens) key += std::to_string(token.size()) + ':' + token;
    }
    return key;
}

}  // namespace

template <>
struct spec_kind<spec> {
    static constexpr bool vision = false;

    /// spec_from_json checks the default limits, and interactive adds the playground's lower ones
    /// (attn/limits.hpp), so the page never freezes.
    static std::shared_ptr<spec> read(const json& j, bool interactive) {
        auto s = std::make_shared<spec>(spec_from_json(j));
        if (interactive) validate(*s, interactive_budget);
        return s;
    }

    static void revalidate(const spec& s, bool interactive) {
        validate(s);
        if (interactive) validate(s, interactive_budget);
    }

    /// The floats of a packed field of s, by its path in the field table (attn/spec_fields.hpp), when it
    /// holds `count` of them; nullptr otherwise (a structure with a field the table does not pack is not kept).
    static float* packed_field(spec& s, const std::string& field, std::size_t count) {
        const tensor_field* f = tensor_field_at(field);
        if (!f || !f->packed) return nullptr;
        const float_span v = f->in_spec(s);
        return v.size == count ? v.data : nullptr;
    }

    /// The answer of a sequence spec's trace (trace_answer); keys, when given, are the structure's (filled in the first time).
    static json trace(std::shared_ptr<const spec> s, trace_keys* keys) {
        const auto start = std::chrono::steady_clock::now();
        const attn::trace t = compute_trace(*s);
        const double took = milliseconds_since(start);
        result_store& r = result();
        const std::vector<stage_view> views = t.stages();
        reuse(r.data);
        for (const stage_view& v : views) r.data.insert(r.data.end(), v.data, v.data + v.size);
        trace_keys made;
        if (!keys) keys = &made;
        if (keys->layout.empty()) *keys = {layout_key(t, views), axes_key(t.spec)};
        const text_cache::entry& layout = layout_texts().get(keys->layout, [&] {
            json stages = json::array();
            std::size_t offset = 0;
            for (const stage_view& v : views) {
                std::vector<std::string> operands;
                for (stage_id id : stage_operands(v.id, t.spec)) operands.emplace_back(stage_name(id));
                stages.push_back({{"id", stage_name(v.id)}, {"formula", stage_formula(v.id, t.spec)}, {"term", stage_term(v.id, t.spec)},
                                  {"operands", operands}, {"shape", v.shape}, {"offset", offset}, {"size", v.size}});
                offset += v.size;
            }
            return stages.dump();
        });
        const text_cache::entry& axes = axes_texts().get(keys->axes, [&] { return axes_json(t.spec).dump(); });
        reuse(r.mask);
        if (t.mask) r.mask.assign(t.mask->begin(), t.mask->end());
        reuse(r.empty_rows);
        r.empty_rows.assign(t.empty_rows.begin(), t.empty_rows.end());
        const int serial = kept_specs().keep(std::move(s), nullptr, r.data.size());
        return trace_answer(false, layout.id, axes.id, serial, t.bytes(), took, t.mask ? t.mask->shape(0) : 0, t.mask ? t.mask->shape(1) : 0);
    }
};

}  // namespace attn::wasm

// [SECTION] the operations

namespace {

using namespace attn;
using attn::wasm::payload;
using attn::wasm::text_of;

/// A kept trace's normalised spec (spec_of_trace), and a sequence spec text's (normalised_spec: trace_paths.hpp).
json kept_spec(const wasm::spec_store::entry& kept) { return kept.read ? spec_to_json(*kept.read) : json(); }
json spec_of_text(std::string_view text) { return spec_to_json(parse_spec(text)); }

/// [{id, kind: "sequence" | "vision", title: {en, zh}, source: {en, zh}, variants: [ids], default_variant}] in
/// docs/spec.md order; default_variant names the variant whose spec is the example's own ("" if none).
json examples(const json&, const payload&) {
    json list = json::array();
    for (const std::string& id : example_ids()) {
        const json& doc = example_document(id);
        json variants = json::array();
        std::string same_as_base;
        if (doc.contains("variants"))
            for (const json& v : doc["variants"]) {
                variants.push_back(v["id"]);
                const std::string vid = v["id"].get<std::string>();
                if (same_as_base.empty() && example_spec_json(id, vid) == example_spec_json(id)) same_as_base = vid;
            }
        json& e = list.emplace_back(json::object());
        e["id"] = id;
        e["kind"] = example_is_vision(id) ? "vision" : "sequence";
        e["title"] = doc["title"];
        e["source"] = doc["source"];
        e["variants"] = std::move(variants);
        e["default_variant"] = same_as_base;
    }
    return list;
}

/// {id}: an example's document (texts, variants) without its spec.
json example_document_of(const json& r, const payload&) { return example_about_json(text_of(r, "id"))["example"]; }

/// {id, variant}: an example's spec, what a.example traces (asked once per example and variant), in the core or,
/// for a vision example, in the vision part.
json example_spec(const json& r, const payload&) {
    const auto variant = r.find("variant");
    return example_spec_json(text_of(r, "id"), variant == r.end() ? std::string() : text_of(r, "variant"));
}

/// Every documented limit of attn/limits.hpp, camelCase, for the package's `limits`. (A table and a loop: a JSON
/// object written as one initializer list was 5 KB of code.)
json limits(const json&, const payload&) {
    struct named {
        const char* name;
        std::uint64_t value;
    };
    static constexpr named rows[] = {
        {"maxSpecBytes", max_spec_bytes},           {"maxSpecValues", max_spec_values},     {"maxNesting", max_nesting},
        {"maxArrayLength", max_array_length},       {"maxObjectFields", max_object_fields}, {"maxStringBytes", max_string_bytes},
        {"maxPositions", max_positions},            {"maxDModel", max_d_model},             {"maxHeads", max_heads},
        {"maxAdditiveWidth", max_additive_width},   {"maxAttentionBytes", max_attention_bytes},
        {"maxAttentionWork", max_attention_work},   {"maxAttentionRows", max_attention_rows},
    };
    json out = json::object();
    for (const named& row : rows) out[row.name] = row.value;
    json& budgets = out["budget"];
    for (const auto& [name, b] : {std::pair{"default", default_budget}, std::pair{"interactive", interactive_budget}}) {
        json& one = budgets[name];
        one["traceBytes"] = b.trace_bytes;
        one["multiplyAdds"] = b.multiply_adds;
        one["tanhCalls"] = b.tanh_calls;
    }
    return out;
}

// [SECTION] the table

const wasm::operation_table& operations() {
    static const wasm::operation_table table = [] {
        wasm::operation_table t = {
            {"examples", examples},
            {"example_document", example_document_of},
            {"example_spec", example_spec},
            // the stage registry (stage_registry_json), in trace order
            {"stages", [](const json&, const payload&) { return stage_registry_json(); }},
            // the sequence spec's field tables (attn/spec_fields.hpp), for a.schema()
            {"schema", [](const json&, const payload&) { return sequence_schema_json(); }},
            {"limits", limits},
        };
        wasm::add_trace_operations<spec>(t);
        wasm::add_spec_operations<kept_spec, spec_of_text>(t);
        return t;
    }();
    return table;
}

}  // namespace

const attn::wasm::operation_table& attn::wasm::module_operations() { return operations(); }
const char* const attn::wasm::module_out_of_memory = attn::wasm::spec_out_of_memory;
