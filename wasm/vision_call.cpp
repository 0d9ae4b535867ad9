// The vision part (web/dist/vision): the articles' vision blocks (SE, ECA, CBAM, CA), loaded when a page or
// a program first traces one, so the sequence stepper's download does not carry them. Its operations are the
// core's trace operations for vision specs (vision_trace.cpp), with their registry, field table and a value's
// arithmetic, over the one call (one_call.hpp).
//
// [SECTION] the operations · the table
#include "trace_paths.hpp"
#include "vision_trace.hpp"

// [SECTION] the operations

std::string attn::wasm::vision_layout_text(const vision_trace& t) {
    json stages = json::array();
    std::size_t offset = 0;
    for (const vision_stage& st : t.stages) {
        json& row = stages.emplace_back(json::object());  // field by field: an initializer list is several times the code
        row["id"] = st.id;
        row["formula"] = vision_formula(t.spec.block, st.id);
        row["operands"] = vision_operands(t, st.id);
        row["axes"] = vision_axes_json(t, st);
        row["shape"] = st.shape;
        row["offset"] = offset;
        row["size"] = st.data.size();
        offset += st.data.size();
    }
    return stages.dump();
}

namespace {

using namespace attn;
using attn::wasm::number_of;
using attn::wasm::payload;
using attn::wasm::text_of;

/// A kept trace's normalised vision spec (spec_of_trace), and a vision spec text's (normalised_spec: trace_paths.hpp).
json kept_spec(const wasm::spec_store::entry& kept) { return kept.vision ? vision_spec_to_json(*kept.vision) : json(); }
json spec_of_text(std::string_view text) { return vision_spec_to_json(vision_spec_from_json(parse_spec_json(text))); }

/// The vision stage registry: [{id, symbol, title, title_zh, explain: {en, zh}, scale}].
json stages(const json&, const payload&) {
    json rows = json::array();
    for (const vision_stage_info& s : vision_stage_registry()) rows.push_back(stage_facts_json(s.id, s.symbol, s.title, s.explanation, s.scale));
    return rows;
}

/// {stage, index}: the arithmetic of value `index` (row-major) of a stage of the payload's vision spec, as text.
/// The trace of the last spec asked about is kept: the page asks for one value at a time about the same spec.
json explain(const json& r, const payload& spec) {
    static wasm::kept_for_text<vision_trace> last;
    const auto index = std::size_t(number_of(r, "index", 0, 0, 2147483647, true));
    const std::string stage = text_of(r, "stage");
    const vision_trace& t = last.of(spec.text(), [&] { return compute_vision(vision_spec_from_json(parse_spec_json(spec.text()))); });
    return explain_vision_cell(t, stage, index);
}

// [SECTION] the table

const wasm::operation_table& operations() {
    static const wasm::operation_table table = [] {
        wasm::operation_table t = {
            {"stages", stages},
            // the vision spec's field table (a.schema().vision)
            {"schema", [](const json&, const payload&) { return vision_schema_json(); }},
            {"explain", explain},
        };
        wasm::add_trace_operations<vision_spec, wasm::trace_vision>(t);
        wasm::add_spec_operations<kept_spec, spec_of_text>(t);
        return t;
    }();
    return table;
}

}  // namespace

const attn::wasm::operation_table& attn::wasm::module_operations() { return operations(); }
const char* const attn::wasm::module_out_of_memory = attn::wasm::spec_out_of_memory;
