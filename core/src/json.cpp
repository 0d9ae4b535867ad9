// Spec <-> JSON. Every refusal is one sentence naming the field, e.g. "x[1] has 3 values but x[0] has 4."
#include "attn/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

namespace attn {
namespace {

[[noreturn]] void fail(const std::string& sentence) { throw spec_error(sentence); }

std::string at(const std::string& name, std::size_t i) { return name + "[" + std::to_string(i) + "]"; }

float read_number(const json& j, const std::string& name) {
    if (!j.is_number()) fail(name + " is " + std::string(j.type_name()) + " but must be a number.");
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(name + " is not a finite number.");
    if (std::fabs(v) > std::numeric_limits<float>::max())
        fail(name + " is " + j.dump() + ", outside the float range (±3.4e38).");
    return static_cast<float>(v);
}

/// read_number for the elements of a matrix or vector: the field's name is only spelled out
/// when the value is refused (building "x[3][7]" for every number costs more than reading it).
float read_element(const json& j, const std::string& name, std::size_t i, std::size_t c, bool matrix) {
    if (j.is_number()) {
        const double v = j.get<double>();
        if (std::isfinite(v) && std::fabs(v) <= std::numeric_limits<float>::max()) return static_cast<float>(v);
    }
    return read_number(j, matrix ? at(at(name, i), c) : at(name, i));  // throws, naming the element
}

vector read_vector(const json& j, const std::string& name) {
    if (!j.is_array()) fail(name + " must be an array of numbers.");
    vector v = vector::from_shape({j.size()});
    for (std::size_t i = 0; i < j.size(); ++i) v(i) = read_element(j[i], name, i, 0, false);
    return v;
}

matrix read_matrix(const json& j, const std::string& name) {
    if (!j.is_array()) fail(name + " must be an array of rows, each an array of numbers.");
    if (j.empty()) fail(name + " is empty: it needs at least one row.");
    for (std::size_t i = 0; i < j.size(); ++i)
        if (!j[i].is_array()) fail(at(name, i) + " must be an array of numbers.");
    const std::size_t cols = j[0].size();
    if (cols == 0) fail(at(name, 0) + " is empty: each row needs at least one number.");
    for (std::size_t i = 1; i < j.size(); ++i)
        if (j[i].size() != cols)
            fail(at(name, i) + " has " + std::to_string(j[i].size()) + " values but " + at(name, 0) + " has " +
                 std::to_string(cols) + ": every row needs the same length.");
    matrix m = matrix::from_shape({j.size(), cols});
    for (std::size_t i = 0; i < j.size(); ++i)
        for (std::size_t c = 0; c < cols; ++c) m(i, c) = read_element(j[i][c], name, i, c, true);
    return m;
}

int read_whole(const json& j, const std::string& name) {
    const float v = read_number(j, name);
    if (std::floor(v) != v || std::fabs(v) > 1e9f) fail(name + " is " + j.dump() + " but must be a whole number.");
    return static_cast<int>(v);
}

std::vector<std::string> read_labels(const json& j, const std::string& name) {
    if (!j.is_array()) fail(name + " must be an array of strings.");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string()) fail(at(name, i) + " is " + std::string(j[i].type_name()) + " but must be a string.");
        out.push_back(j[i].get<std::string>());
    }
    return out;
}

void refuse_unknown(const json& j, const std::string& where, const std::set<std::string>& known) {
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) {
            std::string list;
            for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
            fail(where + " has an unknown field \"" + it.key() + "\" (known: " + list + ").");
        }
}

void require_object(const json& j, const std::string& name) {
    if (!j.is_object()) fail(name + " must be an object.");
}

score_kind read_score(const json& j) {
    if (!j.is_string()) fail("score must be a string: \"dot\", \"scaled_dot\", \"additive\" or \"bilinear\".");
    const std::string s = j.get<std::string>();
    for (score_kind k : {score_kind::dot, score_kind::scaled_dot, score_kind::additive, score_kind::bilinear})
        if (s == to_string(k)) return k;
    fail("score \"" + s + "\" is unknown: use \"dot\", \"scaled_dot\", \"additive\" or \"bilinear\".");
}

