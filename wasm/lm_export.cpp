// The language model's module (web/dist/lm): loaded only when a page or a program asks for a model, so
// the sequence stepper's download does not grow. Plain exports, no Embind: every call returns JSON text
// (or null, with the refusal's sentence in attn_error, as every module's: text_answer.hpp), and a trace's
// numbers stay in one float buffer that JS reads with a typed array until the next trace.
//
// [SECTION] the models and the last trace kept here
// [SECTION] exports: the registry and limits, loading and freeing
// [SECTION] exports: a text's trace, its layers, lines and attribution
// [SECTION] exports: generating, head scores, training, saving
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "attn/json.hpp"
#include "attn/lm_json.hpp"
#include "attn/lm_stages.hpp"
#include "text_answer.hpp"

// [SECTION] the models and the last trace kept here

namespace {

using namespace attn::lm;

std::map<int, std::unique_ptr<model>> models;
std::map<int, std::unique_ptr<trainer>> trainers;
std::map<int, std::vector<head_score>> probe_scores;  // each model's scores on its standard probes, until it trains
int next_handle = 1;
std::vector<float> last_floats;  // a saved file's bytes
model_trace last_trace;          // the last trace's stages, which JS reads in place
std::pair<int, std::string> last_trace_of;  // its model's handle and its text (attn_lm_trace's only)
constexpr std::size_t table_width = 7;
std::vector<std::uint32_t> last_table;  // its layout, table_width numbers a stage
std::vector<std::pair<std::string, int>> stage_keys;  // interned (stage id, layer or −1)
std::map<std::pair<std::string, int>, std::uint32_t> stage_index;

/// Runs f as every module's exports do (text_answer.hpp), with the model's own out-of-memory sentence.
template <class F>
const char* answer(F&& f) {
    return attn::wasm::answer(std::forward<F>(f), "out of memory: the model's buffers do not fit in this page's memory.");
}

model& find(int handle) {
    const auto it = models.find(handle);
    if (it == models.end()) throw attn::spec_error("this model was disposed of.");
    return *it->second;
}

using attn::wasm::text_of;

/// Refuses a corpus or training text over the bound "corpus_bytes" (lm.js refuses it before copying it here).
void check_corpus_bytes(std::size_t len, const char* what) {
    const double most = lm_bound_of("corpus_bytes").hi;
    if (static_cast<double>(len) > most)
        throw attn::spec_error(std::string(what) + " is " + std::to_string(len) + " bytes, over the limit of " +
                               std::to_string(static_cast<long long>(most) >> 20) + " MiB.");
}

/// A stage's (id, layer) as a small number JS looks up once (attn_lm_stage_name): a trace's layout is then
/// numbers, not the same titles in JSON on every keystroke.
std::uint32_t intern(const stage& s) {
    const std::pair<std::string, int> key{s.id, s.layer ? *s.layer : -1};
    const auto [it, added] = stage_index.try_emplace(key, static_cast<std::uint32_t>(stage_keys.size()));
    if (added) stage_keys.push_back(key);
    return it->second;
}

/// A trace's layout: {tokens, ids, unknown, count} as JSON, and at attn_lm_table() count rows of
/// table_width numbers: [stage name, at, rank, shape…] — each stage's numbers stay where the core wrote
/// them, in last_trace, at HEAPF32[at …] until the next trace (JS copies them out).
attn::json layout_of(model_trace t) {
    last_trace = std::move(t);
    last_table.clear();
    for (const stage& s : last_trace.stages) {
        if (s.shape.size() > table_width - 3) throw attn::spec_error("internal: a stage of rank over 4.");
        last_table.push_back(intern(s));
        last_table.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(s.data.data()) / sizeof(float)));
        last_table.push_back(static_cast<std::uint32_t>(s.shape.size()));
        for (std::size_t r = 0; r < table_width - 3; ++r) last_table.push_back(r < s.shape.size() ? static_cast<std::uint32_t>(s.shape[r]) : 0);
    }
    const tokens& k = last_trace.tokens;
    return attn::json{{"tokens", k.chars}, {"ids", k.ids}, {"unknown", k.unknown}, {"count", last_trace.stages.size()}};
}

