// The vision part's traces (vision_call.cpp's trace operations call trace_vision): a vision spec's reading, its
// structure kept, its trace and its answer. Compiled -O3 where the rest of the part (its requests, its JSON) is
// -Oz: a trace of a vision example is 6–13 µs, and at -Oz this file made each about 4 µs slower.
#include "trace_paths.hpp"
#include "vision_trace.hpp"

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

    /// The answer of a vision spec's trace (trace_answer; its layout's stages [{id, formula, operands, axes, shape, offset, size}]; no mask).
    static json trace(std::shared_ptr<const vision_spec> s, trace_keys* keys) {
        const auto start = std::chrono::steady_clock::now();
        const vision_trace t = compute_vision(*s);
        const double took = milliseconds_since(start);
        result_store& r = result();
        reuse(r.data);
        for (const vision_stage& st : t.stages) r.data.insert(r.data.end(), st.data.begin(), st.data.end());
        trace_keys made;
        if (!keys) keys = &made;
        if (keys->layout.empty()) keys->layout = vision_layout_key(t);
        const text_cache::entry& layout = layout_texts().get(keys->layout, [&] { return vision_layout_text(t); });
        const int serial = kept_specs().keep(nullptr, std::move(s), r.data.size());
        return trace_answer(true, layout.id, 0, serial, t.bytes(), took);
    }
};

json trace_vision(std::string_view skeleton, const float* numbers, std::size_t count, bool interactive, skeleton_of what) {
    return trace_skeleton<vision_spec>(skeleton, numbers, count, interactive, what);
}

}  // namespace attn::wasm
