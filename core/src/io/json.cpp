// Spec <-> JSON. Every refusal is one sentence naming the field, e.g. "x[1] has 3 values but x[0] has 4."
// (A trace and the stage registry as JSON: trace_json.cpp.)
//
// [SECTION] reading a spec's groups · numbers as written · reading a spec · writing a spec
#include "attn/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <vector>

#include "attn/spec_fields.hpp"
#include "attn/text.hpp"
#include "io/json_read.hpp"

namespace attn {
namespace {

// ---- [SECTION] reading a spec's groups ----

using namespace json_read;

score_kind read_score(const json& j) {
    if (!j.is_string()) fail("score must be a string: \"dot\", \"scaled_dot\", \"additive\" or \"bilinear\".");
    const std::string s = j.get<std::string>();
    for (const named<score_kind>& k : score_names)
        if (s == k.name) return k.value;
    fail("score \"" + user_text(s) + "\" is unknown: use \"dot\", \"scaled_dot\", \"additive\" or \"bilinear\".");
}

void read_mask(const json& j, spec& s) {
    const std::string choices = "use \"none\", \"causal\", {\"window\": k} or {\"matrix\": [[0/1, ...], ...]}";
    if (j.is_string()) {
        const std::string m = j.get<std::string>();
        if (m == "none") s.mask = mask_kind::none;
        else if (m == "causal") s.mask = mask_kind::causal;
        else fail("mask \"" + user_text(m) + "\" is unknown: " + choices + ".");
        return;
    }
    if (!j.is_object() || j.size() != 1) fail("mask must be one of these: " + choices + ".");
    if (j.contains("window")) {
        s.mask = mask_kind::window;
        // its width: the scalar table's row (spec_fields.cpp)
    } else if (j.contains("matrix")) {
        s.mask = mask_kind::matrix;  // its values: the field table's row (spec_fields.cpp)
    } else {
        fail("mask has an unknown field \"" + user_text(j.begin().key()) + "\": " + choices + ".");
    }
}

void read_positional(const json& j, spec& s) {
    const std::string choices =
        "use \"none\", \"sinusoidal\", {\"learned\": [[...], ...]}, \"rotary\" or {\"rotary\": θ}";
    if (j.is_string()) {
        const std::string p = j.get<std::string>();
        if (p == "none") s.positional = positional_kind::none;
        else if (p == "sinusoidal") s.positional = positional_kind::sinusoidal;
        else if (p == "rotary") s.positional = positional_kind::rotary;  // θ: 10000
        else fail("positional \"" + user_text(p) + "\" is unknown: " + choices + ".");
        return;
    }
    if (!j.is_object() || j.size() != 1 || !(j.contains("learned") || j.contains("rotary")))
        fail("positional must be one of these: " + choices + ".");
    // the learned table and the rotary base: their rows of the field tables
    s.positional = j.contains("learned") ? positional_kind::learned : positional_kind::rotary;
}

/// Whether a path of the field tables lies under a top-level field ("weights.wq" under "weights", "x" under "x").
bool under(std::string_view path, std::string_view top) {
    return path == top || (path.size() > top.size() && path.substr(0, top.size()) == top && path[top.size()] == '.');
}

/// Reads the matrices and vectors under a top-level field, each by its row of the field table.
void read_tensors(const json& j, spec& s, std::string_view top) {
    for (const tensor_field& f : sequence_tensor_fields())
        if (under(f.path, top))
            if (const json* value = json_at(j, f.path)) f.read(s, *value, std::string(f.path));
}

/// Reads the numbers and labels under a top-level field, each by its row of the scalar table; a missing one
/// its object needs is refused.
void read_scalars(const json& j, spec& s, std::string_view top) {
    for (const scalar_field& f : sequence_scalar_fields()) {
        if (!under(f.path, top)) continue;
        const std::string path(f.path);
        const json* value = json_at(j, path);
        if (!value) {
            const std::size_t dot = path.rfind('.');  // a required field lies in an object: needed when that is given
            if (f.required && dot != std::string::npos && json_at(j, path.substr(0, dot)))
                fail(path.substr(0, dot) + " has no \"" + path.substr(dot + 1) + "\": give " + std::string(f.about) + ".");
            continue;
        }
        switch (f.kind) {
            case scalar_field::holds::whole: *f.whole(s) = read_whole(*value, path, f.lo, f.hi); break;
            case scalar_field::holds::number: *f.number(s) = read_number(*value, path); break;
            case scalar_field::holds::labels: *f.labels(s) = read_labels(*value, path); break;
        }
    }
}

/// A top-level object of fields ("weights", "additive", "bilinear" of matrices; "tokens", "online_softmax" of
/// scalars): an object, with no field the tables do not have under it, each read.
void read_group(const json& j, spec& s, const std::string& top) {
    require_object(j[top], top);
    std::set<std::string> known;
    const auto add = [&](std::string_view path) {
        if (under(path, top) && path != top) known.emplace(path.substr(top.size() + 1));
    };
    for (const tensor_field& f : sequence_tensor_fields()) add(f.path);
    for (const scalar_field& f : sequence_scalar_fields()) add(f.path);
    refuse_unknown(j[top], top, known);
    read_tensors(j, s, top);
    read_scalars(j, s, top);
}

/// Checks the limits of attn/limits.hpp while nlohmann parses, so a hostile text is refused
/// before its tree is built: nesting, array and object sizes, string sizes, the number of
/// values, and fields given twice (which the tree would silently collapse to the last one).
class parse_guard {
public:
    using callback_t = json::parser_callback_t;

