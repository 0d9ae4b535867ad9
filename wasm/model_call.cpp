// Models you bring, in their own module: one entry, attn_call(operation, request, payload), for every
// operation on a model folder's model (docs/models-you-bring.md). The request and the answer are JSON text; a
// trace's numbers stay in the module's memory, a buffer per stage, that JS reads in place until the next trace,
// step or free of any model (each stage's "at" is its index in HEAPF32; web/src/model_folder.js copies the unread
// ones out before those three: an operation that frees them must be named there too); a refusal is null with its
// sentence in attn_error, as every export's (text_answer.hpp).
// The files stay with JavaScript (the page's chosen files, the npm package's bytes): the core reads each range
// it needs through attn_read_file, so a header is checked before anything behind it is read and the weights
// are copied once, into the model.
//
// [SECTION] reading the files JavaScript holds
// [SECTION] the operations
// [SECTION] the table (the export is one_call.cpp)
#include <emscripten/em_js.h>
#include <emscripten/heap.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "attn/hf.hpp"
#include "attn/hf_calls.hpp"
#include "attn/json.hpp"
#include "attn/streaming.hpp"
#include "one_call.hpp"

// [SECTION] reading the files JavaScript holds

// Module.readModelFile(index, offset, n) gives the bytes (a Uint8Array of n) or null when it cannot read them;
// nothing thrown crosses back into C++ (an exception through wasm frames would skip the destructors).
EM_JS(int, attn_read_file, (int index, double offset, double n, std::uint8_t* out), {
    const bytes = Module['readModelFile'](index, offset, n);
    if (!bytes || bytes.length !== n) return 0;
    HEAPU8.set(bytes, out);
    return 1;
});

namespace {

using attn::json;
using attn::spec_error;
namespace hf = attn::hf;

extern "C" double attn_heap_in_use();  // answer_common.cpp

// Room left beside the weights for a trace and the work of a pass, when a model's size is checked.
constexpr std::uint64_t room_for_traces = 320ull << 20;
// A trace keeps every stage of every layer, in the memory the page has left: at most 2/3 of what is free beside
// the weights and the models (the rest for the pass's own work: its logits, one layer's steps), and never more
// than the CLI's 512 million. Refused before it is run.
double most_trace_floats() {
    const double left = static_cast<double>(emscripten_get_heap_max()) - attn_heap_in_use();
    return std::min(512.0 * 1024 * 1024, std::max(0.0, left) * 2.0 / 3.0 / sizeof(float));
}

std::map<int, std::unique_ptr<hf::model>> models;
int next_handle = 1;
std::vector<std::vector<float>> kept;  // the last trace's stages, read by JS in place until the next trace, step or free


hf::model& find(const json& request) {
    const auto it = models.find(request.value("handle", 0));
    if (it == models.end()) throw spec_error("this model was disposed of.");
    return *it->second;
}

using attn::wasm::number_of;
using attn::wasm::payload;
using attn::wasm::text_of;

/// The options of a draw, checked as the CLI's flags are.
attn::lm::generate_options draw_of(const json& r, const hf::model& m) {
    attn::lm::generate_options o;
    o.temperature = number_of(r, "temperature", 0.8, 0, 10, false);
    o.top_k = static_cast<int>(number_of(r, "top_k", 0, 0, m.c.n_vocab, true));
    o.top_p = number_of(r, "top_p", 1, 1e-6, 1, false);
    o.seed = static_cast<std::uint64_t>(number_of(r, "seed", 0, 0, 9007199254740991.0, true));
    o.n = static_cast<int>(number_of(r, "n", 20, 1, m.c.n_ctx, true));
    return o;
}

std::string megabytes(std::uint64_t bytes) { return std::to_string((bytes + (1u << 19)) >> 20) + " MB"; }

// [SECTION] the operations

/// {"files": [{"name", "size"}], "where"} → {"handle", "about", "threads"} (how many threads its passes share: 1 but in
/// the wasm-threads twin): refused, with its size and the page's limit, when
/// the weights would not fit in this page's memory, before any weight is read.
json open(const json& request) {
    const auto list = request.find("files");
    if (list == request.end() || !list->is_array()) throw spec_error("open needs \"files\": [{\"name\", \"size\"}].");
    std::vector<std::pair<std::string, std::uint64_t>> sizes;
    for (const json& f : *list) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("size") || !f["size"].is_number_unsigned())
            throw spec_error("each file is {\"name\": a string, \"size\": its bytes}.");
        sizes.emplace_back(f["name"].get<std::string>(), f["size"].get<std::uint64_t>());
    }
    const std::string where = request.value("where", std::string("the files given"));
    const auto reader = hf::held_elsewhere(std::move(sizes), where, [](std::size_t i, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) {
        return attn_read_file(static_cast<int>(i), static_cast<double>(offset), static_cast<double>(n), out) == 1;
    });
    auto m = std::make_unique<hf::model>(hf::load(*reader, [](const hf::model& h) {
        const std::uint64_t bytes = h.weight_bytes();  // from the headers
        const std::uint64_t limit = emscripten_get_heap_max(), used = static_cast<std::uint64_t>(attn_heap_in_use());
        if (bytes + room_for_traces + used > limit)
            throw spec_error("the model's weights take " + megabytes(bytes) + ", but this page's memory holds at most " + megabytes(limit) + " (" +
                             megabytes(used) + " in use, and " + megabytes(room_for_traces) +
                             " kept for its traces): open a smaller model, or one in 16-bit weights.");
    }));
    const int handle = next_handle++;
    json about = hf::about(*m);
    models[handle] = std::move(m);
    return {{"handle", handle}, {"about", about}, {"threads", attn::streaming_max_threads()}};
}

