#include "attn/examples.hpp"

#include <cmath>
#include <map>

#include "attn/text.hpp"
#include "attn/examples_data.hpp"  // generated from core/examples/*.json by cmake/embed_examples.cmake

namespace attn {
namespace {

// docs/spec.md's order, not the alphabetical order of the files
const char* const order[] = {"numpy-3x4",   "basic-attention", "translation", "long-range",
                             "bank",        "coreference",     "context-window",  "score-functions", "multi-head",
                             "masking",     "positional-encoding", "complexity",  "online-softmax",
                             "se-block",    "eca-block",       "cbam-block",      "coordinate-attention"};

const std::map<std::string, json, std::less<>>& documents() {
    static const std::map<std::string, json, std::less<>> docs = [] {
        std::map<std::string, json, std::less<>> m;
        for (const embedded_example& e : embedded_examples()) m.emplace(e.id, json::parse(e.text));
        return m;
    }();
    return docs;
}

std::string known_ids() {
    std::string list;
    for (const std::string& id : example_ids()) list += (list.empty() ? "" : ", ") + id;
    return list;
}

}  // namespace

std::vector<std::string> example_ids() {
    std::vector<std::string> ids;
    for (const char* id : order)
        if (documents().count(id)) ids.emplace_back(id);
    return ids;
}

const json& example_document(std::string_view id) {
    auto it = documents().find(id);
    if (it == documents().end())
        throw spec_error("example \"" + user_text(id) + "\" is unknown (known: " + known_ids() + ").");
    return it->second;
}

std::vector<float> complexity_inputs(std::size_t n, std::size_t d) {
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < d; ++c) x[i * d + c] = static_cast<float>(0.5 * std::sin(0.37 * i + 1.3 * c));
    return x;
}

json complexity_spec_json(std::size_t n, std::size_t d) {
    const std::vector<float> values = complexity_inputs(n, d);
    json x = json::array();
    for (std::size_t i = 0; i < n; ++i) {
        json row = json::array();
        for (std::size_t c = 0; c < d; ++c) row.push_back(shortest_decimal(values[i * d + c]));
        x.push_back(std::move(row));
    }
    return {{"x", std::move(x)}, {"score", "scaled_dot"}};
}

json example_spec_json(std::string_view id, std::string_view variant) {
    const json& doc = example_document(id);
    json spec = doc.contains("spec") ? doc["spec"]
                                     : complexity_spec_json(doc.at("sizes").at(0).get<std::size_t>(),
                                                            doc.at("d_model").get<std::size_t>());
    if (variant.empty()) return spec;
    if (doc.contains("variants"))
        for (const json& v : doc["variants"])
            if (v.at("id").get<std::string>() == variant) {
                spec.merge_patch(v.at("patch"));
                return spec;
            }
    std::string list;
    if (doc.contains("variants"))
        for (const json& v : doc["variants"]) list += (list.empty() ? "" : ", ") + v.at("id").get<std::string>();
    throw spec_error("example \"" + user_text(id) + "\" has no variant \"" + user_text(variant) + "\" (" +
                     (list.empty() ? std::string("it has none") : "known: " + list) + ").");
}

bool example_is_vision(std::string_view id) {
    const json& doc = example_document(id);
    return doc.contains("spec") && doc["spec"].value("kind", "") == "vision";
}

vision_spec example_vision_spec(std::string_view id, std::string_view variant) {
    if (!example_is_vision(id)) throw spec_error("example \"" + user_text(id) + "\" is a sequence example: see example_spec.");
    static std::map<std::string, vision_spec, std::less<>> cache;  // as example_spec: read once per (example, variant)
    const std::string key = std::string(id) + '\n' + std::string(variant);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, vision_spec_from_json(example_spec_json(id, variant))).first;
    return it->second;
}

spec example_spec(std::string_view id, std::string_view variant) {
    if (example_is_vision(id)) throw spec_error("example \"" + user_text(id) + "\" is a vision example (kind \"vision\"): see example_vision_spec.");
    // read once per (example, variant): the page and the lab ask for the same ones again and again
    static std::map<std::string, spec, std::less<>> cache;
    const std::string key = std::string(id) + '\n' + std::string(variant);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, spec_from_json(example_spec_json(id, variant))).first;
    return it->second;
}

json example_notes(std::string_view id, std::string_view variant) {
    const json& doc = example_document(id);
    json notes = doc.value("notes", json::object());
    if (!variant.empty() && doc.contains("variants"))
        for (const json& v : doc["variants"])
            if (v.at("id").get<std::string>() == variant && v.contains("notes"))
                for (auto it = v["notes"].begin(); it != v["notes"].end(); ++it) notes[it.key()] = *it;
    return notes;
}

json example_about_json(std::string_view id, std::string_view variant) {
    json about = example_document(id);
    about.erase("spec");
    return {{"example", std::move(about)}, {"variant", std::string(variant)}};
}

json example_trace_json(std::string_view id, std::string_view variant) {
    json out = example_is_vision(id) ? vision_trace_to_json(compute_vision(example_vision_spec(id, variant)))
                                     : trace_to_json(compute_trace(example_spec(id, variant)));
    const json about = example_about_json(id, variant);  // items() of a temporary would dangle
    for (auto it = about.begin(); it != about.end(); ++it) out[it.key()] = *it;
    return out;
}

}  // namespace attn