    callback_t callback() {
        return [this](int, json::parse_event_t event, json& parsed) {
            switch (event) {
                case json::parse_event_t::object_start: enter(true); break;
                case json::parse_event_t::array_start: enter(false); break;
                case json::parse_event_t::object_end:
                case json::parse_event_t::array_end: frames_.pop_back(); break;
                case json::parse_event_t::key: add_key(parsed.get_ref<const std::string&>()); break;
                case json::parse_event_t::value: add_value(parsed); break;
            }
            return true;
        };
    }

private:
    struct frame {
        bool object;
        std::size_t count = 0;            // entries so far (array) or fields so far (object)
        std::vector<std::string> keys;    // the object's fields so far (at most max_object_fields)
    };

    /// "weights.wq[3]": where the parser is, for the sentence (built only when refusing); the
    /// first `depth` frames only, so path(frames_.size() - 1) names the innermost array or object.
    std::string path(std::size_t depth) const {
        std::string out;
        for (std::size_t i = 0; i < depth; ++i) {
            const frame& f = frames_[i];
            if (f.object && !f.keys.empty()) out += (out.empty() ? "" : ".") + user_text(f.keys.back());
            else if (!f.object && f.count > 0) out += "[" + std::to_string(f.count - 1) + "]";
        }
        return out.empty() ? "the spec" : out;
    }

    void count_value() {
        if (++values_ > max_spec_values)
            fail("the spec holds more than " + std::to_string(max_spec_values) + " values, over the limit.");
        if (frames_.empty() || frames_.back().object) return;
        if (++frames_.back().count > max_array_length)
            fail(path(frames_.size() - 1) + " has more than " + std::to_string(max_array_length) + " entries, over the limit of " +
                 std::to_string(max_array_length) + " (positions, rows or columns).");
    }

    void enter(bool object) {
        count_value();  // a nested array or object is an entry of its parent
        if (frames_.size() >= max_nesting)
            fail(path(frames_.size()) + " nests arrays and objects more than " + std::to_string(max_nesting) + " levels deep.");
        frames_.push_back(frame{object, 0, {}});
    }

    void add_key(const std::string& key) {
        frame& f = frames_.back();
        for (const std::string& k : f.keys)
            if (k == key) fail(path(frames_.size() - 1) + " has the field \"" + user_text(key) + "\" twice: give each field once.");
        if (f.keys.size() >= max_object_fields)
            fail(path(frames_.size() - 1) + " has more than " + std::to_string(max_object_fields) + " fields.");
        f.keys.push_back(key);
    }

    void add_value(const json& v) {
        if (v.is_structured()) return;  // its end was counted at its start
        count_value();
        if (v.is_string() && v.get_ref<const std::string&>().size() > max_string_bytes)
            fail(path(frames_.size()) + " is a text of " + std::to_string(v.get_ref<const std::string&>().size()) +
                 " bytes, over the limit of " + std::to_string(max_string_bytes) + ".");
    }

    std::vector<frame> frames_;
    std::size_t values_ = 0;
};

}  // namespace

// ---- [SECTION] numbers as written ----

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
        const double read = std::strtod(buf, nullptr);
        if (static_cast<float>(read) == f) return read;  // as a spec's reader reads it: a double, then float
    }
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));  // 9 digits always round-trip a float
    return std::strtod(buf, nullptr);
}

// ---- [SECTION] reading a spec ----

