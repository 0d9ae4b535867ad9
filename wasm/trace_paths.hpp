// The trace exports' machinery, shared by the two modules that trace: the core (sequence specs,
// trace_export.cpp) and the vision part (vision_export.cpp). Each module has its own copy of this state.
//
// A trace crosses back as one fixed header in the wasm heap (trace_header) beside its floats, which JS reads
// with typed arrays (web/src/trace_reader.js), and the stage layout and axis labels as the ids of texts kept
// here (trace_store.hpp), which JS parses once per id: a call that returns an object (Embind's did) costs
// about a microsecond for each property and each string that crosses, and a small trace is 5–20 µs of
// arithmetic.
//
// A spec crosses in one way: a skeleton and its numbers (web/src/packed_spec.js), where plain JSON text is
// a skeleton with no numbers. Skeletons with numbers are kept by structure: the page's edits and a.trace
// in a loop send one structure again and again with other numbers, and a hit copies the structure's
// template, writes the new floats into the copy and validates it, skipping the JSON parse and the reading.
//
// [SECTION] trace_header: what JS reads
// [SECTION] result_store and guarded: the one result, and a refusal as a header
// [SECTION] spec_kind: what each module says of its kind of spec
// [SECTION] structure_cache: packed specs kept by structure
// [SECTION] the one entry (a skeleton and its numbers; plain text has none), and its exports
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <emscripten/emscripten.h>

#include "attn/detail/packed_numbers.hpp"
#include "text_answer.hpp"
#include "trace_store.hpp"

namespace attn::wasm {

// [SECTION] trace_header: what JS reads

/// What a trace call leaves in the wasm heap for JS (a refusal: null, and attn_error() its sentence):
/// web/src/trace_reader.js reads these fields by their byte offsets (11 four-byte fields, then 2 doubles at
/// byte 48), so the two change together.
struct trace_header {
    std::int32_t vision;             // 1 for a vision trace (no axes, no mask); 2: a spec of the other module's kind
    std::int32_t layout_id, axes_id;  // the texts (cached_text) of the stage layout and the axis labels
    std::int32_t serial;              // spec_of_trace(serial): the normalised spec, while this is the last trace
    const float* data;                // every stage's floats, one stage after another
    std::int32_t data_count;
    const std::uint8_t* mask;         // mask_rows × mask_cols, 1 where a query sees a key; null without a mask
    std::int32_t mask_rows, mask_cols;
    const std::uint32_t* empty_rows;  // the query rows that see no key
    std::int32_t empty_count;
    double bytes, compute_ms;         // what the stages hold; how long the trace took
};
static_assert(offsetof(trace_header, bytes) == 48, "web/src/trace_reader.js reads the doubles at byte 48");

/// How each trace crossed into this module, counted so that a test sees the fast paths (a.tracePaths()):
/// JSON text; a packed skeleton parsed, and of those the ones kept for their structure; a packed skeleton
/// whose structure was kept, filled with new numbers and no parse; a worked example (its spec text), and of
/// those the ones whose text was kept and not parsed again; and the traces whose
/// trace.spec was read again from their text, their spec no longer kept (trace_store.hpp).
struct trace_path_counts {
    std::int32_t text = 0, packed_parsed = 0, packed_kept = 0, packed_hit = 0, example = 0, example_hit = 0, spec_text = 0;
};
inline trace_path_counts path_counts;

// [SECTION] result_store and guarded: the one result, and a refusal as a header

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
};
inline result_store& result() {
    static result_store store;
    return store;
}

inline double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The header of a spec that belongs to the other module: no trace, no error (JS sends it there).
inline const trace_header* other_kind() {
    result_store& r = result();
    r.header = {};
    r.header.vision = 2;
    return &r.header;
}

