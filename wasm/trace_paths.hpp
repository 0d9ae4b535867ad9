// The trace operations' machinery, shared by the two modules that trace: the core (sequence specs,
// core_call.cpp) and the vision part (vision_call.cpp). Each module has its own copy of this state.
//
// A trace's answer (one_call.hpp's JSON) names its floats by handle, [address, count] in the wasm heap, which
// JS copies out with typed arrays (web/src/trace_reader.js), and the stage layout and axis labels by the ids
// of texts kept here (trace_store.hpp), which JS parses once per id: a small trace is 5–20 µs of arithmetic,
// and a property or a string more in every answer costs JS about a microsecond (Embind's objects did).
//
// A spec crosses in one way: a skeleton and its numbers (web/src/packed_spec.js), where plain JSON text is
// a skeleton with no numbers. Skeletons with numbers are kept by structure: the page's edits and a.trace
// in a loop send one structure again and again with other numbers, and a hit copies the structure's
// template, writes the new floats into the copy and validates it, skipping the JSON parse and the reading.
//
// [SECTION] result_store and trace_answer: the one result, and the answer that names it
// [SECTION] spec_kind: what each module says of its kind of spec
// [SECTION] structure_cache: packed specs kept by structure
// [SECTION] the one entry (a skeleton and its numbers; plain text has none), and the trace operations
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attn/detail/packed_numbers.hpp"
#include "one_call.hpp"
#include "trace_store.hpp"

