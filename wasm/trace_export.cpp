// a.trace and a.example as plain wasm exports (web/src/trace_reader.js calls them). An Embind call that
// returns an object costs about a microsecond for each property and each string that crosses, and a small
// trace is only 5–20 µs of arithmetic: so a trace comes back as one fixed header in the wasm heap
// (trace_header) beside its floats, which JS reads with typed arrays, and the stage layout and axis labels
// as the ids of texts kept here (trace_store.hpp), which JS parses once per id.
//
// Specs whose matrices cross as floats (web/src/packed_spec.js) are kept by structure: the page's edits
// and a.trace in a loop send one structure again and again with other numbers, and a hit writes the new
// floats where the first reading put its own and validates again, skipping the JSON parse and the reading.
#include <emscripten/emscripten.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>

#include "trace_store.hpp"

namespace attn::wasm {

text_cache& layout_texts() {
    static text_cache cache;
    return cache;
}
text_cache& axes_texts() {
    static text_cache cache;
    return cache;
}
last_spec_read& last_spec() {
    static last_spec_read last;
    return last;
}

/// What a trace call leaves in the wasm heap for JS: web/src/trace_reader.js reads these fields by their
/// byte offsets (13 four-byte fields, then 2 doubles at byte 56), so the two change together.
struct trace_header {
    std::int32_t error_length;       // bytes of the sentence at `error`; 0 for a trace
    const char* error;
    std::int32_t vision;             // 1 for a vision trace (no axes, no mask)
    std::int32_t layout_id, axes_id;  // cached_text(id): the stage layout and the axis labels as JSON
    std::int32_t serial;              // spec_of_trace(serial): the normalised spec, while this is the last trace
    const float* data;                // every stage's floats, one stage after another
    std::int32_t data_count;
    const std::uint8_t* mask;         // mask_rows × mask_cols, 1 where a query sees a key; null without a mask
    std::int32_t mask_rows, mask_cols;
    const std::uint32_t* empty_rows;  // the query rows that see no key
    std::int32_t empty_count;
    double bytes, compute_ms;         // what the stages hold; how long compute_trace took
};
static_assert(offsetof(trace_header, bytes) == 56, "web/src/trace_reader.js reads the doubles at byte 56");

namespace {

/// Empties a buffer of the last result for the next: one of up to 64 KiB keeps its memory (no allocation on the
/// page's every edit), a large one gives it back (a big trace must not hold the heap after it).
template <class T>
void reuse(std::vector<T>& buffer) {
    if (buffer.capacity() * sizeof(T) > (std::size_t(1) << 16)) std::vector<T>().swap(buffer);
    buffer.clear();
}

/// The one result kept until the next call: JS copies the floats out before calling again.
struct result_store {
    trace_header header{};
    std::vector<float> data;
    std::vector<std::uint8_t> mask;
    std::vector<std::uint32_t> empty_rows;
    std::string error;
};
result_store& result() {
    static result_store store;
    return store;
}

/// The keys of a trace's texts, which only its structure decides: worked out once per structure kept.
struct trace_keys {
    std::string layout, axes;
};

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

/// A vision trace's layout depends on its block and its stages' shapes.
std::string vision_layout_key(const vision_trace& t) {
    std::string key = to_string(t.spec.block);
    for (const vision_stage& st : t.stages) {
        key += '|' + st.id;
        for (std::size_t n : st.shape) key += ',' + std::to_string(n);
    }
    return key;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The header of a sequence spec's trace; keys, when given, are the structure's (filled in the first time).
const trace_header* sequence_trace(std::shared_ptr<const spec> s, trace_keys* keys) {
    const auto start = std::chrono::steady_clock::now();
    const trace t = compute_trace(*s);
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
            stages.push_back({{"id", stage_name(v.id)}, {"formula", stage_formula(v.id, t.spec)}, {"term", stage_term(v.id, t.spec)}, {"operands", operands},
                              {"shape", v.shape}, {"offset", offset}, {"size", v.size}});
            offset += v.size;
        }
        return stages.dump();
    });
    const text_cache::entry& axes = axes_texts().get(keys->axes, [&] { return axes_json(t.spec).dump(); });
    reuse(r.mask);
    if (t.mask) r.mask.assign(t.mask->begin(), t.mask->end());
    reuse(r.empty_rows);
    r.empty_rows.assign(t.empty_rows.begin(), t.empty_rows.end());
    last_spec_read& last = last_spec();
    last = {last.serial + 1, std::move(s), nullptr};
    r.header = {0, nullptr, 0, layout.id, axes.id, last.serial, r.data.data(), int(r.data.size()),
                t.mask ? r.mask.data() : nullptr, t.mask ? int(t.mask->shape(0)) : 0, t.mask ? int(t.mask->shape(1)) : 0,
                r.empty_rows.data(), int(r.empty_rows.size()), double(t.bytes()), took};
    return &r.header;
}