/// A refusal: null, and its sentence in attn_error() (text_answer.hpp), as every export refuses.
template <class Compute>
const trace_header* guarded(Compute compute) {
    try {
        return compute();
    } catch (const spec_error& e) {
        answer_error() = e.what();
    } catch (const std::bad_alloc&) {
        answer_error() = "out of memory: the spec is too large for this page's memory.";
    }
    return nullptr;
}

// [SECTION] spec_kind: what each module says of its kind of spec

/// The keys of a trace's texts, which only its structure decides: worked out once per structure kept.
struct trace_keys {
    std::string layout, axes;
};

/// Specialised by each module for the kind it traces:
///   static std::shared_ptr<Spec> read(const json& j, bool interactive);   // read and checked
///   static void revalidate(const Spec& s, bool interactive);              // what new numbers can break
///   static float* packed_field(Spec& s, const std::string& field, std::size_t count);  // nullptr: not kept
///   static const trace_header* trace(std::shared_ptr<Spec> s, trace_keys* keys);
template <class Spec>
struct spec_kind;

// [SECTION] structure_cache: packed specs kept by structure

/// Specs read from packed skeletons, by skeleton text and budget: the last 32 structures (every worked
/// example and its variants, traced in turn, all stay), while they hold at most 4 Mi floats together.
/// A kept spec is a template, never traced and never changed: a hit copies it and writes the new numbers
/// into the copy, so no trace shares its spec with the cache or with another trace (a hit that wrote into
/// the kept spec once changed an earlier trace's trace.spec: c3023cb), and numbers the validator refuses
/// leave the template as good as it was.
template <class Spec>
class structure_cache {
public:
    /// A packed field: where its floats are in the numbers sent, and its path (packed_field finds it again
    /// in each copy).
    struct destination {
        std::size_t offset, count;
        std::string field;
    };
    struct entry {
        std::string skeleton;
        bool interactive;
        std::shared_ptr<const Spec> read;  // the template
        std::vector<destination> fields;
        trace_keys keys;  // its traces' texts
    };
    struct hit {
        std::shared_ptr<Spec> spec;  // the template's copy, with the numbers written in and validated
        trace_keys* keys;
    };
    /// A copy of this structure's template with these numbers written in and validated; {nullptr} when the
    /// structure is not kept. Refused numbers throw, as a first reading would.
    hit refill(std::string_view skeleton, bool interactive, const float* numbers, std::size_t count) {
        const auto e = std::find_if(entries_.begin(), entries_.end(),
                                    [&](const entry& x) { return x.interactive == interactive && x.skeleton == skeleton; });
        if (e == entries_.end()) return {};
        for (const destination& f : e->fields)
            if (f.offset > count || f.count > count - f.offset) return {};  // not with the same skeleton
        auto copy = std::make_shared<Spec>(*e->read);
        for (const destination& f : e->fields) {
            float* to = spec_kind<Spec>::packed_field(*copy, f.field, f.count);  // found when kept: it is there
            std::copy(numbers + f.offset, numbers + f.offset + f.count, to);
        }
        spec_kind<Spec>::revalidate(*copy, interactive);
        return {std::move(copy), &e->keys};
    }
    /// Keeps a copy of what was read as this structure's template, when every packed field can be written
    /// again; its keys, or nullptr. (A template holds its numbers too: a spec of a million floats is kept
    /// once more, within the 4 Mi floats of all of them, and each hit copies it whole before writing the
    /// new numbers: 8 MB is a few milliseconds, the worked examples' specs a microsecond or two.)
    trace_keys* keep(std::string_view skeleton, bool interactive, Spec& s, const std::vector<packed_read>& reads) {
        std::vector<destination> fields;
        std::size_t floats = 0;
        for (const packed_read& f : reads) {
            if (!spec_kind<Spec>::packed_field(s, f.field, f.count)) return nullptr;  // checked before any copy
            fields.push_back({f.offset, f.count, f.field});
            floats += f.count;
        }
        entries_.push_back({std::string(skeleton), interactive, std::make_shared<const Spec>(s), std::move(fields), {}});
        floats_ += floats;
        while (entries_.size() > 32 || (entries_.size() > 1 && floats_ > (std::size_t(4) << 20))) forget(entries_.begin());
        return &entries_.back().keys;
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

// [SECTION] the one entry (a skeleton and its numbers; plain text has none), and its exports

/// What a skeleton is, which decides whether it is kept and how it is counted: plain JSON text (no numbers:
/// parsed each time, counted as text), a skeleton with numbers (kept by structure, counted as packed), or
/// a worked example's spec text (no numbers, kept by its text, counted as an example by its export).
enum class skeleton_of { text, packed, example };

/// a.trace, the one entry for every spec: a skeleton (JSON text in which each packed matrix reads
/// {"$f32": [offset, rows, cols]}, a vector [offset, n]) and its count floats, which stay the caller's
/// (null for text and examples: a "$f32" object there is refused as any other non-array). A spec of the
/// other module's kind gets other_kind().
template <class Spec>
const trace_header* trace_skeleton(std::string_view skeleton, const float* numbers, std::size_t count, bool interactive, skeleton_of what) {
    return guarded([&] {
        // a structure seen before needs no parse
        if (what != skeleton_of::text)
            if (auto hit = structures<Spec>().refill(skeleton, interactive, numbers, count); hit.spec) {
                ++(what == skeleton_of::packed ? path_counts.packed_hit : path_counts.example_hit);
                return spec_kind<Spec>::trace(std::move(hit.spec), hit.keys);
            }
        if (what == skeleton_of::packed) ++path_counts.packed_parsed;
        const json j = parse_spec_json(skeleton);
        if (is_vision_spec(j) != spec_kind<Spec>::vision) return other_kind();  // counted where it is traced
        if (what == skeleton_of::text) ++path_counts.text;
        const packed_numbers sent(numbers, count);
        packed_reads_log log;
        std::shared_ptr<Spec> s = spec_kind<Spec>::read(j, interactive);
        trace_keys* kept = what == skeleton_of::text ? nullptr : structures<Spec>().keep(skeleton, interactive, *s, log.reads);
        if (kept && what == skeleton_of::packed) ++path_counts.packed_kept;
        return spec_kind<Spec>::trace(std::move(s), kept);
    });
}

}  // namespace attn::wasm

/// The trace exports of a module that traces Spec (each module one kind): the counts of each path;
/// a.trace of a skeleton (length bytes of UTF-8) and its count floats (null: plain JSON text), interactive:
/// the playground's lower budget; and a.example's, a worked example's spec text (JS asks the core for it
/// once, attn_example_spec), kept by its text as a structure with no numbers and counted as an example.
#define ATTN_TRACE_EXPORTS(Spec)                                                                                               \
    extern "C" EMSCRIPTEN_KEEPALIVE const attn::wasm::trace_path_counts* attn_trace_path_counts() {                            \
        return &attn::wasm::path_counts;                                                                                       \
    }                                                                                                                          \
    extern "C" EMSCRIPTEN_KEEPALIVE const attn::wasm::trace_header* attn_trace_packed(                                         \
        const char* skeleton, std::size_t length, const float* numbers, std::size_t count, int interactive) {                  \
        return attn::wasm::trace_skeleton<Spec>(std::string_view(skeleton, length), numbers, count, interactive != 0,            \
                                                numbers ? attn::wasm::skeleton_of::packed : attn::wasm::skeleton_of::text);    \
    }                                                                                                                          \
    extern "C" EMSCRIPTEN_KEEPALIVE const attn::wasm::trace_header* attn_trace_example_spec(const char* text, std::size_t length) { \
        ++attn::wasm::path_counts.example;                                                                                     \
        return attn::wasm::trace_skeleton<Spec>(std::string_view(text, length), nullptr, 0, false, attn::wasm::skeleton_of::example); \
    }