void read_mask(const json& j, spec& s) {
    const std::string choices = "use \"none\", \"causal\", {\"window\": k} or {\"matrix\": [[0/1, ...], ...]}";
    if (j.is_string()) {
        const std::string m = j.get<std::string>();
        if (m == "none") s.mask = mask_kind::none;
        else if (m == "causal") s.mask = mask_kind::causal;
        else fail("mask \"" + m + "\" is unknown: " + choices + ".");
        return;
    }
    if (!j.is_object() || j.size() != 1) fail("mask must be one of these: " + choices + ".");
    if (j.contains("window")) {
        s.mask = mask_kind::window;
        s.window = read_whole(j["window"], "mask.window");
    } else if (j.contains("matrix")) {
        s.mask = mask_kind::matrix;
        s.mask_matrix = read_matrix(j["matrix"], "mask.matrix");
    } else {
        fail("mask has an unknown field \"" + j.begin().key() + "\": " + choices + ".");
    }
}

void read_positional(const json& j, spec& s) {
    const std::string choices = "use \"none\", \"sinusoidal\" or {\"learned\": [[...], ...]}";
    if (j.is_string()) {
        const std::string p = j.get<std::string>();
        if (p == "none") s.positional = positional_kind::none;
        else if (p == "sinusoidal") s.positional = positional_kind::sinusoidal;
        else fail("positional \"" + p + "\" is unknown: " + choices + ".");
        return;
    }
    if (!j.is_object() || j.size() != 1 || !j.contains("learned")) fail("positional must be one of these: " + choices + ".");
    s.positional = positional_kind::learned;
    s.learned = read_matrix(j["learned"], "positional.learned");
}

void read_weights(const json& j, spec& s) {
    require_object(j, "weights");
    refuse_unknown(j, "weights", {"wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo"});
    const std::pair<const char*, projection*> projections[] = {{"q", &s.wq}, {"k", &s.wk}, {"v", &s.wv}, {"o", &s.wo}};
    for (const auto& [suffix, p] : projections) {
        const std::string w = std::string("w") + suffix, b = std::string("b") + suffix;
        if (j.contains(w)) p->w = read_matrix(j[w], "weights." + w);
        if (j.contains(b)) p->b = read_vector(j[b], "weights." + b);
    }
}

json matrix_json(const xt::xtensor<float, 2>& m) {
    json rows = json::array();
    for (std::size_t i = 0; i < m.shape(0); ++i) {
        json row = json::array();
        for (std::size_t c = 0; c < m.shape(1); ++c) row.push_back(shortest_decimal(m(i, c)));
        rows.push_back(std::move(row));
    }
    return rows;
}

json vector_json(const vector& v) {
    json out = json::array();
    for (float f : v) out.push_back(shortest_decimal(f));
    return out;
}

}  // namespace

double shortest_decimal(float f) {
    // Fast path without printf (whose long double arithmetic is emulated, and slow, in wasm):
    // try m·10^k with 1 to 9 significant digits. m and 10^|k| are exact doubles for |k| <= 22,
    // so one multiply or divide rounds correctly and gives the same double strtod would.
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const double x = f;
    if (x == 0.0 || !std::isfinite(x)) return x;
    const int exp10 = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    for (int digits = 1; digits <= 9; ++digits) {
        const int k = exp10 - digits + 1;  // x ≈ m·10^k with m of `digits` digits
        if (k < -22 || k > 22) break;
        const double m = k < 0 ? std::nearbyint(x * pow10[-k]) : std::nearbyint(x / pow10[k]);
        const double candidate = k < 0 ? m / pow10[-k] : m * pow10[k];
        if (static_cast<float>(candidate) == f) return candidate;
    }
    char buf[32];  // tiny or huge magnitudes: the slow, always-right way
    for (int digits = 6; digits < 9; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
        if (std::strtof(buf, nullptr) == f) return std::strtod(buf, nullptr);
    }
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));  // 9 digits always round-trip a float
    return std::strtod(buf, nullptr);
}