/// The header of a vision spec's trace (stages [{id, formula, shape, offset, size}]; no axes, no mask);
/// keys as for sequence_trace (only the layout's).
const trace_header* vision_trace_of(std::shared_ptr<const vision_spec> s, trace_keys* keys) {
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
            stages.push_back({{"id", st.id}, {"formula", vision_formula(s->block, st.id)}, {"shape", st.shape},
                              {"offset", offset}, {"size", st.data.size()}});
            offset += st.data.size();
        }
        return stages.dump();
    });
    last_spec_read& last = last_spec();
    last = {last.serial + 1, nullptr, std::move(s)};
    r.header = {0, nullptr, 1, layout.id, 0, last.serial, r.data.data(), int(r.data.size()), nullptr, 0, 0, nullptr, 0,
                double(t.bytes()), took};
    return &r.header;
}

/// A refusal: the header carries the sentence.
template <class Compute>
const trace_header* guarded(Compute compute) {
    result_store& r = result();
    try {
        return compute();
    } catch (const spec_error& e) {
        r.error = e.what();
    } catch (const std::bad_alloc&) {
        r.error = "out of memory: the spec is too large for this page's memory.";
    }
    r.header = {};
    r.header.error = r.error.data();
    r.header.error_length = int(r.error.size());
    return &r.header;
}

/// A spec read from j: spec_from_json checks the default limits, and interactive adds the playground's
/// lower ones (attn/limits.hpp), so the page never freezes. A vision spec has no budget of its own.
template <class Spec>
std::shared_ptr<Spec> read_spec(const json& j, bool interactive);
template <>
std::shared_ptr<spec> read_spec(const json& j, bool interactive) {
    auto s = std::make_shared<spec>(spec_from_json(j));
    if (interactive) validate(*s, interactive_budget);
    return s;
}
template <>
std::shared_ptr<vision_spec> read_spec(const json& j, bool) {
    return std::make_shared<vision_spec>(vision_spec_from_json(j));
}

/// Checks again what new numbers can break in a spec read before.
void revalidate(const spec& s, bool interactive) {
    validate(s);
    if (interactive) validate(s, interactive_budget);
}
void revalidate(const vision_spec& s, bool) { validate_numbers(s); }

/// The floats of a packed field of s, by the name its reader gave it (packed_read::field), when it holds
/// `count` of them; nullptr otherwise (a structure with a field these tables do not know is not kept).
float* packed_field(spec& s, const std::string& field, std::size_t count) {
    const auto of = [count](auto& values) -> float* { return values.size() == count ? values.data() : nullptr; };
    const auto of_optional = [&](auto& values) -> float* { return values ? of(*values) : nullptr; };
    if (field == "x") return of(s.x);
    if (field == "memory") return of_optional(s.memory);
    if (field == "bilinear.w") return of_optional(s.bilinear);
    if (field == "positional.learned") return of(s.learned);
    if (field == "additive.w1") return of_optional(s.additive.w1);
    if (field == "additive.w2") return of_optional(s.additive.w2);
    if (field == "additive.v") return of_optional(s.additive.v);
    const std::pair<char, projection*> projections[] = {{'q', &s.wq}, {'k', &s.wk}, {'v', &s.wv}, {'o', &s.wo}};
    for (const auto& [suffix, p] : projections) {
        if (field == std::string("weights.w") + suffix) return of_optional(p->w);
        if (field == std::string("weights.b") + suffix) return of_optional(p->b);
    }
    return nullptr;
}