/// f(model, the trace of text): the last attn_lm_trace's when it was of this model and text (the page asks
/// for the text's attribution, captions and layer spec right after tracing it), else a new one.
template <class F>
auto with_trace(int handle, std::string_view text, F f) {
    const model& m = find(handle);
    if (!last_trace.stages.empty() && last_trace_of.first == handle && last_trace_of.second == text) return f(m, last_trace);
    const model_trace t = trace(m, text);
    return f(m, t);
}

/// Keeps a model under a new handle: {"handle", "about" (with its vocabulary)}.
attn::json keep(std::unique_ptr<model> m) {
    const int h = next_handle++;
    attn::json about = about_json(*m);
    about["vocab"] = m->vocab;
    models[h] = std::move(m);
    return attn::json{{"handle", h}, {"about", about}};
}

/// The options of a draw from JS's numbers, refused as the CLI refuses them (the seed a whole number of a double).
generate_options draw_options(double temperature, double top_k, double top_p, double seed) {
    if (!(seed >= 0 && seed <= 9007199254740991.0) || std::floor(seed) != seed)
        throw attn::spec_error("seed must be a whole number from 0 to 2^53 − 1.");
    if (!(top_k >= 0 && top_k <= 65536) || std::floor(top_k) != top_k)
        throw attn::spec_error("top_k must be a whole number from 0 (every character).");
    generate_options o;
    o.temperature = temperature;
    o.top_k = static_cast<int>(top_k);
    o.top_p = top_p;
    o.seed = static_cast<std::uint64_t>(seed);
    return o;
}

/// Gives the last trace's buffers back before the next is made, so two never sit in the heap at once.
void forget_last_trace() {
    last_trace = model_trace{};
    last_trace_of = {};
}

}  // namespace

// [SECTION] exports: the registry and limits, loading and freeing