spec spec_from_json(const json& j) {
    if (!j.is_object()) fail("the spec must be a JSON object with at least \"x\".");
    refuse_unknown(j, "the spec", {"x", "memory", "tokens", "weights", "score", "additive", "bilinear", "heads", "mask",
                                   "mask_value", "positional"});
    if (!j.contains("x")) fail("the spec has no \"x\": give the inputs as an array of rows.");
    spec s;
    s.x = read_matrix(j["x"], "x");
    if (j.contains("memory") && !j["memory"].is_null()) s.memory = read_matrix(j["memory"], "memory");
    if (j.contains("tokens")) {
        const json& t = j["tokens"];
        require_object(t, "tokens");
        refuse_unknown(t, "tokens", {"query", "key"});
        if (t.contains("query")) s.query_tokens = read_labels(t["query"], "tokens.query");
        if (t.contains("key")) s.key_tokens = read_labels(t["key"], "tokens.key");
    }
    if (j.contains("weights")) read_weights(j["weights"], s);
    if (j.contains("score")) s.score = read_score(j["score"]);
    if (j.contains("additive")) {
        const json& a = j["additive"];
        require_object(a, "additive");
        refuse_unknown(a, "additive", {"w1", "w2", "v"});
        if (a.contains("w1")) s.additive.w1 = read_matrix(a["w1"], "additive.w1");
        if (a.contains("w2")) s.additive.w2 = read_matrix(a["w2"], "additive.w2");
        if (a.contains("v")) s.additive.v = read_vector(a["v"], "additive.v");
    }
    if (j.contains("bilinear")) {
        const json& b = j["bilinear"];
        require_object(b, "bilinear");
        refuse_unknown(b, "bilinear", {"w"});
        if (b.contains("w")) s.bilinear = read_matrix(b["w"], "bilinear.w");
    }
    if (j.contains("heads")) s.heads = read_whole(j["heads"], "heads");
    if (j.contains("mask")) read_mask(j["mask"], s);
    if (j.contains("mask_value")) s.mask_value = read_number(j["mask_value"], "mask_value");
    if (j.contains("positional")) read_positional(j["positional"], s);
    validate(s);
    return s;
}

spec parse_spec(std::string_view text) {
    json j;
    try {
        j = json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        // parse_error names the byte, out_of_range a number too large for a double;
        // keep nlohmann's detail, without its "[json.exception...]" prefix, after our sentence
        std::string what = e.what();
        const auto bracket = what.find("] ");
        fail("the spec is not valid JSON (" + (bracket == std::string::npos ? what : what.substr(bracket + 2)) + ").");
    }
    return spec_from_json(j);
}

json spec_to_json(const spec& s) {
    json j;
    j["x"] = matrix_json(s.x);
    if (s.memory) j["memory"] = matrix_json(*s.memory);
    if (!s.query_tokens.empty() || !s.key_tokens.empty()) {
        j["tokens"] = json::object();
        if (!s.query_tokens.empty()) j["tokens"]["query"] = s.query_tokens;
        if (!s.key_tokens.empty()) j["tokens"]["key"] = s.key_tokens;
    }
    json w = json::object();
    const std::pair<const char*, const projection*> projections[] = {{"q", &s.wq}, {"k", &s.wk}, {"v", &s.wv}, {"o", &s.wo}};
    for (const auto& [suffix, p] : projections) {
        if (p->w) w[std::string("w") + suffix] = matrix_json(*p->w);
        if (p->b) w[std::string("b") + suffix] = vector_json(*p->b);
    }
    if (!w.empty()) j["weights"] = w;
    j["score"] = to_string(s.score);
    if (s.additive.w1) j["additive"] = {{"w1", matrix_json(*s.additive.w1)}, {"w2", matrix_json(*s.additive.w2)},
                                        {"v", vector_json(*s.additive.v)}};
    if (s.bilinear) j["bilinear"] = {{"w", matrix_json(*s.bilinear)}};
    j["heads"] = s.heads;
    switch (s.mask) {
        case mask_kind::none:
        case mask_kind::causal: j["mask"] = to_string(s.mask); break;
        case mask_kind::window: j["mask"] = {{"window", s.window}}; break;
        case mask_kind::matrix: j["mask"] = {{"matrix", matrix_json(s.mask_matrix)}}; break;
    }
    j["mask_value"] = shortest_decimal(s.mask_value);
    if (s.positional == positional_kind::learned) j["positional"] = {{"learned", matrix_json(s.learned)}};
    else j["positional"] = to_string(s.positional);
    return j;
}

json trace_to_json(const trace& t) {
    json stages = json::array();
    for (const stage_view& v : t.stages()) {
        json data = json::array();
        for (std::size_t i = 0; i < v.size; ++i) data.push_back(shortest_decimal(v.data[i]));
        const bilingual title = stage_title(v.id), explain = stage_explanation(v.id);
        stages.push_back({{"id", stage_name(v.id)},
                          {"title", title.en},
                          {"title_zh", title.zh},
                          {"formula", stage_formula(v.id, t.spec)},
                          {"explain", {{"en", explain.en}, {"zh", explain.zh}}},
                          {"shape", v.shape},
                          {"data", std::move(data)}});
    }
    json out = {{"spec", spec_to_json(t.spec)}, {"stages", std::move(stages)}};
    if (t.mask) {
        const std::vector<std::size_t> shape(t.mask->shape().begin(), t.mask->shape().end());
        out["mask"] = {{"shape", shape}, {"data", std::vector<int>(t.mask->begin(), t.mask->end())}};
    }
    return out;
}

}  // namespace attn