namespace attn::wasm {

/// How each trace crossed into this module, counted so that a test sees the fast paths (a.tracePaths()):
/// JSON text; a packed skeleton parsed, and of those the ones kept for their structure; a packed skeleton
/// whose structure was kept, filled with new numbers and no parse; a worked example (its spec text), and of
/// those the ones whose text was kept and not parsed again; and the traces whose
/// trace.spec was read again from their text, their spec no longer kept (trace_store.hpp).
struct trace_path_counts {
    std::int32_t text = 0, packed_parsed = 0, packed_kept = 0, packed_hit = 0, example = 0, example_hit = 0, spec_text = 0;
};
inline trace_path_counts path_counts;

// [SECTION] result_store and trace_answer: the one result, and the answer that names it

/// Empties a buffer of the last result for the next: one of up to 64 KiB keeps its memory (no allocation on the
/// page's every edit), a large one gives it back (a big trace must not hold the heap after it).
template <class T>
void reuse(std::vector<T>& buffer) {
    if (buffer.capacity() * sizeof(T) > (std::size_t(1) << 16)) std::vector<T>().swap(buffer);
    buffer.clear();
}

/// The one result kept until the next call: JS copies the floats out before calling again.
struct result_store {
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

/// A trace's answer, written as JSON text by hand (answer_written: text_answer.hpp): {kind: "sequence" | "vision",
/// layout, axes (the ids of its kept texts; axes 0 for vision), serial (spec_of_trace's handle), data: [address,
/// count] (every stage's floats, one stage after another, in the wasm heap until the next call), bytes (what the
/// stages hold), ns (how long the trace took, in nanoseconds)}. A sequence trace with a mask adds mask: [address,
/// rows, cols] (1 where a query sees a key) and empty_rows: [address, count] (the query rows that see no key).
inline json trace_answer(bool vision, int layout_id, int axes_id, int serial, std::uint64_t bytes, double took_ms,
                         std::size_t mask_rows = 0, std::size_t mask_cols = 0) {
    const result_store& r = result();
    std::string& a = written_answer();
    const auto text = [&](const char* t) { a += t; };
    const auto number = [&](std::uint64_t n) {
        char digits[24];
        a.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
    };
    const auto at = [&](const void* p) { number(reinterpret_cast<std::uintptr_t>(p)); };
    a.clear();
    text(vision ? "{\"kind\":\"vision\",\"layout\":" : "{\"kind\":\"sequence\",\"layout\":");
    number(std::uint64_t(layout_id));
    text(",\"axes\":");
    number(std::uint64_t(axes_id));
    text(",\"serial\":");
    number(std::uint64_t(serial));
    text(",\"data\":[");
    at(r.data.data());
    text(",");
    number(r.data.size());
    text("],\"bytes\":");
    number(bytes);
    text(",\"ns\":");
    number(static_cast<std::uint64_t>(took_ms * 1e6));
    if (mask_rows) {
        text(",\"mask\":[");
        at(r.mask.data());
        text(",");
        number(mask_rows);
        text(",");
        number(mask_cols);
        text("],\"empty_rows\":[");
        at(r.empty_rows.data());
        text(",");
        number(r.empty_rows.size());
        text("]");
    }
    text("}");
    return answer_written();
}

/// The answer for a spec that belongs to the other module: no trace, no error (JS sends it there).
inline json other_kind() {
    json a = json::object();
    a["kind"] = "other";
    return a;
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
///   static json trace(std::shared_ptr<Spec> s, trace_keys* keys);                   // its trace_answer()
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

// [SECTION] the one entry (a skeleton and its numbers; plain text has none), and the trace operations

/// What a skeleton is, which decides whether it is kept and how it is counted: plain JSON text (no numbers:
/// parsed each time, counted as text), a skeleton with numbers (kept by structure, counted as packed), or
/// a worked example's spec text (no numbers, kept by its text, counted as an example by trace_example).
enum class skeleton_of { text, packed, example };

/// a.trace, the one entry for every spec: a skeleton (JSON text in which each packed matrix reads
/// {"$f32": [offset, rows, cols]}, a vector [offset, n]) and its count floats, which stay the caller's
/// (null for text and examples: a "$f32" object there is refused as any other non-array). A spec of the
/// other module's kind gets other_kind().
template <class Spec>
json trace_skeleton(std::string_view skeleton, const float* numbers, std::size_t count, bool interactive, skeleton_of what) {
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
}

/// The trace operations of a module that traces Spec (each module one kind), for its table (one_call.hpp):
///   trace {interactive}: a.trace of the payload's JSON text; interactive: the playground's lower budget;
///   trace_packed {interactive}: a.trace of a packed spec, the payload its count of floats (4 bytes, little-endian),
///     the floats, then the skeleton's UTF-8 (packed_spec.js: the page's edits and a.trace in a loop, whose
///     request is then {}, read without the parser: a request with a field was 1.7 µs of a 15 µs trace);
///   trace_example: a.example's, the payload a worked example's spec text (JS asks the core for it once,
///     example_spec), kept by its text as a structure with no numbers and counted as an example;
///   trace_path_counts: the counts of each path (trace_path_counts' fields, in order);
///   cached_text {id}: the layout or axes text a trace named by id (its JSON as a string), null when no longer
///     kept; kept_traces: how many traces' specs are kept (a test's view of the store).
/// Trace is the skeleton's trace (trace_skeleton<Spec>, or a function that calls it in a file compiled otherwise).
using trace_function = json (*)(std::string_view skeleton, const float* numbers, std::size_t count, bool interactive, skeleton_of what);
template <class Spec, trace_function Trace = trace_skeleton<Spec>>
void add_trace_operations(operation_table& table) {
    table.push_back({"trace", [](const json& r, const payload& p) -> json {
        return Trace(p.text(), nullptr, 0, flag_of(r, "interactive"), skeleton_of::text);
    }});
    table.push_back({"trace_packed", [](const json& r, const payload& p) -> json {
        std::uint32_t count = 0;
        if (p.size >= sizeof count) std::memcpy(&count, p.data, sizeof count);  // wasm is little-endian, as JS writes it
        if (p.size < sizeof count || count > (p.size - sizeof count) / sizeof(float))
            throw spec_error("the payload of trace_packed is not a packed spec: its count of floats is more than it holds.");
        // the floats at byte 4 of the payload, which JS places at a multiple of 4 (blockCall in trace_reader.js)
        if (reinterpret_cast<std::uintptr_t>(p.data) % alignof(float) != 0)
            throw spec_error("the payload of trace_packed must start at a multiple of 4 bytes.");
        const float* numbers = reinterpret_cast<const float*>(p.data + sizeof count);
        return Trace(p.text().substr(sizeof count + count * sizeof(float)), numbers, count, flag_of(r, "interactive"), skeleton_of::packed);
    }});
    table.push_back({"trace_example", [](const json&, const payload& p) -> json {
        ++path_counts.example;
        return Trace(p.text(), nullptr, 0, false, skeleton_of::example);
    }});
    table.push_back({"trace_path_counts", [](const json&, const payload&) -> json {
        const trace_path_counts& c = path_counts;
        json counts = json::array();
        for (std::int32_t n : {c.text, c.packed_parsed, c.packed_kept, c.packed_hit, c.example, c.example_hit, c.spec_text}) counts.push_back(n);
        return counts;
    }});
    table.push_back({"cached_text", [](const json& r, const payload&) -> json {
        const int id = int(number_of(r, "id", 0, 0, 2147483647, true));
        const std::string* text = layout_texts().text_of(id);
        if (!text) text = axes_texts().text_of(id);
        return text ? json(*text) : json();
    }});
    table.push_back({"kept_traces", [](const json&, const payload&) -> json { return kept_specs().size(); }});
}

/// A module's two operations on the spec of a trace, each module's kind written by its own functions:
///   spec_of_trace {serial}: the normalised spec of a trace by its handle, while its spec is kept (Kept: null when
///     the entry holds no spec of this module's kind); else null;
///   normalised_spec: the normalised spec of the payload's spec text (a trace whose spec is no longer kept),
///     counted (a.tracePaths().specText).
template <json (*Kept)(const spec_store::entry&), json (*OfText)(std::string_view)>
void add_spec_operations(operation_table& table) {
    table.push_back({"spec_of_trace", [](const json& r, const payload&) -> json {
        const spec_store::entry* kept = kept_specs().find(int(number_of(r, "serial", 0, 0, 2147483647, true)));
        return kept ? Kept(*kept) : json();
    }});
    table.push_back({"normalised_spec", [](const json&, const payload& spec) -> json {
        ++path_counts.spec_text;
        return OfText(spec.text());
    }});
}

}  // namespace attn::wasm