extern "C" {

float* attn_lm_floats() { return last_floats.data(); }
const std::uint32_t* attn_lm_table() { return last_table.data(); }

/// {id, layer, symbol, title: {en, zh}, scale} of an interned stage name, from the model's stage registry
/// (model_stage_order: the model's own rows and each layer's attention rows alike).
const char* attn_lm_stage_name(std::uint32_t index) {
    return answer([&] {
        if (index >= stage_keys.size()) throw attn::spec_error("no such stage name.");
        const auto& [id, layer] = stage_keys[index];
        for (const model_stage_row& row : model_stage_order()) {
            if (id != row.id()) continue;
            const attn::json facts = model_stage_json(row);
            return attn::json{{"id", id}, {"layer", layer < 0 ? attn::json(nullptr) : attn::json(layer)}, {"symbol", facts["symbol"]},
                              {"title", {{"en", facts["title"]}, {"zh", facts["title_zh"]}}}, {"scale", facts["scale"]}};
        }
        throw attn::spec_error("internal: stage " + id + " is not in the model's stage registry.");
    });
}

/// The bounds of the model (lm_bounds): {name: [lo, hi]}, whole numbers written whole, which lm.js checks arguments
/// (and the sizes of texts and files, before they are copied into this heap) against.
const char* attn_lm_limits() {
    return answer([] {
        const auto number = [](double v) { return v == std::floor(v) ? attn::json(static_cast<std::int64_t>(v)) : attn::json(v); };
        attn::json out = attn::json::object();
        for (const attn::lm::lm_bound& b : attn::lm::lm_bounds()) out[b.name] = {number(b.lo), number(b.hi)};
        return out;
    });
}

/// The model's stage registry: every stage a model trace can have, in trace order (model_stage_registry_json).
const char* attn_lm_stages() {
    return answer([] { return model_stage_registry_json(); });
}

/// {"handle", "about"} of a model read from a safetensors file's bytes.
const char* attn_lm_load(const std::uint8_t* bytes, std::size_t size) {
    return answer([&] {
        return keep(std::make_unique<model>(read_safetensors(bytes, size)));
    });
}

/**
 * A model with fresh weights, to train in the page (the induction lesson): text is fortune-format (entries
 * between lines of "%"), split as the shipped models' corpora are (docs/model.md); the vocabulary is the
 * training entries' most frequent characters, the probe of the head scores the held-out entries' start.
 * settings: {n_layer, n_head, d_model, d_mlp, n_ctx, vocab, seed}. {"handle", "about", "train": the training
 * entries, to pass to attn_lm_trainer}.
 */
const char* attn_lm_fresh(const char* text, std::size_t len, const char* settings, std::size_t settings_len) {
    return answer([&] {
        const attn::json j = attn::json::parse(std::string_view(settings, settings_len));
        config c;
        c.n_layer = j.value("n_layer", 2);
        c.n_head = j.value("n_head", 4);
        c.d_model = j.value("d_model", 64);
        c.d_mlp = j.value("d_mlp", 256);
        c.n_ctx = j.value("n_ctx", 32);
        const int vocab = j.value("vocab", 128);
        validate_config(c);
        check_bound("vocab", vocab);
        check_corpus_bytes(len, "the corpus");
        check_cost(fresh_cost(c, static_cast<std::size_t>(vocab), len), "a fresh model on " + std::to_string(len) + " bytes of corpus",
                   "give a smaller model or corpus");
        const corpus_split split = split_fortunes(text_of(text, len));
        if (split.train.size() < 4096) throw attn::spec_error("the lesson's text has too few characters to train on (fewer than 4096).");
        auto m = std::make_unique<model>(make_model(c, build_vocab(split.train, static_cast<std::size_t>(vocab)), j.value("seed", std::uint64_t{1})));
        for (char32_t ch : split.heldout.substr(0, 1024)) m->probe += encode_utf8(ch);
        std::string train;
        for (char32_t ch : split.train) train += encode_utf8(ch);
        attn::json out = keep(std::move(m));
        out["train"] = train;
        return out;
    });
}

void attn_lm_free(int handle) {
    models.erase(handle);
    probe_scores.erase(handle);
    for (auto it = trainers.begin(); it != trainers.end();) it = it->first / 1000000 == handle ? trainers.erase(it) : std::next(it);
}

// [SECTION] exports: a text's trace, its layers, lines and attribution

const char* attn_lm_trace(int handle, const char* text, std::size_t len) {
    forget_last_trace();
    const char* out = answer([&] { return layout_of(trace(find(handle), text_of(text, len))); });
    if (out) last_trace_of = {handle, std::string(text, len)};
    return out;
}

/// One generation step through the key/value cache (step_trace), laid out as a trace.
const char* attn_lm_step(int handle, const char* text, std::size_t len) {
    forget_last_trace();
    return answer([&] { return layout_of(step_trace(find(handle), text_of(text, len))); });
}

/// Layer l's attention on text as a sequence spec (x = its ln_1 rows, the layer's weights, causal, the
/// characters as labels): what the playground's stepper traces to show that layer stage by stage, with
/// the same numbers as the model's own trace (which traces this very spec).
const char* attn_lm_layer_spec(int handle, const char* text, std::size_t len, int layer) {
    return answer([&] {
        return with_trace(handle, text_of(text, len), [&](const model& m, const model_trace& t) { return attn::spec_to_json(layer_spec_of(m, t, layer)); });
    });
}

/// Layer l's attention on text with the model's next-character loss above it: {"loss", "spec": a grad spec
/// with "loss": "upstream" and the loss's gradient at the attention's output} (layer_grad_json), for the
/// sequence core's a.grad: every stage's gradient of the model's own loss.
const char* attn_lm_layer_grad(int handle, const char* text, std::size_t len, int layer) {
    return answer([&] {
        // the trace and the gradient together, before the trace is made (as attn lm layer-grad checks them)
        check_text_cost(find(handle), count_chars(text_of(text, len), "the text"), "a layer's gradient", layer_grad_cost);
        return with_trace(handle, text_of(text, len), [&](const model& m, const model_trace& t) { return layer_grad_json(layer_grad_of(m, t, layer)); });
    });
}

/// The line-alignment pattern of text (the key at the same place in the previous line, or −1), as the
/// head scores measure it: [target per character].
const char* attn_lm_line_targets(int handle, const char* text, std::size_t len) {
    return answer([&] {
        const model& m = find(handle);
        tokenize(m, text_of(text, len), static_cast<std::size_t>(m.config.n_ctx));  // the same refusals as a trace
        return attn::json(line_alignment_targets(decode_utf8(text_of(text, len), "text")));
    });
}

/// The arithmetic of cell (i, j) of a stage (layer and head 0-based; layer −1 for a global stage).
const char* attn_lm_explain(int handle, const char* text, std::size_t len, const char* id, std::size_t id_len, int layer, int head,
                            double i, double j) {
    return answer([&] {
        const model& m = find(handle);
        if (!(i >= 0 && j >= 0 && i < 1e6 && j < 1e6) || std::floor(i) != i || std::floor(j) != j)
            throw attn::spec_error("i and j must be whole numbers from 0.");
        const std::optional<int> l = layer < 0 ? std::nullopt : std::optional<int>(layer);
        return with_trace(handle, text_of(text, len), [&](const model&, const model_trace& t) {
            return attn::json{{"text", explain_model_cell(m, t, std::string_view(id, id_len), l, static_cast<std::size_t>(i),
                                                          static_cast<std::size_t>(j), static_cast<std::size_t>(std::max(head, 0)))}};
        });
    });
}

/// Which heads pushed each of the k most likely next characters: attribution_json.
const char* attn_lm_attribute(int handle, const char* text, std::size_t len, int k) {
    return answer([&] {
        return with_trace(handle, text_of(text, len), [&](const model& m, const model_trace& t) { return attribution_json(m, t, k); });
    });
}

/// What each layer predicts at the text's last position: lens_json (k per point).
const char* attn_lm_lens(int handle, const char* text, std::size_t len, int k) {
    return answer([&] {
        return with_trace(handle, text_of(text, len), [&](const model& m, const model_trace& t) { return lens_json(m, t, k); });
    });
}

/// The next-character distribution after the temperature, top-k and top-p, and the seed's draw: sampling_json.
const char* attn_lm_sample(int handle, const char* text, std::size_t len, int k, double temperature, double top_k, double top_p, double seed) {
    return answer([&] {
        const generate_options o = draw_options(temperature, top_k, top_p, seed);
        return with_trace(handle, text_of(text, len), [&](const model& m, const model_trace& t) { return sampling_json(m, sample_of_trace(m, t, o), k); });
    });
}

/// The k likeliest next characters as sampling draws them (after the temperature, top-k and top-p), as attn lm next.
const char* attn_lm_next_shaped(int handle, const char* text, std::size_t len, int k, double temperature, double top_k, double top_p) {
    return answer([&] {
        const generate_options o = draw_options(temperature, top_k, top_p, 0);
        attn::json out = attn::json::array();
        const model& m = find(handle);
        for (const candidate& c : likeliest_of(m, sample_next(m, text_of(text, len), o).top_p, k))
            out.push_back({{"char", c.ch}, {"p", attn::shortest_decimal(c.p)}});
        return out;
    });
}

const char* attn_lm_next(int handle, const char* text, std::size_t len, int k) {
    return answer([&] {
        attn::json out = attn::json::array();
        for (const candidate& c : next(find(handle), text_of(text, len), k)) out.push_back({{"char", c.ch}, {"p", attn::shortest_decimal(c.p)}});
        return out;
    });
}

// [SECTION] exports: generating, head scores, training, saving

const char* attn_lm_generate(int handle, const char* prompt, std::size_t len, int n, double temperature, double seed, double top_k, double top_p) {
    return answer([&] {
        generate_options o = draw_options(temperature, top_k, top_p, seed);
        o.n = n;
        const std::string text = generate(find(handle), text_of(prompt, len), o);
        return attn::json{{"text", text}};
    });
}

/// Every head's scores on the model's standard probes (kept per model until its weights change) and, when text is
/// given, on that text (from its trace): heads_json.
const char* attn_lm_heads(int handle, const char* text, std::size_t len) {
    return answer([&] {
        const model& m = find(handle);
        // a model without a probe of its own (a file whose metadata has none) is measured on the text
        if (m.probe.empty()) {
            const std::vector<head_score> probe = head_scores(m, text_of(text, len));
            return with_trace(handle, text_of(text, len), [&](const model&, const model_trace& t) {
                const std::vector<text_head_score> on_text = text_head_scores(m, t);
                return heads_json(probe, &on_text);
            });
        }
        auto kept = probe_scores.find(handle);
        if (kept == probe_scores.end()) kept = probe_scores.emplace(handle, head_scores(m)).first;
        if (len == 0) return heads_json(kept->second, nullptr);
        const std::vector<head_score> probe = kept->second;
        return with_trace(handle, text_of(text, len), [&](const model&, const model_trace& t) {
            const std::vector<text_head_score> on_text = text_head_scores(m, t);
            return heads_json(probe, &on_text);
        });
    });
}

/// A trainer of the model on text (settings: {steps, batch, lr, warmup, repeat_fraction, seed}): {"trainer", "steps_per_call":
/// how many steps one call of lm.js's step(count) may take within the bound "work"}.
const char* attn_lm_trainer(int handle, const char* text, std::size_t len, const char* settings, std::size_t settings_len) {
    return answer([&] {
        model& m = find(handle);
        check_corpus_bytes(len, "the training text");
        const attn::json j = attn::json::parse(std::string_view(settings, settings_len));
        train_settings s;
        s.steps = j.value("steps", 100);
        s.batch = j.value("batch", 8);
        s.lr = j.value("lr", 1e-3);
        s.warmup = j.value("warmup", 10);
        s.repeat_fraction = j.value("repeat_fraction", 0.0);
        s.seed = j.value("seed", std::uint64_t{1});
        const std::u32string chars = decode_utf8(text_of(text, len), "the training text");
        if (chars.size() < static_cast<std::size_t>(m.config.n_ctx) + 2 && s.repeat_fraction < 1)
            throw attn::spec_error("the training text has " + std::to_string(chars.size()) + " characters but needs more than n_ctx + 1 (" +
                                   std::to_string(m.config.n_ctx + 1) + ").");
        const int id = handle * 1000000 + next_handle++;
        auto run = std::make_unique<trainer>(m, to_ids(m, chars), s);  // refuses a step over one call's budget
        const int per_call = run->steps_per_call();
        trainers[id] = std::move(run);
        return attn::json{{"trainer", id}, {"steps_per_call", per_call}};
    });
}

/// One training step: {"step", "loss"} (the batch's loss before the update, nats per character); a loss or gradient
/// that overflowed is refused before the update, the weights kept.
const char* attn_lm_train_step(int id) {
    return answer([&] {
        const auto it = trainers.find(id);
        if (it == trainers.end()) throw attn::spec_error("this training run was disposed of.");
        last_trace_of = {};  // the weights change: the last trace (JS still reads its stages) is no longer theirs
        probe_scores.erase(id / 1000000);  // nor are the head scores kept
        const double loss = it->second->step();
        return attn::json{{"step", it->second->steps_done()}, {"loss", loss}};
    });
}

void attn_lm_trainer_free(int id) { trainers.erase(id); }

/// The model's weights as a safetensors file (f32), e.g. after training; the bytes at attn_lm_floats().
const char* attn_lm_save(int handle) {
    return answer([&] {
        const std::vector<std::uint8_t> bytes = write_safetensors(find(handle), dtype::f32);
        last_floats.assign((bytes.size() + 3) / 4, 0.0f);
        std::memcpy(last_floats.data(), bytes.data(), bytes.size());
        return attn::json{{"bytes", bytes.size()}};
    });
}

}  // extern "C"