/// The same for a vision spec: "feature[c]" and "cbam.spatial[k]" are one matrix of the list the spec keeps
/// back to back, the rest whole vectors ("se.w1", "ca.bn.var", …, as vision_json.cpp names them).
float* packed_field(vision_spec& s, const std::string& field, std::size_t count) {
    const auto part = [&](std::vector<float>& values, std::string_view list, std::size_t size) -> float* {
        const std::size_t index = std::stoul(field.substr(list.size() + 1));
        return size == count && (index + 1) * size <= values.size() ? values.data() + index * size : nullptr;
    };
    if (field.rfind("feature[", 0) == 0) return part(s.feature, "feature", s.h * s.w);
    if (field.rfind("cbam.spatial[", 0) == 0) return part(s.spatial, "cbam.spatial", s.kernel * s.kernel);
    const std::string block = std::string(to_string(s.block)) + '.';
    if (field.rfind(block, 0) != 0) return nullptr;
    const std::string name = field.substr(block.size());
    std::pair<const char*, std::vector<float>*> vectors[] = {
        {"w1", &s.fc1.w}, {"b1", &s.fc1.b}, {"w2", &s.fc2.w}, {"b2", &s.fc2.b}, {"w", &s.eca},
        {"wh", &s.gate_h.w}, {"bh", &s.gate_h.b}, {"ww", &s.gate_w.w}, {"bw", &s.gate_w.b}};
    for (const auto& [n, values] : vectors)
        if (name == n) return values->size() == count ? values->data() : nullptr;
    if (s.bn)
        for (auto& [n, values] : {std::pair{"bn.gamma", &s.bn->gamma}, std::pair{"bn.beta", &s.bn->beta},
                                  std::pair{"bn.mean", &s.bn->mean}, std::pair{"bn.var", &s.bn->var}})
            if (name == n) return values->size() == count ? values->data() : nullptr;
    return nullptr;
}

/// How each trace crossed into the core, counted so that a test sees the fast paths (a.tracePaths()):
/// JSON text; a packed skeleton parsed, and of those the ones kept for their structure; a packed skeleton
/// whose structure was kept, filled with new numbers and no parse; a worked example by its id.
struct trace_path_counts {
    std::int32_t text = 0, packed_parsed = 0, packed_kept = 0, packed_hit = 0, example = 0;
};
trace_path_counts path_counts;

/// Specs read from packed skeletons, by skeleton text and budget: the last 32 structures of one kind (every
/// worked example and its variants, traced in turn, all stay), while they hold at most 4 Mi floats together.
/// The spec is shared with last_spec, not copied: a hit changes the spec of an earlier trace, which then
/// stops being the last (its trace.spec is read again from its own text), whether or not the new numbers
/// are traced.
template <class Spec>
class structure_cache {
public:
    /// Where a packed field's floats go in the spec read: found once, when the structure is kept.
    struct destination {
        std::size_t offset, count;
        float* to;
    };
    struct entry {
        std::string skeleton;
        bool interactive;
        std::shared_ptr<Spec> read;
        std::vector<destination> fields;
        trace_keys keys;  // its traces' texts
    };
    /// The entry of this structure with these numbers written in and validated, or nullptr.
    entry* refill(std::string_view skeleton, bool interactive, const float* numbers, std::size_t count) {
        const auto e = std::find_if(entries_.begin(), entries_.end(),
                                    [&](const entry& x) { return x.interactive == interactive && x.skeleton == skeleton; });
        if (e == entries_.end()) return nullptr;
        for (const destination& f : e->fields)
            if (f.offset > count || f.count > count - f.offset) return nullptr;  // not with the same skeleton
        // the last trace may be of this very spec: its trace.spec must not read these numbers (they may
        // even be refused below), so it reads its own text from now on
        last_spec_read& last = last_spec();
        if (static_cast<const void*>(last.read.get()) == e->read.get() || static_cast<const void*>(last.vision.get()) == e->read.get())
            last = {last.serial + 1, nullptr, nullptr};
        for (const destination& f : e->fields) std::copy(numbers + f.offset, numbers + f.offset + f.count, f.to);
        try {
            revalidate(*e->read, interactive);
        } catch (...) {
            forget(e);  // these numbers made it invalid: not kept with them
            throw;
        }
        return &*e;
    }
    /// Keeps what was read, when every packed field can be written again; the entry, or nullptr.
    entry* keep(std::string_view skeleton, bool interactive, std::shared_ptr<Spec> s, const std::vector<packed_read>& reads) {
        std::vector<destination> fields;
        std::size_t floats = 0;
        for (const packed_read& f : reads) {
            float* to = packed_field(*s, f.field, f.count);
            if (!to) return nullptr;
            fields.push_back({f.offset, f.count, to});
            floats += f.count;
        }
        entries_.push_back({std::string(skeleton), interactive, std::move(s), std::move(fields), {}});
        floats_ += floats;
        while (entries_.size() > 32 || (entries_.size() > 1 && floats_ > (std::size_t(4) << 20))) forget(entries_.begin());
        return &entries_.back();
    }

private:
    void forget(typename std::vector<entry>::iterator e) {
        for (const destination& f : e->fields) floats_ -= f.count;
        entries_.erase(e);
    }
    std::vector<entry> entries_;
    std::size_t floats_ = 0;  // what the kept specs' packed fields hold (most of their memory)
};

