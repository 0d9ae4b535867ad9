#include "io/json_read.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "attn/detail/packed_numbers.hpp"
#include "attn/spec_fields.hpp"
#include "attn/text.hpp"

namespace attn::json_read {

[[noreturn]] void fail(const std::string& sentence) { throw spec_error(sentence); }

namespace {
struct packed_span {
    const float* data = nullptr;
    std::size_t size = 0;
};
thread_local packed_span packed;  // set by an attn::packed_numbers alive on this thread
thread_local std::vector<packed_read>* packed_log = nullptr;  // set by an attn::packed_reads_log

/// Notes a packed field read, when a packed_reads_log is alive.
void log_packed(const std::string& name, std::size_t offset, std::size_t count) {
    if (packed_log) packed_log->push_back({name, offset, count});
}

/// The {"$f32": [offset, n…]} reference of a packed field, checked against the numbers sent; nullopt when
/// j is not one (or no numbers were sent).
std::optional<std::vector<std::size_t>> packed_reference(const json& j, std::size_t parts) {
    if (!packed.data || !j.is_object() || j.size() != 1 || !j.contains("$f32")) return std::nullopt;
    const json& r = j["$f32"];
    if (!r.is_array() || r.size() != parts) return std::nullopt;
    std::vector<std::size_t> out;
    for (const json& v : r) {
        if (!v.is_number_unsigned()) return std::nullopt;
        out.push_back(v.get<std::size_t>());
    }
    std::size_t count = 1;
    for (std::size_t k = 1; k < parts; ++k) count *= out[k];
    if (count == 0 || out[0] > packed.size || count > packed.size - out[0]) return std::nullopt;
    return out;
}
}  // namespace

}  // namespace attn::json_read

namespace attn {
packed_numbers::packed_numbers(const float* data, std::size_t size) { json_read::packed = {data, size}; }
packed_numbers::~packed_numbers() { json_read::packed = {}; }
packed_reads_log::packed_reads_log() { json_read::packed_log = &reads; }
packed_reads_log::~packed_reads_log() { json_read::packed_log = nullptr; }
}  // namespace attn

namespace attn::json_read {

std::string row_of(const std::string& name, std::size_t i) { return "row " + std::to_string(i + 1) + " of " + name; }

float read_number(const json& j, const std::string& name) {
    if (!j.is_number()) fail(name + " is " + std::string(j.type_name()) + " but must be a number.");
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(name + " is not a finite number.");
    if (std::fabs(v) > std::numeric_limits<float>::max())
        fail(name + " is " + user_text(j.dump()) + ", outside the float range (±3.4e38).");
    return static_cast<float>(v);
}

// building "x[3][7]" for every number would cost more than reading it: the name waits for a refusal
float read_element(const json& j, const std::string& name, std::size_t i, std::size_t c, bool matrix) {
    if (j.is_number()) {
        const double v = j.get<double>();
        if (std::isfinite(v) && std::fabs(v) <= std::numeric_limits<float>::max()) return static_cast<float>(v);
    }
    return read_number(j, matrix ? cell_at(name, i, c) : entry_at(name, i));  // throws, naming the element
}

vector read_vector(const json& j, const std::string& name) {
    if (const auto ref = packed_reference(j, 2)) {  // already floats: the module checked each was a finite float
        vector v = vector::from_shape({(*ref)[1]});
        std::copy(packed.data + (*ref)[0], packed.data + (*ref)[0] + v.size(), v.begin());
        log_packed(name, (*ref)[0], v.size());
        return v;
    }
    if (!j.is_array()) fail(name + " must be an array of numbers.");
    vector v = vector::from_shape({j.size()});
    for (std::size_t i = 0; i < j.size(); ++i) v(i) = read_element(j[i], name, i, 0, false);
    return v;
}

matrix read_matrix(const json& j, const std::string& name) {
    if (const auto ref = packed_reference(j, 3)) {
        matrix m = matrix::from_shape({(*ref)[1], (*ref)[2]});
        std::copy(packed.data + (*ref)[0], packed.data + (*ref)[0] + m.size(), m.begin());
        log_packed(name, (*ref)[0], m.size());
        return m;
    }
    if (!j.is_array()) fail(name + " must be an array of rows, each an array of numbers.");
    if (j.empty()) fail(name + " is empty: it needs at least one row.");
    for (std::size_t i = 0; i < j.size(); ++i)
        if (!j[i].is_array()) fail(row_of(name, i) + " must be an array of numbers.");
    const std::size_t cols = j[0].size();
    if (cols == 0) fail(row_of(name, 0) + " is empty: each row needs at least one number.");
    for (std::size_t i = 1; i < j.size(); ++i)
        if (j[i].size() != cols)
            fail(row_of(name, i) + " has " + std::to_string(j[i].size()) + " values but row 1 has " +
                 std::to_string(cols) + ": every row needs the same length.");
    matrix m = matrix::from_shape({j.size(), cols});
    for (std::size_t i = 0; i < j.size(); ++i)
        for (std::size_t c = 0; c < cols; ++c) m(i, c) = read_element(j[i][c], name, i, c, true);
    return m;
}

int read_whole(const json& j, const std::string& name, long long lo, long long hi) {
    if (!j.is_number()) fail(name + " is " + std::string(j.type_name()) + " but must be a whole number.");
    const std::string written = user_text(j.dump());
    if (j.is_number_float()) {
        const double v = j.get<double>();
        if (!std::isfinite(v) || std::floor(v) != v) fail(name + " is " + written + " but must be a whole number.");
        if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
            fail(name + " is " + written + "; " + (v < lo ? "at least " + std::to_string(lo) : "at most " + std::to_string(hi)) + ".");
        return static_cast<int>(v);
    }
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
        fail(name + " is " + written + "; at most " + std::to_string(hi) + ".");
    const long long v = j.get<long long>();
    if (v < lo) fail(name + " is " + written + "; at least " + std::to_string(lo) + ".");
    if (v > hi) fail(name + " is " + written + "; at most " + std::to_string(hi) + ".");
    return static_cast<int>(v);
}

std::vector<std::string> read_labels(const json& j, const std::string& name) {
    if (!j.is_array()) fail(name + " must be an array of strings.");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string()) fail(entry_at(name, i, "label") + " is " + std::string(j[i].type_name()) + " but must be a string.");
        out.push_back(j[i].get<std::string>());
    }
    return out;
}

const std::set<std::string> sequence_spec_fields = [] {
    std::set<std::string> names;
    for (std::string_view name : sequence_top_fields()) names.emplace(name);
    return names;
}();

void refuse_unknown(const json& j, const std::string& where, const std::set<std::string>& known) {
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) {
            std::string list;
            for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
            fail(where + " has an unknown field \"" + user_text(it.key()) + "\" (known: " + list + ").");
        }
}

void require_object(const json& j, const std::string& name) {
    if (!j.is_object()) fail(name + " must be an object.");
}

}  // namespace attn::json_read
