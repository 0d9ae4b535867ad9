// The language model's module (web/dist/lm): loaded only when a page or a program asks for a model, so
// the sequence stepper's download does not grow. One entry, attn_call(operation, request, payload)
// (one_call.hpp, as the model folders' module has it): every operation's request is a JSON object, its answer
// JSON text (or null, with the refusal's sentence in attn_error), and a trace's numbers stay in the module's
// memory, which JS reads with a typed array until the next trace (each stage's "at" is its index in HEAPF32).
//
// [SECTION] the models and the last trace kept here
// [SECTION] operations: the registry and limits, loading and freeing
// [SECTION] operations: a text's trace, its layers, lines and attribution
// [SECTION] operations: generating, head scores, training, saving
// [SECTION] the table (the export is one_call.cpp)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "attn/json.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "one_call.hpp"

// [SECTION] the models and the last trace kept here

namespace {

using namespace attn::lm;

std::map<int, std::unique_ptr<model>> models;
std::map<int, std::unique_ptr<trainer>> trainers;
std::map<int, std::vector<head_score>> probe_scores;  // each model's scores on its standard probes, until it trains
int next_handle = 1;
std::vector<std::uint8_t> last_file;  // a saved file's bytes, read by JS in place
model_trace last_trace;          // the last trace's stages, which JS reads in place
std::pair<int, std::string> last_trace_of;  // its model's handle and its text (the trace operation's only)
std::vector<std::pair<std::string, int>> stage_keys;  // interned (stage id, layer or −1)
std::map<std::pair<std::string, int>, std::uint32_t> stage_index;

model& find(int handle) {
    const auto it = models.find(handle);
    if (it == models.end()) throw attn::spec_error("this model was disposed of.");
    return *it->second;
}

using attn::json;
using attn::wasm::number_of;
using attn::wasm::payload;
using attn::wasm::text_of;

int handle_of(const json& r) { return static_cast<int>(number_of(r, "handle", 0, 0, 2147483647, true)); }
model& find(const json& r) { return find(handle_of(r)); }

/// Refuses a corpus or training text over the bound "corpus_bytes" (lm.js refuses it before copying it here).
void check_corpus_bytes(std::size_t len, const char* what) {
    const double most = lm_bound_of("corpus_bytes").hi;
    if (static_cast<double>(len) > most)
        throw attn::spec_error(std::string(what) + " is " + std::to_string(len) + " bytes, over the limit of " +
                               std::to_string(static_cast<long long>(most) >> 20) + " MiB.");
}

/// A stage's (id, layer) as a small number JS looks up once (stage_name): a trace's layout then names each stage by
/// it, not by the same titles in JSON on every keystroke.
std::uint32_t intern(const stage& s) {
    const std::pair<std::string, int> key{s.id, s.layer ? *s.layer : -1};
    const auto [it, added] = stage_index.try_emplace(key, static_cast<std::uint32_t>(stage_keys.size()));
    if (added) stage_keys.push_back(key);
    return it->second;
}

/// A trace's layout: {tokens, ids, unknown, stages: [[name, at, shape…]]} — each stage's numbers stay where the core
/// wrote them, in last_trace, at HEAPF32[at …] until the next trace (JS copies them out).
json layout_of(model_trace t) {
    last_trace = std::move(t);
    json stages = json::array();
    for (const stage& s : last_trace.stages) {
        json row = {intern(s), reinterpret_cast<std::uintptr_t>(s.data.data()) / sizeof(float)};
        for (const std::size_t n : s.shape) row.push_back(n);
        stages.push_back(std::move(row));
    }
    const tokens& k = last_trace.tokens;
    return json{{"tokens", k.chars}, {"ids", k.ids}, {"unknown", k.unknown}, {"stages", stages}};
}

/// f(model, the trace of the request's text): the last trace operation's when it was of this model and text (the page asks
/// for the text's attribution, captions and layer spec right after tracing it), else a new one.
template <class F>
auto with_trace(const json& r, F f) {
    const int handle = handle_of(r);
    const std::string text = text_of(r, "text");
    const model& m = find(handle);
    if (!last_trace.stages.empty() && last_trace_of.first == handle && last_trace_of.second == text) return f(m, last_trace);
    const model_trace t = trace(m, text);
    return f(m, t);
}

/// Keeps a model under a new handle: {"handle", "about" (with its vocabulary)}.
json keep(std::unique_ptr<model> m) {
    const int h = next_handle++;
    json about = about_json(*m);
    about["vocab"] = m->vocab;
    models[h] = std::move(m);
    return json{{"handle", h}, {"about", about}};
}

/// The options of a draw, refused as the CLI refuses them.
generate_options draw_options(const json& r) {
    generate_options o;
    o.temperature = number_of(r, "temperature", 0.8, -1e300, 1e300, false);
    o.top_k = static_cast<int>(number_of(r, "top_k", 0, 0, 65536, true));
    o.top_p = number_of(r, "top_p", 1, -1e300, 1e300, false);
    o.seed = static_cast<std::uint64_t>(number_of(r, "seed", 0, 0, 9007199254740991.0, true));
    return o;
}

/// A whole number of the request (k, n, layer, head, i, j) within int's range; the core refuses what it cannot use.
int whole_of(const json& r, const char* key, double fallback) { return static_cast<int>(number_of(r, key, fallback, -1e9, 1e9, true)); }

/// Gives the last trace's buffers back before the next is made, so two never sit in the heap at once.
void forget_last_trace() {
    last_trace = model_trace{};
    last_trace_of = {};
}

// [SECTION] operations: the registry and limits, loading and freeing

/// {index} → {id, layer, symbol, title: {en, zh}, scale} of an interned stage name, from the model's stage registry
/// (model_stage_order: the model's own rows and each layer's attention rows alike).
json stage_name(const json& r) {
    if (!r.contains("index")) throw attn::spec_error("the request needs \"index\", a number.");
    const double index = number_of(r, "index", 0, 0, 4294967295.0, true);
    if (index >= static_cast<double>(stage_keys.size())) throw attn::spec_error("no such stage name.");
    const auto& [id, layer] = stage_keys[static_cast<std::size_t>(index)];
    for (const model_stage_row& row : model_stage_order()) {
        if (id != row.id()) continue;
        const json facts = model_stage_json(row);
        return json{{"id", id}, {"layer", layer < 0 ? json(nullptr) : json(layer)}, {"symbol", facts["symbol"]},
                    {"title", {{"en", facts["title"]}, {"zh", facts["title_zh"]}}}, {"scale", facts["scale"]}};
    }
    throw attn::spec_error("internal: stage " + id + " is not in the model's stage registry.");
}

/// The bounds of the model (lm_bounds): {name: [lo, hi]}, whole numbers written whole, which lm.js checks arguments
/// (and the sizes of texts and files, before they are copied into this heap) against.
json limits() {
    const auto number = [](double v) { return v == std::floor(v) ? json(static_cast<std::int64_t>(v)) : json(v); };
    json out = json::object();
    for (const lm_bound& b : lm_bounds()) out[b.name] = {number(b.lo), number(b.hi)};
    return out;
}

/**
 * {n_layer, n_head, d_model, d_mlp, n_ctx, vocab, seed} and the corpus as the payload → {"handle", "about", "train":
 * the training entries, to give the trainer}: a model with fresh weights, to train in the page (the induction
 * lesson). The corpus is fortune-format (entries between lines of "%"), split as the shipped models' corpora are
 * (docs/model.md); the vocabulary is the training entries' most frequent characters, the probe of the head scores
 * the held-out entries' start.
 */
json fresh(const json& j, const payload& corpus) {
    config c;
    c.n_layer = whole_of(j, "n_layer", 2);
    c.n_head = whole_of(j, "n_head", 4);
    c.d_model = whole_of(j, "d_model", 64);
    c.d_mlp = whole_of(j, "d_mlp", 256);
    c.n_ctx = whole_of(j, "n_ctx", 32);
    const int vocab = whole_of(j, "vocab", 128);
    validate_config(c);
    check_bound("vocab", vocab);
    check_corpus_bytes(corpus.size, "the corpus");
    check_cost(fresh_cost(c, static_cast<std::size_t>(vocab), corpus.size), "a fresh model on " + std::to_string(corpus.size) + " bytes of corpus",
               "give a smaller model or corpus");
    const corpus_split split = split_fortunes(corpus.text());
    if (split.train.size() < 4096) throw attn::spec_error("the lesson's text has too few characters to train on (fewer than 4096).");
    const auto seed = static_cast<std::uint64_t>(number_of(j, "seed", 1, 0, 9007199254740991.0, true));
    auto m = std::make_unique<model>(make_model(c, build_vocab(split.train, static_cast<std::size_t>(vocab)), seed));
    for (char32_t ch : split.heldout.substr(0, 1024)) m->probe += encode_utf8(ch);
    std::string train;
    for (char32_t ch : split.train) train += encode_utf8(ch);
    json out = keep(std::move(m));
    out["train"] = train;
    return out;
}

json free_model(const json& r) {
    const int handle = handle_of(r);
    models.erase(handle);
    probe_scores.erase(handle);
    for (auto it = trainers.begin(); it != trainers.end();) it = it->first / 1000000 == handle ? trainers.erase(it) : std::next(it);
    return json::object();
}

// [SECTION] operations: a text's trace, its layers, lines and attribution

/// {handle, text} → the trace's layout (layout_of); with step, one generation step through the key/value cache
/// (step_trace), laid out as a trace.
json trace_of(const json& r, bool step) {
    forget_last_trace();
    const int handle = handle_of(r);
    const std::string text = text_of(r, "text");
    json out = layout_of(step ? step_trace(find(handle), text) : trace(find(handle), text));
    if (!step) last_trace_of = {handle, text};
    return out;
}

/// {handle, text, cell: {stage, layer, head, i, j}} → {text}: the arithmetic of cell (i, j) of a stage (layer and head
/// 0-based; layer −1 for a global stage).
json explain(const json& r) {
    const model& m = find(r);
    const double i = number_of(r, "i", 0, 0, 1e6, true), j = number_of(r, "j", 0, 0, 1e6, true);
    const int layer = whole_of(r, "layer", -1), head = whole_of(r, "head", 0);
    const std::string id = text_of(r, "stage");
    const std::optional<int> l = layer < 0 ? std::nullopt : std::optional<int>(layer);
    return with_trace(r, [&](const model&, const model_trace& t) {
        return json{{"text", explain_model_cell(m, t, id, l, static_cast<std::size_t>(i), static_cast<std::size_t>(j),
                                                static_cast<std::size_t>(std::max(head, 0)))}};
    });
}

/// {handle, text} → [target per character]: the line-alignment pattern of text (the key at the same place in the
/// previous line, or −1), as the head scores measure it.
json line_targets(const json& r) {
    const model& m = find(r);
    const std::string text = text_of(r, "text");
    tokenize(m, text, static_cast<std::size_t>(m.config.n_ctx));  // the same refusals as a trace
    return json(line_alignment_targets(decode_utf8(text, "text")));
}

json candidates(const std::vector<candidate>& list) {
    json out = json::array();
    for (const candidate& c : list) out.push_back({{"char", c.ch}, {"p", attn::shortest_decimal(c.p)}});
    return out;
}

/// {handle, text, k, and temperature, top_k, top_p when the distribution is sampling's} → [{char, p}]: the k
/// likeliest next characters, as attn lm next.
json next_chars(const json& r) {
    const model& m = find(r);
    const std::string text = text_of(r, "text");
    const int k = whole_of(r, "k", 10);
    if (!r.contains("temperature") && !r.contains("top_k") && !r.contains("top_p")) return candidates(next(m, text, k));
    const generate_options o = draw_options(r);
    return candidates(likeliest_of(m, sample_next(m, text, o).top_p, k));
}

// [SECTION] operations: generating, head scores, training, saving

/// {handle, text, n, temperature, seed, top_k, top_p} → {text}: the prompt's continuation.
json generate_text(const json& r) {
    generate_options o = draw_options(r);
    o.n = whole_of(r, "n", 100);
    return json{{"text", generate(find(r), text_of(r, "text"), o)}};
}

/// {handle, text} → heads_json: every head's scores on the model's standard probes (kept per model until its weights
/// change) and, when text is not empty, on that text (from its trace).
json heads(const json& r) {
    const model& m = find(r);
    const int handle = handle_of(r);
    const std::string text = text_of(r, "text");
    // a model without a probe of its own (a file whose metadata has none) is measured on the text
    if (m.probe.empty()) {
        const std::vector<head_score> probe = head_scores(m, text);
        return with_trace(r, [&](const model&, const model_trace& t) {
            const std::vector<text_head_score> on_text = text_head_scores(m, t);
            return heads_json(probe, &on_text);
        });
    }
    auto kept = probe_scores.find(handle);
    if (kept == probe_scores.end()) kept = probe_scores.emplace(handle, head_scores(m)).first;
    if (text.empty()) return heads_json(kept->second, nullptr);
    const std::vector<head_score> probe = kept->second;
    return with_trace(r, [&](const model&, const model_trace& t) {
        const std::vector<text_head_score> on_text = text_head_scores(m, t);
        return heads_json(probe, &on_text);
    });
}

/// {handle, steps, batch, lr, warmup, repeat_fraction, seed} and the training text as the payload → {"trainer",
/// "steps_per_call": how many steps one call of lm.js's step(count) may take within the bound "work"}.
json make_trainer(const json& j, const payload& text) {
    const int handle = handle_of(j);
    model& m = find(handle);
    check_corpus_bytes(text.size, "the training text");
    train_settings s;
    s.steps = whole_of(j, "steps", 100);
    s.batch = whole_of(j, "batch", 8);
    s.lr = number_of(j, "lr", 1e-3, -1e300, 1e300, false);
    s.warmup = whole_of(j, "warmup", 10);
    s.repeat_fraction = number_of(j, "repeat_fraction", 0.0, -1e300, 1e300, false);
    s.seed = static_cast<std::uint64_t>(number_of(j, "seed", 1, 0, 9007199254740991.0, true));
    const std::u32string chars = decode_utf8(text.text(), "the training text");
    if (chars.size() < static_cast<std::size_t>(m.config.n_ctx) + 2 && s.repeat_fraction < 1)
        throw attn::spec_error("the training text has " + std::to_string(chars.size()) + " characters but needs more than n_ctx + 1 (" +
                               std::to_string(m.config.n_ctx + 1) + ").");
    const int id = handle * 1000000 + next_handle++;
    auto run = std::make_unique<trainer>(m, to_ids(m, chars), s);  // refuses a step over one call's budget
    const int per_call = run->steps_per_call();
    trainers[id] = std::move(run);
    return json{{"trainer", id}, {"steps_per_call", per_call}};
}

int trainer_of(const json& r) { return static_cast<int>(number_of(r, "trainer", 0, 0, 2147483647, true)); }

/// {trainer} → {"step", "loss"}: one training step (the batch's loss before the update, nats per character); a loss or
/// gradient that overflowed is refused before the update, the weights kept.
json train_step(const json& r) {
    const int id = trainer_of(r);
    const auto it = trainers.find(id);
    if (it == trainers.end()) throw attn::spec_error("this training run was disposed of.");
    last_trace_of = {};  // the weights change: the last trace (JS still reads its stages) is no longer theirs
    probe_scores.erase(id / 1000000);  // nor are the head scores kept
    const double loss = it->second->step();
    return json{{"step", it->second->steps_done()}, {"loss", loss}};
}

/// {handle} → {"bytes", "at"}: the model's weights as a safetensors file (f32), e.g. after training, at HEAPU8[at …]
/// until the next save.
json save(const json& r) {
    last_file = write_safetensors(find(r), dtype::f32);
    return json{{"bytes", last_file.size()}, {"at", reinterpret_cast<std::uintptr_t>(last_file.data())}};
}

// [SECTION] the table (the export is one_call.cpp)


/// The operations, by name: the one table lm.js's calls and the types are checked against (attn_call("operations")).
const attn::wasm::operation_table& operations() {
    using request = const json&;
    static const attn::wasm::operation_table table = {
        {"limits", [](request, const payload&) { return limits(); }},
        {"stages", [](request, const payload&) { return model_stage_registry_json(); }},
        {"stage_name", [](request r, const payload&) { return stage_name(r); }},
        {"load", [](request, const payload& file) { return keep(std::make_unique<model>(read_safetensors(file.data, file.size))); }},
        {"fresh", fresh},
        {"free", [](request r, const payload&) { return free_model(r); }},
        {"trace", [](request r, const payload&) { return trace_of(r, false); }},
        {"step", [](request r, const payload&) { return trace_of(r, true); }},
        {"layer_spec", [](request r, const payload&) {  // the layer's attention as a spec of the playground's stepper
             const int layer = whole_of(r, "layer", 0);
             return with_trace(r, [&](const model& m, const model_trace& t) { return attn::spec_to_json(layer_spec_of(m, t, layer)); });
         }},
        {"layer_grad", [](request r, const payload&) {  // the layer with the model's own loss above it (layer_grad_json)
             const int layer = whole_of(r, "layer", 0);
             // the trace and the gradient together, before the trace is made (as attn lm layer-grad checks them)
             check_text_cost(find(r), count_chars(text_of(r, "text"), "the text"), "a layer's gradient", layer_grad_cost);
             return with_trace(r, [&](const model& m, const model_trace& t) { return layer_grad_json(layer_grad_of(m, t, layer)); });
         }},
        {"line_targets", [](request r, const payload&) { return line_targets(r); }},
        {"explain", [](request r, const payload&) { return explain(r); }},
        {"attribute", [](request r, const payload&) {  // which parts pushed each of the k likeliest next characters
             const int k = whole_of(r, "k", 5);
             return with_trace(r, [&](const model& m, const model_trace& t) { return attribution_json(m, t, k); });
         }},
        {"lens", [](request r, const payload&) {  // what each layer predicts at the text's last position
             const int k = whole_of(r, "k", 5);
             return with_trace(r, [&](const model& m, const model_trace& t) { return lens_json(m, t, k); });
         }},
        {"next", [](request r, const payload&) { return next_chars(r); }},
        {"sample", [](request r, const payload&) {  // the distribution after the draw's options, and the seed's draw
             const generate_options o = draw_options(r);
             const int k = whole_of(r, "k", 10);
             return with_trace(r, [&](const model& m, const model_trace& t) { return sampling_json(m, sample_of_trace(m, t, o), k); });
         }},
        {"generate", [](request r, const payload&) { return generate_text(r); }},
        {"heads", [](request r, const payload&) { return heads(r); }},
        {"trainer", make_trainer},
        {"train_step", [](request r, const payload&) { return train_step(r); }},
        {"trainer_free", [](request r, const payload&) {
             trainers.erase(trainer_of(r));
             return json::object();
         }},
        {"save", [](request r, const payload&) { return save(r); }},
    };
    return table;
}

}  // namespace

// in the unnamed namespace above, the table's calls find this file's operations before attn's names (attn::trace)
const attn::wasm::operation_table& attn::wasm::module_operations() { return operations(); }
const char* const attn::wasm::module_out_of_memory = "out of memory: the model's buffers do not fit in this page's memory.";