/// How a request asks for the likeliest next tokens: its k and draw (the model's own distribution unless a sample,
/// or the request's temperature, top_k and top_p), read before the pass, so a bad one is refused before it runs.
struct next_args {
    attn::lm::generate_options draw;
    int k;
};
next_args next_args_of(const json& request, const hf::model& m, bool sample) {
    next_args a{draw_of(request, m), static_cast<int>(number_of(request, "k", 10, 1, m.c.n_vocab, true))};
    if (!sample && !request.contains("temperature")) a.draw.temperature = 1;
    return a;
}

/// {"handle", "text", "k"?} → {"tokens", "ids", "stages": [{"id", "layer", "shape", "at"}], "next"?}: every stage of
/// every layer (with step, the last token's pass through the key/value cache the others filled); with k, the k
/// likeliest next tokens too, from the same pass (a page that shows both runs the model once).
json trace(const json& request, bool step) {
    const hf::model& m = find(request);
    const std::vector<int> ids = hf::ids_to_run(m, text_of(request, "text"));
    const bool with_next = request.contains("k");
    const next_args asked = with_next ? next_args_of(request, m, false) : next_args{};
    std::vector<std::vector<float>>().swap(kept);  // the last trace's numbers are given back before the next is made
    hf::check_trace_size(m, ids.size(), most_trace_floats());
    hf::kv_cache cache;
    if (step && ids.size() > 1) hf::forward(m, std::vector<int>(ids.begin(), ids.end() - 1), cache);
    json stages = json::array();
    const std::vector<float> logits = hf::forward(m, step ? std::vector<int>{ids.back()} : ids, cache, [&](const hf::stage_view& s) {
        std::size_t count = 1;
        for (const std::size_t n : s.shape) count *= n;
        if (s.spare) kept.emplace_back().swap(*s.spare);  // the pass is done with it: taken, not copied
        else kept.emplace_back(s.data, s.data + count);
        stages.push_back({{"id", s.id}, {"layer", s.layer < 0 ? json(nullptr) : json(s.layer)}, {"shape", s.shape},
                          {"at", reinterpret_cast<std::uintptr_t>(kept.back().data()) / sizeof(float)}});
    });
    json answer = {{"tokens", m.tok.readable(ids)}, {"ids", ids}, {"stages", stages}};
    if (with_next) answer["next"] = hf::next_tokens(m, logits, asked.k, asked.draw);
    return answer;
}

