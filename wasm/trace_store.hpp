// What the module keeps between a.trace calls: the texts a trace names by id (its stage layout and
// axis labels, which depend on its structure, not its numbers) and the specs of the last traces, by their
// handles (whose normalised JSON is written only when JS reads trace.spec). Shared by the trace operations
// (trace_paths.hpp) and the operations that read them back (cached_text, spec_of_trace: core_call.cpp,
// vision_call.cpp).
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

/// The specs of the last traces (a sequence spec, or a vision spec), by handle: a trace's serial number,
/// which JS holds in the trace (trace.spec asks by it: the spec_of_trace operation). The store is bounded instead of
/// told when a trace is collected: a FinalizationRegistry that gave handles back made the worked examples'
/// traces up to twice as slow in a loop (paired runs of web/bench/forward.mjs). The normalised JSON is written
/// when JS first reads trace.spec, not on every trace (it was a third of a small trace). Bounded: at most
/// 16 specs, and a large trace's (its trace over 256 Ki floats: a megabyte) only while it is the newest, so
/// a big trace's memory comes back with the next one; a trace whose spec is no longer here has it read
/// again from its text (the normalised_spec operation), and that is counted.
class spec_store {
public:
    struct entry {
        int serial;
        std::shared_ptr<const spec> read;  // the trace's own (a cache hit traces a copy of its template)
        std::shared_ptr<const vision_spec> vision;
        std::size_t floats;  // what its trace held: the store's measure of its size
    };
    /// Keeps the spec of a trace of `floats` floats; its handle.
    int keep(std::shared_ptr<const spec> read, std::shared_ptr<const vision_spec> vision, std::size_t floats) {
        for (auto e = entries_.begin(); e != entries_.end();) e = e->floats > large_floats ? drop(e) : e + 1;
        entries_.push_back({++serial_, std::move(read), std::move(vision), floats});
        if (entries_.size() > 16) drop(entries_.begin());
        return serial_;
    }
    const entry* find(int serial) const {
        for (const entry& e : entries_)
            if (e.serial == serial) return &e;
        return nullptr;
    }
    std::size_t size() const { return entries_.size(); }

private:
    static constexpr std::size_t large_floats = std::size_t(1) << 18;
    std::vector<entry>::iterator drop(std::vector<entry>::iterator e) { return entries_.erase(e); }
    std::vector<entry> entries_;
    int serial_ = 0;
};
spec_store& kept_specs();

}  // namespace attn::wasm
