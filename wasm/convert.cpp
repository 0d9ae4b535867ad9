#include "convert.hpp"

#include <emscripten/emscripten.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include <emscripten/val.h>

#include "attn/attn.hpp"

namespace attn::wasm {
namespace {

using emscripten::val;

val error_result(const char* sentence) {
    val out = val::object();
    out.set("error", std::string(sentence));
    return out;
}

template <class T>
val js_array(const std::vector<T>& items) {
    val out = val::array();
    for (const T& item : items) out.call<void>("push", item);
    return out;
}

/// The last few texts made from a key: the layout and axes of a trace depend only on its structure and
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
        if (entries_.size() == 8) entries_.pop_back();
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

text_cache& layout_texts() {
    static text_cache cache;
    return cache;
}
text_cache& axes_texts() {
    static text_cache cache;
    return cache;
}

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

/// What the axis labels are made from: the sizes and the tokens.
std::string axes_key(const spec& s) {
    std::string key = std::to_string(s.n_q()) + ',' + std::to_string(s.n_k()) + ',' + std::to_string(s.d_model()) + ',' +
                      std::to_string(s.heads) + ',' + std::to_string(s.online_block);
    for (const auto* tokens : {&s.query_tokens, &s.key_tokens}) {
        key += '\x1e';
        for (const std::string& token : *tokens) key += token + '\x1f';
    }
    return key;
}

/// How packed() hands over a trace's layout and axis labels: as texts (with the normalised spec; an
/// example's first call), or as the ids of the texts the core keeps (a trace; JS parses each id once).
enum class layout_form { texts, ids };

/// A trace as typed JS values: one Float32Array holding every stage back to back and, with_layout,
/// where each stage sits ({id, formula, operands, shape, offset, size}) and the axis labels, in the
/// given form. Without the layout (an example's second call) those stay undefined: they never change
/// for an example, so JS keeps them from the first call. No JSON tree is built for the data: this path
/// runs on every edit the page makes.
val packed(const trace& t, bool with_layout, double compute_ms, layout_form form = layout_form::texts) {
    const std::vector<stage_view> views = t.stages();
    std::size_t total = 0;
    for (const stage_view& s : views) total += s.size;
    std::vector<float> all;
    all.reserve(total);
    for (const stage_view& s : views) all.insert(all.end(), s.data, s.data + s.size);
    val out = val::object();
    if (with_layout) {  // JSON text, one string each: every property set through Embind costs a microsecond
        const text_cache::entry& layout = layout_texts().get(layout_key(t, views), [&] {
            json stages = json::array();
            std::size_t offset = 0;
            for (const stage_view& s : views) {
                std::vector<std::string> operands;
                for (stage_id id : stage_operands(s.id, t.spec)) operands.emplace_back(stage_name(id));
                stages.push_back({{"id", stage_name(s.id)}, {"formula", stage_formula(s.id, t.spec)}, {"operands", operands},
                                  {"shape", s.shape}, {"offset", offset}, {"size", s.size}});
                offset += s.size;
            }
            return stages.dump();
        });
        const text_cache::entry& axes = axes_texts().get(axes_key(t.spec), [&] { return axes_json(t.spec).dump(); });
        if (form == layout_form::texts) {  // an example's first call: the texts themselves, once
            out.set("stages", layout.text);
            out.set("spec", spec_to_json(t.spec).dump());
            out.set("axes", axes.text);
        } else {  // a trace: which texts, by id; JS asks cached_text(id) only for one it has not seen
            out.set("layoutId", layout.id);
            out.set("axesId", axes.id);
        }
    }
    if (t.mask) {
        val mask = val::object();
        mask.set("shape", js_array(std::vector<std::size_t>{t.mask->shape(0), t.mask->shape(1)}));
        mask.set("data", val(emscripten::typed_memory_view(t.mask->size(), t.mask->data())).call<val>("slice"));
        out.set("mask", mask);
        out.set("emptyRows", js_array(t.empty_rows));
    }
    out.set("bytes", t.bytes());
    out.set("computeMs", compute_ms);
    // slice() copies out of the wasm heap: the array belongs to JS, the vector is freed on return
    out.set("data", val(emscripten::typed_memory_view(all.size(), all.data())).call<val>("slice"));
    return out;
}

/// The trace of s and its packed form, with the milliseconds compute_trace took: the complexity
/// example plots that time (attention's own cost) apart from reading the spec's JSON text.
val timed_trace(const spec& s, bool with_layout, layout_form form = layout_form::texts) {
    const auto start = std::chrono::steady_clock::now();
    const trace t = compute_trace(s);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    return packed(t, with_layout, took.count(), form);
}

/// A vision trace as typed JS values: {kind: "vision", stages: [{id, formula, shape, offset, size}], spec: JSON
/// text, data: Float32Array of every stage back to back, bytes, computeMs}. Small: always with its layout.
/// with_spec false leaves out the normalised spec (a.trace: it is written when JS first reads trace.spec,
/// spec_of_trace; writing every number as text was a sixth of a vision a.trace).
val packed_vision(const vision_spec& s, bool with_layout = true, bool with_spec = true) {
    const auto start = std::chrono::steady_clock::now();
    const vision_trace t = compute_vision(s);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    std::vector<float> all;
    json layout = json::array();
    for (const vision_stage& st : t.stages) {
        if (with_layout)  // an example's second call: JS keeps the layout from the first
            layout.push_back({{"id", st.id}, {"formula", vision_formula(s.block, st.id)}, {"shape", st.shape},
                              {"offset", all.size()}, {"size", st.data.size()}});
        all.insert(all.end(), st.data.begin(), st.data.end());
    }
    val out = val::object();
    out.set("kind", std::string("vision"));
    if (with_layout) {  // JSON text, as packed() does
        out.set("stages", layout.dump());
        if (with_spec) out.set("spec", vision_spec_to_json(s).dump());
    }
    out.set("bytes", t.bytes());
    out.set("computeMs", took.count());
    out.set("data", val(emscripten::typed_memory_view(all.size(), all.data())).call<val>("slice"));
    return out;
}

/// The trace of the last spec text asked about, kept: the page asks for one value at a time (hover,
/// animation) about the same spec. A new text drops the old trace before computing the new one.
template <class Trace>
struct last_trace {
    std::string spec;
    std::optional<Trace> trace;
    template <class Compute>
    const Trace& of(const std::string& spec_json, Compute compute) {
        if (!trace || spec_json != spec) {
            trace.reset();
            trace = compute(spec_json);
            spec = spec_json;
        }
        return *trace;
    }
};

/// {text: sentence}, what the explain calls return.
val text_result(const std::string& sentence) {
    val out = val::object();
    out.set("text", sentence);
    return out;
}

template <class F>
val guarded(F&& compute) {
    try {
        return compute();
    } catch (const spec_error& e) {
        return error_result(e.what());
    } catch (const std::bad_alloc&) {
        return error_result("out of memory: the spec is too large for this page's memory.");
    }
}

}  // namespace

/// The last spec a.trace read (a sequence spec, or a vision spec), with the trace's serial number: its
/// normalised JSON is written when JS first reads trace.spec (spec_of_trace), not on every trace (it was a
/// third of a small trace). An older trace's spec is read again from its text (normalised_spec_json).
struct last_spec_read {
    int serial = 0;
    std::shared_ptr<const spec> read;  // shared with the structure cache below: never copied
    std::optional<vision_spec> vision;
};
last_spec_read& last_spec() {
    static last_spec_read last;
    return last;
}

/// A sequence spec read from j: spec_from_json checks the default limits, and interactive adds the
/// playground's lower ones (attn/limits.hpp), so the page never freezes.
std::shared_ptr<spec> read_sequence(const json& j, bool interactive) {
    auto s = std::make_shared<spec>(spec_from_json(j));
    if (interactive) validate(*s, interactive_budget);
    return s;
}

/// a.trace's result for a vision spec, and for a sequence spec it has read and validated.
val vision_result(vision_spec s) {
    val out = packed_vision(s, true, false);
    last_spec_read& last = last_spec();
    last = {last.serial + 1, nullptr, std::move(s)};
    out.set("serial", last.serial);
    return out;
}
val sequence_result(std::shared_ptr<const spec> s) {
    val out = timed_trace(*s, true, layout_form::ids);
    last_spec_read& last = last_spec();
    last = {last.serial + 1, std::move(s), std::nullopt};
    out.set("serial", last.serial);
    return out;
}

/// The floats of a packed field of s, by the name its reader gave it (packed_read::field), when it holds
/// `count` of them; nullptr otherwise (a structure with a field this table does not know is not kept).
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

/// Sequence specs read from packed skeletons, by skeleton text and budget. The page's edits, and a.trace
/// in a loop, send one structure again and again with other numbers: a hit writes the new floats where
/// the first reading put its own and validates again, skipping the JSON parse and the reading. The last
/// eight structures. The spec is shared with last_spec, not copied: a hit changes the spec of an earlier
/// trace, whose serial is then no longer the last (its trace.spec is read again from its own text).
class structure_cache {
public:
    std::shared_ptr<spec> refill(const std::string& skeleton, bool interactive, const float* numbers, std::size_t count) {
        const auto e = std::find_if(entries_.begin(), entries_.end(),
                                    [&](const entry& x) { return x.interactive == interactive && x.skeleton == skeleton; });
        if (e == entries_.end()) return nullptr;
        std::shared_ptr<spec> s = e->read;
        for (const packed_read& f : e->fields) {
            if (f.offset > count || f.count > count - f.offset) return nullptr;  // not with the same skeleton
            std::copy(numbers + f.offset, numbers + f.offset + f.count, packed_field(*s, f.field, f.count));
        }
        try {
            validate(*s);
            if (interactive) validate(*s, interactive_budget);
        } catch (...) {
            entries_.erase(e);  // these numbers made it invalid: not kept with them
            throw;
        }
        return s;
    }
    void keep(const std::string& skeleton, bool interactive, std::shared_ptr<spec> s, std::vector<packed_read> fields) {
        for (const packed_read& f : fields)
            if (!packed_field(*s, f.field, f.count)) return;
        if (entries_.size() == 8) entries_.erase(entries_.begin());
        entries_.push_back({skeleton, interactive, std::move(s), std::move(fields)});
    }

private:
    struct entry {
        std::string skeleton;
        bool interactive;
        std::shared_ptr<spec> read;
        std::vector<packed_read> fields;
    };
    std::vector<entry> entries_;
};
structure_cache& structures() {
    static structure_cache cache;
    return cache;
}

val trace_result(const std::string& spec_json, bool interactive) {
    return guarded([&] {
        const json j = parse_spec_json(spec_json);
        if (is_vision_spec(j)) return vision_result(vision_spec_from_json(j));
        return sequence_result(read_sequence(j, interactive));
    });
}

val cached_text(int id) {
    const std::string* text = layout_texts().text_of(id);
    if (!text) text = axes_texts().text_of(id);
    return text ? val(*text) : val::undefined();
}

val spec_of_trace(int serial) {
    const last_spec_read& last = last_spec();
    if (serial != last.serial) return val::undefined();
    if (last.read) return val(spec_to_json(*last.read).dump());
    if (last.vision) return val(vision_spec_to_json(*last.vision).dump());
    return val::undefined();
}

val normalised_spec_json(const std::string& spec_json) {
    return guarded([&] {
        const json j = parse_spec_json(spec_json);  // either kind, as trace_result reads it
        return text_result((is_vision_spec(j) ? vision_spec_to_json(vision_spec_from_json(j)) : spec_to_json(spec_from_json(j))).dump());
    });
}

val trace_packed_result(const std::string& skeleton_json, std::uintptr_t numbers, std::size_t count, bool interactive) {
    // the numbers stay the caller's (JS frees them after this call); they are copied into the spec here
    const float* floats = reinterpret_cast<const float*>(numbers);
    return guarded([&] {
        if (std::shared_ptr<spec> s = structures().refill(skeleton_json, interactive, floats, count))
            return sequence_result(std::move(s));
        const packed_numbers sent(floats, count);
        packed_reads_log log;
        const json j = parse_spec_json(skeleton_json);
        if (is_vision_spec(j)) return vision_result(vision_spec_from_json(j));
        std::shared_ptr<spec> s = read_sequence(j, interactive);
        structures().keep(skeleton_json, interactive, s, std::move(log.reads));
        return sequence_result(std::move(s));
    });
}


val example_result(const std::string& id, const std::string& variant, bool with_layout) {
    // the example's texts are not repeated here: JS reads them once with example_document_json
    return guarded([&] {
        return example_is_vision(id) ? packed_vision(example_vision_spec(id, variant), with_layout)
                                     : timed_trace(example_spec(id, variant), with_layout);
    });
}

/// The stage a caller names, and a cell counted from 0.
stage_id checked_cell(const std::string& stage, int head, int i, int j) {
    const auto id = stage_from_name(stage);
    if (!id) throw spec_error("\"" + user_text(stage) + "\" is not a stage id.");
    if (head < 0 || i < 0 || j < 0) throw spec_error("head, row and column are counted from 0 and cannot be negative.");
    return *id;
}

val explain_result(const std::string& spec_json, const std::string& stage, int head, int i, int j, bool detail) {
    static last_trace<trace> last;
    return guarded([&] {
        const stage_id id = checked_cell(stage, head, i, j);
        const trace& t = last.of(spec_json, [](const std::string& text) { return compute_trace(parse_spec(text)); });
        return text_result(explain_cell(t, id, std::size_t(head), std::size_t(i), std::size_t(j), detail));
    });
}

val explain_grad_result(const std::string& spec_json, const std::string& stage, int head, int i, int j, bool detail) {
    struct passes {
        loss_spec loss;
        attn::grad_result g;
    };
    static last_trace<passes> last;
    return guarded([&] {
        const stage_id id = checked_cell(stage, head, i, j);
        const passes& p = last.of(spec_json, [](const std::string& text) {
            const auto [s, loss] = parse_grad_spec(text);
            return passes{loss, compute_grad(s, loss)};
        });
        return text_result(explain_grad_cell(p.g, p.loss, id, std::size_t(head), std::size_t(i), std::size_t(j), detail));
    });
}

std::string example_document_json(const std::string& id) {
    return example_about_json(id)["example"].dump();  // callers ask only for ids from examples_json
}

std::string examples_json() {
    json list = json::array();
    for (const std::string& id : example_ids()) {
        const json& doc = example_document(id);
        json variants = json::array();
        std::string same_as_base;  // the variant whose spec is the example's own, if one is
        if (doc.contains("variants"))
            for (const json& v : doc["variants"]) {
                variants.push_back(v["id"]);
                const std::string vid = v["id"].get<std::string>();
                if (same_as_base.empty() && example_spec_json(id, vid) == example_spec_json(id)) same_as_base = vid;
            }
        list.push_back({{"id", id}, {"title", doc["title"]}, {"source", doc["source"]}, {"variants", variants},
                        {"default_variant", same_as_base}});
    }
    return list.dump();
}

std::string stages_json() { return stage_registry_json().dump(); }

// Training runs the page steps between frames: each lives here under a handle until JS deletes it.
namespace {
std::map<int, std::unique_ptr<trainer>> trainers;
int next_trainer = 1;

/// The live trainer of a handle; a disposed one is refused in one sentence.
trainer& trainer_at(int handle) {
    const auto it = trainers.find(handle);
    if (it == trainers.end()) throw spec_error("this trainer was disposed of.");
    return *it->second;
}
}  // namespace

val trainer_create(const std::string& spec_json) {
    return guarded([&] {
        auto [s, settings] = parse_train_spec(spec_json);
        const int handle = next_trainer++;
        trainers.emplace(handle, std::make_unique<trainer>(std::move(s), std::move(settings)));
        val out = val::object();
        out.set("handle", handle);
        out.set("steps", trainers.at(handle)->settings().steps);
        return out;
    });
}

val trainer_step(int handle, int count) {
    return guarded([&] {
        trainer& run = trainer_at(handle);
        std::vector<float> losses;
        val out = val::object();
        try {  // a refused step keeps the steps before it: their losses come back with the refusal
            for (int k = 0; k < count; ++k) losses.push_back(run.step());
        } catch (const spec_error& e) {
            out.set("error", std::string(e.what()));
        }
        out.set("losses", val(emscripten::typed_memory_view(losses.size(), losses.data())).call<val>("slice"));
        out.set("done", run.steps_done());
        return out;
    });
}

val trainer_set_lr(int handle, float lr) {
    return guarded([&] {
        trainer_at(handle).set_learning_rate(lr);
        return text_result("");
    });
}

val trainer_spec(int handle) {
    return guarded([&] { return text_result(spec_to_json(trainer_at(handle).current()).dump()); });
}

void trainer_delete(int handle) { trainers.erase(handle); }

std::string task_ids_json() { return json(training_task_ids()).dump(); }

val task_result(const std::string& id) {
    return guarded([&] { return text_result(training_task_json(id).dump()); });
}

val grad_result_of(const std::string& spec_json) {
    return guarded([&] {
        const auto [s, loss] = parse_grad_spec(spec_json);
        return text_result(grad_to_json(compute_grad(s, loss)).dump());  // JS parses it once (one string, not a tree of vals)
    });
}

std::string vision_stages_json() {
    json rows = json::array();
    for (const vision_stage_info& s : vision_stage_registry())
        rows.push_back({{"id", s.id}, {"symbol", s.symbol}, {"title", s.title.en}, {"title_zh", s.title.zh},
                        {"explain", {{"en", s.explanation.en}, {"zh", s.explanation.zh}}}});
    return rows.dump();
}

val explain_vision_result(const std::string& spec_json, const std::string& stage, int index) {
    static last_trace<vision_trace> last;
    return guarded([&] {
        if (index < 0) throw spec_error("the index of a value is counted from 0 and cannot be negative.");
        const vision_trace& t = last.of(spec_json, [](const std::string& text) { return compute_vision(vision_spec_from_json(parse_spec_json(text))); });
        return text_result(explain_vision_cell(t, stage, std::size_t(index)));
    });
}

std::string limits_json() {
    const auto budget_json = [](const budget& b) {
        return json{{"traceBytes", b.trace_bytes}, {"multiplyAdds", b.multiply_adds}, {"tanhCalls", b.tanh_calls}};
    };
    return json{{"maxSpecBytes", max_spec_bytes},     {"maxSpecValues", max_spec_values},
                {"maxNesting", max_nesting},          {"maxArrayLength", max_array_length},
                {"maxObjectFields", max_object_fields}, {"maxStringBytes", max_string_bytes},
                {"maxPositions", max_positions},      {"maxDModel", max_d_model},
                {"maxHeads", max_heads},              {"maxAdditiveWidth", max_additive_width},
                {"budget", {{"default", budget_json(default_budget)}, {"interactive", budget_json(interactive_budget)}}}}
        .dump();
}

std::size_t heap_in_use() { return mallinfo().uordblks; }

void forward(std::uintptr_t out, std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::uintptr_t scratch,
             int n, int d, bool simd) {
    const std::size_t un = static_cast<std::size_t>(n), ud = static_cast<std::size_t>(d);
    float* scores = reinterpret_cast<float*>(scratch);  // (n, n), then exp (n, n), row_max (n), row_sum (n)
    float* exp = scores + un * un;
    float* row_max = exp + un * un;
    // the weights overwrite the scores in place, so the scratch needs no third n × n block
    attention_forward(reinterpret_cast<float*>(out), scores, exp, scores, row_max, row_max + un,
                      reinterpret_cast<const float*>(q), reinterpret_cast<const float*>(k),
                      reinterpret_cast<const float*>(v), un, ud, simd ? simd_kernels() : scalar_kernels());
}

}  // namespace attn::wasm

