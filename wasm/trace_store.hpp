// What the module keeps between a.trace calls: the texts a trace names by id (its stage layout and
// axis labels, which depend on its structure, not its numbers) and the last spec read (whose
// normalised JSON is written only when JS reads trace.spec). Shared by the trace exports
// (trace_paths.hpp) and the exports that read them back (attn_cached_text, attn_spec_of_trace).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "attn/attn.hpp"

namespace attn::wasm {

/// The last 32 texts made from a key: the layout and axes of a trace depend only on its structure and
/// labels, not on its values, so an edit of values (the page's usual edit) or the same kind of spec again
/// reuses them (natively the layout alone took 35 µs of a 50 µs small trace).
class text_cache {
public:
    struct entry {
        std::string key, text;
        int id;  // never reused: JS keeps the parsed text under it
    };
    template <class Make>
    const entry& get(const std::string& key, Make make) {
        for (std::size_t k = 0; k < entries_.size(); ++k)
            if (entries_[k].key == key) {
                std::rotate(entries_.begin(), entries_.begin() + long(k), entries_.begin() + long(k) + 1);  // most recent first
                return entries_.front();
            }
        if (entries_.size() == 32) entries_.pop_back();
        entries_.insert(entries_.begin(), {key, make(), ++next_id()});
        return entries_.front();
    }
    const std::string* text_of(int id) const {
        for (const entry& e : entries_)
            if (e.id == id) return &e.text;
        return nullptr;
    }

private:
    std::vector<entry> entries_;
    static int& next_id() {
        static int id = 0;  // shared by every cache: an id names one text
        return id;
    }
};

/// Stage layouts ([{id, formula, operands, shape, offset, size}] as JSON) and axis labels, by id.
text_cache& layout_texts();
text_cache& axes_texts();

/// The last spec a.trace read (a sequence spec, or a vision spec), with the trace's serial number: its
/// normalised JSON is written when JS first reads trace.spec (spec_of_trace), not on every trace (it was a
/// third of a small trace). An older trace's spec is read again from its text (normalised_spec_json).
struct last_spec_read {
    int serial = 0;
    std::shared_ptr<const spec> read;  // this trace's own (a cache hit traces a copy of its template): nothing else writes it
    std::shared_ptr<const vision_spec> vision;
};
last_spec_read& last_spec();

}  // namespace attn::wasm
