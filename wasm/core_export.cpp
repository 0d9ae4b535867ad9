// The core's plain exports beside its traces (trace_export.cpp): the examples, the registry, the field
// tables, the limits and a trace's spec (a cell's arithmetic is the explain part's: explain_export.cpp;
// a.attention's fast path the fast part's: fast_path.cpp).
// Like the parts', each answers JSON text (or a sentence) or null, and then attn_error() is the
// refusal's sentence (text_answer.hpp): one way across for every module, no Embind.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <optional>

#include "attn/attn.hpp"
#include "attn/spec_fields.hpp"
#include "text_answer.hpp"
#include "trace_paths.hpp"
#include "trace_store.hpp"

namespace {

using namespace attn;
using attn::wasm::answer;
using attn::wasm::text_of;

}  // namespace

// The normalised spec of a trace by its handle as JSON text, while its spec is kept; else null.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_spec_of_trace(int serial) {
    const wasm::spec_store::entry* kept = wasm::kept_specs().find(serial);
    if (!kept || !kept->read) return nullptr;
    return answer([&] { return spec_to_json(*kept->read).dump(); });
}

// The normalised spec of a sequence spec's JSON text (a trace whose spec is no longer kept; the vision part
// has its own); counted (a.tracePaths().specText).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_normalised_spec(const char* text, std::size_t length) {
    ++wasm::path_counts.spec_text;
    return answer([&] { return spec_to_json(parse_spec(text_of(text, length))).dump(); });
}

// [{id, kind: "sequence" | "vision", title: {en, zh}, source: {en, zh}, variants: [ids], default_variant}] in
// docs/spec.md order; default_variant names the variant whose spec is the example's own ("" if none).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_examples() {
    return answer([] {
        json list = json::array();
        for (const std::string& id : example_ids()) {
            const json& doc = example_document(id);
            json variants = json::array();
            std::string same_as_base;
            if (doc.contains("variants"))
                for (const json& v : doc["variants"]) {
                    variants.push_back(v["id"]);
                    const std::string vid = v["id"].get<std::string>();
                    if (same_as_base.empty() && example_spec_json(id, vid) == example_spec_json(id)) same_as_base = vid;
                }
            list.push_back({{"id", id}, {"kind", example_is_vision(id) ? "vision" : "sequence"}, {"title", doc["title"]},
                            {"source", doc["source"]}, {"variants", variants}, {"default_variant", same_as_base}});
        }
        return list.dump();
    });
}

// An example's document (texts, variants) without its spec.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_example_document(const char* id, std::size_t length) {
    return answer([&] { return example_about_json(text_of(id, length))["example"].dump(); });
}

// An example's spec as JSON: what a.example traces (asked once per example and variant), in the core or,
// for a vision example, in the vision part.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_example_spec(const char* id, std::size_t length, const char* variant, std::size_t variant_length) {
    return answer([&] { return example_spec_json(text_of(id, length), text_of(variant, variant_length)).dump(); });
}

// The stage registry (stage_registry_json), in trace order.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_stages() {
    return answer([] { return stage_registry_json().dump(); });
}

// The sequence spec's field tables (attn/spec_fields.hpp), for a.schema().
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_schema() {
    return answer([] { return sequence_schema_json().dump(); });
}

// Every documented limit of attn/limits.hpp, camelCase, for the package's `limits`.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_limits() {
    return answer([] {
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
    });
}
