// The vision spec <-> JSON: "kind": "vision", a block, a C × H × W feature map and the block's parameters,
// which the reader and the writer walk in the field table (vision_fields.cpp): its shape words are the rules
// (one rule is its own: a variance is never negative). Every refusal is one sentence naming the field.
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "attn/format.hpp"
#include "attn/limits.hpp"
#include "attn/spec_fields.hpp"
#include "attn/text.hpp"
#include "attn/vision.hpp"
#include "io/json_read.hpp"

namespace attn {
namespace {

using namespace json_read;

const char* const block_names[] = {"se", "eca", "cbam", "ca"};

std::string count(std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

void read_feature(const json& j, vision_spec& s) {
    const std::string name = "feature";
    if (!j.is_array() || j.empty()) fail("feature must be a C × H × W array: one H × W matrix per channel.");
    if (j.size() > max_channels) fail("feature has " + count(j.size(), "channel") + "; at most " + std::to_string(max_channels) + ".");
    s.c = j.size();
    for (std::size_t c = 0; c < s.c; ++c) {
        const matrix m = read_matrix(j[c], "feature[" + std::to_string(c) + "]");
        if (c == 0) s.h = m.shape(0), s.w = m.shape(1);
        else if (m.shape(0) != s.h || m.shape(1) != s.w)
            fail("feature[" + std::to_string(c) + "] is " + std::to_string(m.shape(0)) + " × " + std::to_string(m.shape(1)) +
                 " but feature[0] is " + std::to_string(s.h) + " × " + std::to_string(s.w) + ": every channel needs the same size.");
        if (s.h > max_map_side || s.w > max_map_side)
            fail("feature is " + std::to_string(s.h) + " × " + std::to_string(s.w) + " per channel; at most " + std::to_string(max_map_side) + " on a side.");
        s.feature.insert(s.feature.end(), m.begin(), m.end());
    }
}

std::size_t odd_kernel(std::size_t k, const std::string& name) {
    if (k % 2 == 0) fail(name + " is " + std::to_string(k) + " wide: the kernel size must be odd, so it has a centre.");
    if (k > max_vision_kernel) fail(name + " is " + std::to_string(k) + " wide; at most " + std::to_string(max_vision_kernel) + ".");
    return k;
}

void check_variances(const batch_norm& bn) {
    for (std::size_t o = 0; o < bn.var.size(); ++o)
        if (bn.var[o] < 0) fail("ca.bn.var[" + std::to_string(o) + "] is " + format_cell(bn.var[o]) + ": a variance cannot be negative.");
}

/// "ca.bn.gamma" → {"ca.bn", "gamma"}: the object a field lies in, and its name there.
std::pair<std::string_view, std::string_view> split_path(std::string_view path) {
    const std::size_t dot = path.rfind('.');
    return {path.substr(0, dot), path.substr(dot + 1)};
}

/// "channels × m" → {"channels", "m"}.
std::pair<std::string_view, std::string_view> two_words(std::string_view shape) {
    const std::string_view by = " × ";
    const std::size_t at = shape.find(by);
    return {shape.substr(0, at), shape.substr(at + by.size())};
}

const vision_tensor_field& field_at(std::string_view path) {
    for (const vision_tensor_field& f : vision_tensor_fields())
        if (f.path == path) return f;
    throw std::logic_error("no vision field " + std::string(path));
}

/// The sizes a block's shape words name, as its fields are read: "channels" is the feature map's C, "m"
/// the columns of the first matrix that names it (0 until then: that matrix sets it).
struct block_sizes {
    std::size_t channels, m = 0;
    std::string m_from;  // the matrix that set m
    std::size_t of(std::string_view word) const { return word == "channels" ? channels : word == "m" ? m : 0; }
    /// Why a size is what it is, for a refusal: "channels", "m, the columns of se.w1".
    std::string why(std::string_view word) const { return word == "channels" ? "channels" : "m, the columns of " + m_from; }
    /// What a missing field must be: its shape words, a size's value once known ("m = 2, the columns of
    /// ca.w1"), then what it is for ("2 × K × K: one K × K kernel for the mean map and …").
    std::string needed(const vision_tensor_field& f) const {
        std::string words(f.shape);
        if (const std::size_t size = of(f.shape)) words += " = " + std::to_string(size) + (f.shape == "m" ? ", the columns of " + m_from : "");
        return f.about.empty() ? words : words + ": " + std::string(f.about);
    }
    /// Where a vector's length comes from: "feature has 3 channels", "ca.w1 has 2 columns".
    std::string held(std::string_view word) const {
        return word == "channels" ? "feature has " + count(channels, "channel") : m_from + " has " + count(m, "column");
    }
};

/// A weight matrix: its rows and columns are its shape words' sizes; it becomes its dense layer (bias 0 until read).
void read_weights(const vision_tensor_field& f, const json& value, vision_spec& s, block_sizes& z) {
    const std::string name(f.path);
    const auto [rows, cols] = two_words(f.shape);
    const matrix m = read_matrix(value, name);
    if (const std::size_t want = z.of(rows); want && m.shape(0) != want)
        fail(name + " has " + count(m.shape(0), "row") + " but needs " + std::to_string(want) + " (" + z.why(rows) + ").");
    if (const std::size_t want = z.of(cols); want && m.shape(1) != want)
        fail(name + " has " + count(m.shape(1), "column") + " but needs " + std::to_string(want) + " (" + z.why(cols) + ").");
    if (m.shape(1) > max_channels) fail(name + " has " + count(m.shape(1), "column") + "; at most " + std::to_string(max_channels) + ".");
    if (cols == "m" && !z.m) z.m = m.shape(1), z.m_from = name;
    *f.layer(s) = {m.shape(0), m.shape(1), std::vector<float>(m.begin(), m.end()), std::vector<float>(m.shape(1), 0.0f)};
}

/// A vector: a bias as long as its matrix is wide, an odd kernel, or as long as its shape word says.
void read_values(const vision_tensor_field& f, const json& value, vision_spec& s, const block_sizes& z) {
    const std::string name(f.path);
    const vector v = read_vector(value, name);
    if (!f.bias_of.empty()) {
        const std::size_t out = field_at(f.bias_of).layer(s)->out;
        if (v.size() != out) fail(name + " has " + count(v.size(), "value") + " but " + std::string(f.bias_of) + " has " + count(out, "column") + ".");
    } else if (f.shape == "k") {
        odd_kernel(v.size(), name);
    } else if (v.size() != z.of(f.shape)) {
        fail(name + " has " + count(v.size(), "value") + " but " + z.held(f.shape) + ".");
    }
    f.in_spec(s)->assign(v.begin(), v.end());
}

/// A list of square kernels of one odd width K ("2 × K × K"), kept back to back.
void read_kernels(const vision_tensor_field& f, const json& value, vision_spec& s) {
    const std::string name(f.path);
    const std::size_t n = std::stoul(std::string(two_words(f.shape).first));
    if (!value.is_array() || value.size() != n) fail(name + " must be " + std::string(f.shape) + ": " + std::string(f.about) + ".");
    std::vector<float>& out = *f.in_spec(s);
    std::size_t& side = *f.side(s);
    for (std::size_t k = 0; k < n; ++k) {
        const std::string item = name + "[" + std::to_string(k) + "]";
        const matrix m = read_matrix(value[k], item);
        if (m.shape(0) != m.shape(1)) fail(item + " is " + std::to_string(m.shape(0)) + " × " + std::to_string(m.shape(1)) + " but must be square.");
        if (k == 0) side = odd_kernel(m.shape(0), item);
        else if (m.shape(0) != side) fail(item + " is " + std::to_string(m.shape(0)) + " wide but " + name + "[0] is " + std::to_string(side) + ".");
        out.insert(out.end(), m.begin(), m.end());
    }
}

/// A number: "positive" ones must be above 0.
void read_scalar(const vision_tensor_field& f, const json& value, vision_spec& s) {
    const float v = read_number(value, std::string(f.path));
    if (f.shape == "positive" && !(v > 0))
        fail(std::string(f.path) + " is " + format_cell(v) + " but must be positive (" + std::string(f.about) + ").");
    *f.number(s) = v;
}

/// The block's parameters, every field of its rows in the table's order: the unknown refused, the missing
/// ones it needs named, each read by its rank and checked against its shape words.
void read_block(const json& j, vision_spec& s) {
    const std::string block = to_string(s.block);
    // the objects the block's fields lie in (the block's own, and optional ones such as ca.bn), and their names
    std::map<std::string, std::set<std::string>> objects{{block, {}}};
    for (const vision_tensor_field& f : vision_tensor_fields()) {
        if (f.block != block) continue;
        const auto [parent, name] = split_path(f.path);
        if (!objects.count(std::string(parent))) objects[block].insert(std::string(split_path(parent).second));  // ca.bn: "bn" in ca
        objects[std::string(parent)].insert(std::string(name));
    }
    for (const auto& [path, names] : objects) {
        const json* object = json_at(j, path);
        if (!object) continue;  // an optional object left out (the block's own is there: the caller checked)
        require_object(*object, path);
        refuse_unknown(*object, path, names);
    }
    block_sizes sizes{s.c, 0, {}};
    for (const vision_tensor_field& f : vision_tensor_fields()) {
        if (f.block != block) continue;
        const auto [parent, name] = split_path(f.path);
        const json* object = json_at(j, parent);
        if (!object) continue;  // an optional object's fields: absent with it
        if (f.open) f.open(s);  // the object is given: the spec has it
        if (!object->contains(name)) {
            if (f.required) fail(std::string(parent) + " needs " + std::string(name) + " (" + sizes.needed(f) + ").");
            continue;  // a default applies: a bias of 0, a number's own
        }
        const json& value = (*object)[std::string(name)];
        switch (f.rank) {
            case 0: read_scalar(f, value, s); break;
            case 1: read_values(f, value, s, sizes); break;
            case 2: read_weights(f, value, s, sizes); break;
            default: read_kernels(f, value, s); break;
        }
    }
    if (s.bn) check_variances(*s.bn);
}

}  // namespace

bool is_vision_spec(const json& j) {
    if (!j.is_object()) return false;
    if (!j.contains("kind")) {
        for (const char* f : {"feature", "block", "channels"})
            if (j.contains(f)) fail(std::string(f) + " belongs to a vision spec: add \"kind\": \"vision\".");
        return false;
    }
    if (j["kind"] != "vision")
        fail("kind is " + user_text(j["kind"].dump()) + " but the only kind is \"vision\" (a sequence spec has no kind).");
    return true;
}

void validate_numbers(const vision_spec& s) {
    if (s.bn) check_variances(*s.bn);
}

vision_spec vision_spec_from_json(const json& j) {
    require_object(j, "the spec");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (sequence_spec_fields.count(it.key()))
            fail(user_text(it.key()) + " belongs to the sequence spec; a vision spec has kind, block, feature, channels and its block's parameters.");
    refuse_unknown(j, "the vision spec", {"kind", "block", "feature", "channels", "se", "eca", "cbam", "ca"});
    vision_spec s;
    if (!j.contains("block")) fail("block is missing: \"se\", \"eca\", \"cbam\" or \"ca\".");
    const json& b = j["block"];
    bool known = false;
    for (std::size_t k = 0; k < 4; ++k)
        if (b == block_names[k]) s.block = vision_block(k), known = true;
    if (!known) fail("block is " + user_text(b.dump()) + " but must be \"se\", \"eca\", \"cbam\" or \"ca\".");
    for (const char* other : block_names)
        if (j.contains(other) && std::string(other) != to_string(s.block))
            fail(std::string(other) + " belongs to block \"" + other + "\", but block is \"" + to_string(s.block) + "\".");
    if (!j.contains("feature")) fail("feature is missing: " + std::string(field_at("feature").about) + ".");
    read_feature(j["feature"], s);
    if (j.contains("channels")) {
        s.channels = read_labels(j["channels"], "channels");
        if (s.channels.size() != s.c) fail("channels has " + count(s.channels.size(), "label") + " but feature has " + count(s.c, "channel") + ".");
    } else {
        for (std::size_t c = 0; c < s.c; ++c) s.channels.push_back("c" + std::to_string(c + 1));
    }
    const char* block = to_string(s.block);
    if (!j.contains(block)) fail(std::string("block \"") + block + "\" needs its parameters in \"" + block + "\".");
    read_block(j, s);
    if (s.hidden() > max_channels) fail("the bottleneck has " + std::to_string(s.hidden()) + " features; at most " + std::to_string(max_channels) + ".");
    return s;
}

namespace {

json rows_json(const float* data, std::size_t rows, std::size_t cols) {
    json out = json::array();
    for (std::size_t r = 0; r < rows; ++r) {
        json row = json::array();
        for (std::size_t c = 0; c < cols; ++c) row.push_back(shortest_decimal(data[r * cols + c]));
        out.push_back(std::move(row));
    }
    return out;
}

json list_json(const std::vector<float>& v) {
    json out = json::array();
    for (float x : v) out.push_back(shortest_decimal(x));
    return out;
}

}  // namespace

json vision_spec_to_json(const vision_spec& s) {
    json feature = json::array();
    for (std::size_t c = 0; c < s.c; ++c) feature.push_back(rows_json(s.feature.data() + c * s.h * s.w, s.h, s.w));
    json out = {{"kind", "vision"}, {"block", to_string(s.block)}, {"feature", std::move(feature)}, {"channels", s.channels}};
    // the block's fields in the table's order, at their paths (a default written out: a bias of 0, bn.eps)
    vision_spec& fields = const_cast<vision_spec&>(s);  // the rows' accessors hand out the spec's members; nothing here writes
    for (const vision_tensor_field& f : vision_tensor_fields()) {
        if (f.block != to_string(s.block)) continue;
        json value;
        if (f.rank == 0) {
            const float* v = f.number(fields);
            if (!v) continue;  // in an optional object the spec does not have
            value = shortest_decimal(*v);
        } else if (f.rank == 1) {
            const std::vector<float>* v = f.in_spec(fields);
            if (!v) continue;
            value = list_json(*v);
        } else if (f.rank == 2) {
            const dense_layer& l = *f.layer(fields);
            value = rows_json(l.w.data(), l.in, l.out);
        } else {  // as many square kernels of side K as the shape's first word, back to back
            const std::vector<float>& v = *f.in_spec(fields);
            const std::size_t k = *f.side(fields), count = std::stoul(std::string(two_words(f.shape).first));
            value = json::array();
            for (std::size_t n = 0; n < count; ++n)
                value.push_back((n + 1) * k * k <= v.size() ? rows_json(v.data() + n * k * k, k, k) : json::array());
        }
        json_make(out, f.path) = std::move(value);
    }
    return out;
}

}  // namespace attn
