#include "convert.hpp"

#include <malloc.h>

#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include <emscripten/val.h>

#include "attn/attn.hpp"
#include "attn/spec_fields.hpp"
#include "trace_store.hpp"

namespace attn::wasm {
namespace {

using emscripten::val;

val error_result(const char* sentence) {
    val out = val::object();
    out.set("error", std::string(sentence));
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

val cached_text(int id) {
    const std::string* text = layout_texts().text_of(id);
    if (!text) text = axes_texts().text_of(id);
    return text ? val(*text) : val::undefined();
}

val spec_of_trace(int serial) {
    const last_spec_read& last = last_spec();
    if (serial != last.serial) return val::undefined();
    if (last.read) return val(spec_to_json(*last.read).dump());
    return val::undefined();
}

val normalised_spec_json(const std::string& spec_json) {
    return guarded([&] {
        return text_result(spec_to_json(parse_spec(spec_json)).dump());  // a sequence spec: the vision part has its own
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
        list.push_back({{"id", id}, {"kind", example_is_vision(id) ? "vision" : "sequence"}, {"title", doc["title"]}, {"source", doc["source"]}, {"variants", variants},
                        {"default_variant", same_as_base}});
    }
    return list.dump();
}

std::string stages_json() { return stage_registry_json().dump(); }

std::string schema_json() { return sequence_schema_json().dump(); }

val example_spec_text(const std::string& id, const std::string& variant) {
    return guarded([&] { return text_result(example_spec_json(id, variant).dump()); });
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
                {"maxAttentionBytes", max_attention_bytes}, {"maxAttentionWork", max_attention_work},
                {"maxAttentionRows", max_attention_rows},
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