// The npm package's a.attention, called as a plain wasm export (web/src/api.js: core._attn_attention):
// an Embind call costs microseconds, as much as the whole attention of 16 rows. q, k and v lie one
// after another at qkv (n_q, n_k, n_k rows of d). Returns −1, or the index in qkv of the first value
// that is not finite (nothing computed then): one pass here instead of a slow one in JavaScript. The
// other shapes were checked in JS, where the sentences name the arguments.
namespace {
/// The index of the first value that is ±∞ or NaN (all exponent bits set), or −1. Blocks of 256 are
/// tested without an early exit, which the compiler vectorises, and only a block that holds one is
/// searched: a std::isfinite loop took 120–150 µs for n = 512, d = 64 (4% of the whole call), this 20.
long first_not_finite(const float* values, std::size_t count) {
    constexpr std::size_t block = 256;
    for (std::size_t begin = 0; begin < count; begin += block) {
        const std::size_t end = std::min(count, begin + block);
        std::uint32_t bad = 0;
        for (std::size_t i = begin; i < end; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, values + i, sizeof bits);
            bad |= (bits & 0x7f800000u) == 0x7f800000u;
        }
        if (bad)
            for (std::size_t i = begin; i < end; ++i)
                if (!std::isfinite(values[i])) return long(i);
    }
    return -1;
}
}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE int attn_attention(float* out, const float* qkv, int n_q, int n_k, int d, int heads, int causal) {
    const std::size_t nq = std::size_t(n_q), nk = std::size_t(n_k), ud = std::size_t(d), total = (nq + 2 * nk) * ud;
    if (const long bad = first_not_finite(qkv, total); bad >= 0) return int(bad);
    // split between threads in the wasm-threads module (streaming_threads.cpp); one thread elsewhere
    attn::attention_streaming_threads(out, qkv, qkv + nq * ud, qkv + (nq + nk) * ud, nq, nk, ud, std::size_t(heads),
                                      causal != 0, attn::streaming_max_threads());
    return -1;
}

// a.attentionBytes: what one a.attention call of these sizes holds in the wasm heap.
extern "C" EMSCRIPTEN_KEEPALIVE double attn_attention_bytes(int n_q, int n_k, int d, int heads) {
    const std::size_t nq = std::size_t(n_q), nk = std::size_t(n_k), ud = std::size_t(d);
    const std::size_t threads = attn::streaming_threads_for(nq, nk, ud, attn::streaming_max_threads());
    return double(attn::attention_streaming_bytes(nq, nk, ud, std::size_t(heads), threads));
}

// a.threads: how many threads a large a.attention call uses (1 but in the wasm-threads module).
extern "C" EMSCRIPTEN_KEEPALIVE int attn_max_threads() {
    return int(attn::streaming_max_threads());
}
