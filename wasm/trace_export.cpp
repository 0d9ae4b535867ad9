// a.trace and a.example of sequence specs as plain wasm exports (web/src/trace_reader.js calls them); the
// machinery they share with the vision part is trace_paths.hpp. A vision spec sent here comes back as
// other_kind(): JS sends it to the vision part (web/dist/vision), loaded when first needed.
#include <emscripten/emscripten.h>

#include "attn/spec_fields.hpp"
#include "trace_paths.hpp"

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

    /// The header of a sequence spec's trace; keys, when given, are the structure's (filled in the first time).
    static const trace_header* trace(std::shared_ptr<const spec> s, trace_keys* keys) {
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
        r.header = {0, layout.id, axes.id, serial, r.data.data(), int(r.data.size()),
                    t.mask ? r.mask.data() : nullptr, t.mask ? int(t.mask->shape(0)) : 0, t.mask ? int(t.mask->shape(1)) : 0,
                    r.empty_rows.data(), int(r.empty_rows.size()), double(t.bytes()), took};
        return &r.header;
    }
};

}  // namespace attn::wasm

// attn_trace_path_counts, attn_trace_packed (every spec, JSON text included) and attn_trace_example_spec: for sequence specs
ATTN_TRACE_EXPORTS(attn::spec)

using attn::wasm::trace_header;