json next(const json& request, bool sample) {
    const hf::model& m = find(request);
    const std::vector<int> ids = hf::ids_to_run(m, text_of(request, "text"));
    const next_args a = next_args_of(request, m, sample);
    hf::kv_cache cache;
    const std::vector<float> logits = hf::forward(m, ids, cache);
    return sample ? hf::sample_tokens(m, logits, a.k, a.draw) : hf::next_tokens(m, logits, a.k, a.draw);
}

json generate(const json& request) {
    const hf::model& m = find(request);
    const attn::lm::generate_options o = draw_of(request, m);
    const std::vector<int> ids = hf::ids_to_run(m, text_of(request, "prompt"), o.n);
    hf::kv_cache cache;
    const std::vector<int> made = hf::generate(m, hf::forward(m, ids, cache), cache, o);
    std::string bytes;
    for (const int id : made) bytes += m.tok.bytes_of(id);
    // the text as the tokens' bytes make it, a character cut at the end replaced (JSON text is valid UTF-8)
    return {{"ids", made}, {"tokens", m.tok.readable(made)}, {"text", json::parse(json(bytes).dump(-1, ' ', false, json::error_handler_t::replace))}};
}


// [SECTION] the table (the export is one_call.cpp)

/// The operations, by name: the one table JavaScript's calls are checked against (attn_call("operations")).
const attn::wasm::operation_table& operations() {
    static const attn::wasm::operation_table table = {
        {"open", [](const json& r, const payload&) { return open(r); }},
        {"tokenize", [](const json& r, const payload&) { return hf::tokenized(find(r).tok, find(r).tok.encode(text_of(r, "text"))); }},
        {"trace", [](const json& r, const payload&) { return trace(r, false); }},
        {"step", [](const json& r, const payload&) { return trace(r, true); }},
        {"next", [](const json& r, const payload&) { return next(r, false); }},
        {"sample", [](const json& r, const payload&) { return next(r, true); }},
        {"generate", [](const json& r, const payload&) { return generate(r); }},
        {"stages", [](const json& r, const payload&) {  // what each stage id of the model's trace is, in the page's words
             json out = json::object();
             for (const auto& id : r.at("ids")) out[id.get<std::string>()] = hf::stage_facts(id.get<std::string>(), find(r).c.arch);
             return out;
         }},
        {"about", [](const json& r, const payload&) { return hf::about(find(r)); }},
        {"layer_spec", [](const json& r, const payload&) {  // a GPT-2 layer's attention as a spec of the playground's stepper
             const hf::model& m = find(r);
             const std::vector<int> ids = hf::ids_to_run(m, text_of(r, "text"));
             hf::check_trace_size(m, ids.size(), most_trace_floats());  // the pass runs with its tap: every row's logits
             const int layer = static_cast<int>(number_of(r, "layer", 0, 0, m.c.n_layer - 1, true));
             return attn::spec_to_json(hf::layer_spec(m, ids, layer));
         }},
        {"free", [](const json& r, const payload&) {
             find(r);
             models.erase(r.value("handle", 0));
             std::vector<std::vector<float>>().swap(kept);
             return json::object();
         }},
        {"limits", [](const json&, const payload&) {
             return json{{"heap_max_bytes", emscripten_get_heap_max()}, {"heap_in_use_bytes", attn_heap_in_use()},
                         {"room_for_traces_bytes", room_for_traces}, {"most_trace_floats", most_trace_floats()}};
         }},
    };
    return table;
}

}  // namespace

// in the unnamed namespace above, the table's calls find this file's operations before attn's names (attn::trace)
const attn::wasm::operation_table& attn::wasm::module_operations() { return operations(); }
const char* const attn::wasm::module_out_of_memory = "out of memory: the model does not fit in this page's memory.";
