// The vision part (web/dist/vision): the articles' vision blocks (SE, ECA, CBAM, CA), loaded when a page or
// a program first traces one, so the sequence stepper's download does not carry them. Its traces cross as
// the core's do (trace_paths.hpp); the rest is JSON text (text_answer.hpp).
#include <emscripten/emscripten.h>

#include <optional>

#include "text_answer.hpp"
#include "trace_paths.hpp"

namespace attn::wasm {
namespace {

/// A vision trace's layout depends on its block, its channels' labels and its stages' shapes.
std::string vision_layout_key(const vision_trace& t) {
    std::string key = to_string(t.spec.block);  // then the axes' labels: the channels' names, length-prefixed
    for (const std::string& c : t.spec.channels) key += std::to_string(c.size()) + ':' + c;
    for (const vision_stage& st : t.stages) {
        key += '|' + st.id;
        for (std::size_t n : st.shape) key += ',' + std::to_string(n);
    }
    return key;
}

}  // namespace

template <>
struct spec_kind<vision_spec> {
    static constexpr bool vision = true;

    /// A vision spec has no budget of its own: its reader's limits are the whole check.
    static std::shared_ptr<vision_spec> read(const json& j, bool) { return std::make_shared<vision_spec>(vision_spec_from_json(j)); }

    static void revalidate(const vision_spec& s, bool) { validate_numbers(s); }

    /// The floats of a packed field by its path in the vision field table (attn/vision.hpp): "feature[c]" and
    /// "cbam.spatial[k]" are one matrix of a list kept back to back, the rest whole vectors; nullptr when the
    /// field is not there with `count` floats (a structure with such a field is not kept).
    static float* packed_field(vision_spec& s, const std::string& field, std::size_t count) {
        const std::size_t bracket = field.find('[');
        const std::string_view path = std::string_view(field).substr(0, bracket);
        for (const vision_tensor_field& f : vision_tensor_fields()) {
            // a number is never packed: its reference is not a packed field
            if (f.path != path || f.rank == 0 || (f.rank == 3) != (bracket != std::string::npos)) continue;
            if (!f.block.empty() && f.block != to_string(s.block)) return nullptr;
            std::vector<float>* values = f.in_spec(s);
            if (!values) return nullptr;
            if (f.rank != 3) return values->size() == count ? values->data() : nullptr;
            const std::size_t index = std::stoul(field.substr(bracket + 1)), size = f.item(s);
            return size == count && (index + 1) * size <= values->size() ? values->data() + index * size : nullptr;
        }
        return nullptr;
    }

    /// The header of a vision spec's trace (stages [{id, formula, operands, axes, shape, offset, size}]; no mask).
    static const trace_header* trace(std::shared_ptr<const vision_spec> s, trace_keys* keys) {
        const auto start = std::chrono::steady_clock::now();
        const vision_trace t = compute_vision(*s);
        const double took = milliseconds_since(start);
        result_store& r = result();
        reuse(r.data);
        for (const vision_stage& st : t.stages) r.data.insert(r.data.end(), st.data.begin(), st.data.end());
        trace_keys made;
        if (!keys) keys = &made;
        if (keys->layout.empty()) keys->layout = vision_layout_key(t);
        const text_cache::entry& layout = layout_texts().get(keys->layout, [&] {
            json stages = json::array();
            std::size_t offset = 0;
            for (const vision_stage& st : t.stages) {
                stages.push_back({{"id", st.id}, {"formula", vision_formula(s->block, st.id)}, {"operands", vision_operands(t, st.id)},
                                  {"axes", vision_axes_json(t, st)}, {"shape", st.shape}, {"offset", offset}, {"size", st.data.size()}});
                offset += st.data.size();
            }
            return stages.dump();
        });
        const int serial = kept_specs().keep(nullptr, std::move(s), r.data.size());
        r.header = {1, layout.id, 0, serial, r.data.data(), int(r.data.size()), nullptr, 0, 0, nullptr, 0,
                    double(t.bytes()), took};
        return &r.header;
    }
};

}  // namespace attn::wasm

// attn_trace_path_counts, attn_trace_packed (every spec, JSON text included) and attn_trace_example_spec: for vision specs
ATTN_TRACE_EXPORTS(attn::vision_spec)

using attn::wasm::trace_header;

// The normalised spec of a trace by its handle as JSON text, while its spec is kept; else null.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_spec_of_trace(int serial) {
    const attn::wasm::spec_store::entry* kept = attn::wasm::kept_specs().find(serial);
    if (!kept || !kept->vision) return nullptr;
    return attn::wasm::answer([&] { return attn::vision_spec_to_json(*kept->vision).dump(); });
}

// The normalised spec of a vision spec's JSON text (a trace whose spec is no longer kept), or null and the
// sentence; counted (a.tracePaths().specText).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_normalised_spec(const char* text, std::size_t length) {
    ++attn::wasm::path_counts.spec_text;
    return attn::wasm::answer([&] { return attn::vision_spec_to_json(attn::vision_spec_from_json(attn::parse_spec_json(attn::wasm::text_of(text, length)))).dump(); });
}

// The vision spec's field table as JSON (a.schema().vision).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_vision_schema() {
    return attn::wasm::answer([] { return attn::vision_schema_json().dump(); });
}

// The vision stage registry as JSON: [{id, symbol, title, title_zh, explain: {en, zh}, scale}].
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_vision_stages() {
    return attn::wasm::answer([] {
        attn::json rows = attn::json::array();
        for (const attn::vision_stage_info& s : attn::vision_stage_registry())
            rows.push_back(attn::stage_facts_json(s.id, s.symbol, s.title, s.explanation, s.scale));
        return rows.dump();
    });
}

// The arithmetic of value `index` (row-major) of a vision stage, or null and the sentence. The trace of the
// last spec asked about is kept: the page asks for one value at a time about the same spec.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_explain_vision(const char* spec_text, std::size_t spec_length, const char* stage,
                                                                std::size_t stage_length, int index) {
    using namespace attn;
    static wasm::kept_for_text<vision_trace> last;
    return wasm::answer([&] {
        if (index < 0) throw spec_error("the index of a value is counted from 0 and cannot be negative.");
        const std::string_view text = wasm::text_of(spec_text, spec_length);
        const vision_trace& t = last.of(text, [&] { return compute_vision(vision_spec_from_json(parse_spec_json(text))); });
        return explain_vision_cell(t, wasm::text_of(stage, stage_length), std::size_t(index));
    });
}