spec spec_from_json(const json& j) {
    if (!j.is_object()) fail("the spec must be a JSON object with at least \"x\".");
    refuse_unknown(j, "the spec", sequence_spec_fields);
    if (!j.contains("x")) fail("the spec has no \"x\": give the inputs as an array of rows.");
    spec s;
    read_tensors(j, s, "x");
    read_tensors(j, s, "memory");
    if (j.contains("tokens")) read_group(j, s, "tokens");
    if (j.contains("weights")) read_group(j, s, "weights");
    if (j.contains("score")) s.score = read_score(j["score"]);
    // parameters of a score the spec does not use are a mistake (a typo in score, or a leftover)
    for (const char* params : {"additive", "bilinear"})
        if (j.contains(params) && std::string(params) != to_string(s.score))
            fail(std::string(params) + " is given but score is \"" + to_string(s.score) + "\": remove " + params +
                 ", or set score to \"" + params + "\".");
    for (const char* params : {"additive", "bilinear"})
        if (j.contains(params)) read_group(j, s, params);
    read_scalars(j, s, "heads");
    if (j.contains("mask")) read_mask(j["mask"], s), read_tensors(j, s, "mask"), read_scalars(j, s, "mask");
    read_scalars(j, s, "mask_value");
    read_scalars(j, s, "kv_heads");
    if (j.contains("positional"))
        read_positional(j["positional"], s), read_tensors(j, s, "positional"), read_scalars(j, s, "positional");
    if (j.contains("online_softmax")) read_group(j, s, "online_softmax");
    validate(s);
    return s;
}

json parse_spec_json(std::string_view text) {
    if (text.size() > max_spec_bytes)
        fail("the spec text is longer than the limit of " + std::to_string(max_spec_bytes >> 20) + " MiB.");
    // nlohmann's reader stops at a NUL as at the end of the text: what followed it would be ignored
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        fail("the spec holds a NUL byte at byte " + std::to_string(nul + 1) + ", which JSON text cannot.");
    parse_guard guard;
    try {
        return json::parse(text.begin(), text.end(), guard.callback());
    } catch (const nlohmann::json::exception& e) {
        // parse_error names the byte, out_of_range a number too large for a double; keep nlohmann's
        // detail without its "[json.exception...]" prefix, cut short and made valid UTF-8 (it can
        // quote the raw bytes it stopped at)
        std::string what = e.what();
        const auto bracket = what.find("] ");
        if (bracket != std::string::npos) what = what.substr(bracket + 2);
        const std::string read = "last read: '";  // the user's bytes sit between these quotes
        const auto from = what.find(read), to = what.rfind('\'');
        if (from != std::string::npos && to > from + read.size())
            what = what.substr(0, from + read.size()) + user_text(what.substr(from + read.size(), to - from - read.size())) +
                   what.substr(to);
        fail("the spec is not valid JSON (" + user_text(what, 4 * max_quoted_chars) + ").");
    }
}

spec parse_spec(std::string_view text) { return spec_from_json(parse_spec_json(text)); }

// ---- [SECTION] writing a spec ----

json spec_to_json(const spec& s) {
    json j = json::object();
    for (std::string_view name : sequence_top_fields()) j[std::string(name)] = nullptr;  // docs/spec.md's order
    spec& values = const_cast<spec&>(s);  // the table's accessors hand out writable spans; only read here
    for (const tensor_field& f : sequence_tensor_fields()) {
        const float_span v = f.in_spec(values);
        if (!v.data || !v.size) continue;
        json& at = json_make(j, f.path);
        at = json::array();
        if (f.rank == 1) {
            for (std::size_t i = 0; i < v.size; ++i) at.push_back(shortest_decimal(v.data[i]));
            continue;
        }
        for (std::size_t r = 0; r < v.size / v.cols; ++r) {
            json row = json::array();
            for (std::size_t c = 0; c < v.cols; ++c) row.push_back(shortest_decimal(v.data[r * v.cols + c]));
            at.push_back(std::move(row));
        }
    }
    for (const scalar_field& f : sequence_scalar_fields()) {
        if (!f.written(s)) continue;
        json& at = json_make(j, f.path);
        switch (f.kind) {
            case scalar_field::holds::whole: at = *f.whole(values); break;
            case scalar_field::holds::number: at = shortest_decimal(*f.number(values)); break;
            case scalar_field::holds::labels: at = *f.labels(values); break;
        }
    }
    j["score"] = to_string(s.score);
    // the kinds a word names ({"window": k}, {"matrix": …}, {"learned": …} and {"rotary": θ} are their rows of the tables)
    if (s.mask == mask_kind::none || s.mask == mask_kind::causal) j["mask"] = to_string(s.mask);
    if (s.positional != positional_kind::learned && s.positional != positional_kind::rotary) j["positional"] = to_string(s.positional);
    for (auto it = j.begin(); it != j.end();) it = it->is_null() ? j.erase(it) : std::next(it);
    return j;
}

}  // namespace attn