template <class Spec>
structure_cache<Spec>& structures() {
    static structure_cache<Spec> cache;
    return cache;
}

const trace_header* trace_of(std::shared_ptr<spec> s, trace_keys* keys) { return sequence_trace(std::move(s), keys); }
const trace_header* trace_of(std::shared_ptr<vision_spec> s, trace_keys* keys) { return vision_trace_of(std::move(s), keys); }

/// The trace of a packed skeleton already parsed: read, kept by its structure, traced.
template <class Spec>
const trace_header* read_and_keep(std::string_view skeleton, const json& parsed, const float* numbers, std::size_t count, bool interactive) {
    const packed_numbers sent(numbers, count);
    packed_reads_log log;
    std::shared_ptr<Spec> s = read_spec<Spec>(parsed, interactive);
    auto* kept = structures<Spec>().keep(skeleton, interactive, s, log.reads);
    if (kept) ++path_counts.packed_kept;
    return trace_of(std::move(s), kept ? &kept->keys : nullptr);
}

}  // namespace
}  // namespace attn::wasm

using attn::wasm::trace_header;

extern "C" EMSCRIPTEN_KEEPALIVE const attn::wasm::trace_path_counts* attn_trace_path_counts() { return &attn::wasm::path_counts; }

// a.trace of JSON text (length bytes of UTF-8 at text); interactive: the playground's lower budget.
extern "C" EMSCRIPTEN_KEEPALIVE const trace_header* attn_trace_text(const char* text, std::size_t length, int interactive) {
    using namespace attn;
    ++wasm::path_counts.text;
    return wasm::guarded([&] {
        const json j = parse_spec_json(std::string_view(text, length));
        if (is_vision_spec(j)) return wasm::trace_of(wasm::read_spec<vision_spec>(j, false), nullptr);
        return wasm::trace_of(wasm::read_spec<spec>(j, interactive != 0), nullptr);
    });
}

// a.trace of a skeleton (JSON text in which each packed matrix reads {"$f32": [offset, rows, cols]}, a
// vector [offset, n]) and its count floats at numbers, which stay the caller's (JS frees them after).
extern "C" EMSCRIPTEN_KEEPALIVE const trace_header* attn_trace_packed(const char* skeleton, std::size_t length, const float* numbers,
                                                                      std::size_t count, int interactive) {
    using namespace attn;
    const std::string_view text(skeleton, length);
    const bool budget = interactive != 0;
    return wasm::guarded([&] {
        // a structure seen before needs no parse
        auto* hit = wasm::structures<spec>().refill(text, budget, numbers, count);
        if (hit) return ++wasm::path_counts.packed_hit, wasm::trace_of(hit->read, &hit->keys);
        auto* vision_hit = wasm::structures<vision_spec>().refill(text, budget, numbers, count);
        if (vision_hit) return ++wasm::path_counts.packed_hit, wasm::trace_of(vision_hit->read, &vision_hit->keys);
        ++wasm::path_counts.packed_parsed;
        const json j = parse_spec_json(text);
        if (is_vision_spec(j)) return wasm::read_and_keep<vision_spec>(text, j, numbers, count, budget);
        return wasm::read_and_keep<spec>(text, j, numbers, count, budget);
    });
}

// a.example: an example's trace (id and variant as UTF-8), its spec remembered as the last spec read.
extern "C" EMSCRIPTEN_KEEPALIVE const trace_header* attn_trace_example(const char* id, std::size_t id_length, const char* variant,
                                                                       std::size_t variant_length) {
    using namespace attn;
    const std::string_view name(id, id_length), which(variant, variant_length);
    ++wasm::path_counts.example;
    return wasm::guarded([&] {
        if (example_is_vision(name)) return wasm::trace_of(std::make_shared<vision_spec>(example_vision_spec(name, which)), nullptr);
        return wasm::trace_of(std::make_shared<spec>(example_spec(name, which)), nullptr);
    });
}
