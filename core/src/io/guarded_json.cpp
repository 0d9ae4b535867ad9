// The header JSON guard and the 16-bit floats: see guarded_json.hpp.
#include "io/guarded_json.hpp"

#include <cstring>
#include <unordered_set>
#include <vector>

#include "attn/spec.hpp"
#include "attn/text.hpp"

namespace attn::io {

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu, bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else {  // subnormal: normalise
            int e = -1;
            do { ++e; mant <<= 1; } while ((mant & 0x400u) == 0);
            bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else if (exp == 31) bits = sign | 0x7F800000u | (mant << 13);
    else bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::uint16_t float_to_half(float f) {  // round to nearest even, as numpy's astype(float16)
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t ax = x & 0x7FFFFFFFu;
    if (ax >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u : 0));
    if (ax >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // overflows to infinity
    if (ax < 0x38800000u) {  // subnormal half (or zero)
        if (ax < 0x33000000u) return static_cast<std::uint16_t>(sign);
        const std::uint32_t e = ax >> 23, m = (ax & 0x7FFFFFu) | 0x800000u;
        const std::uint32_t shift = 126 - e;  // the half's unit is 2^-24; f = m · 2^(e - 150)
        const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        std::uint32_t q = m >> shift;
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return static_cast<std::uint16_t>(sign | q);
    }
    std::uint32_t h = ((ax >> 13) - ((127 - 15) << 10));
    const std::uint32_t rem = ax & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

namespace {

/// Refuses JSON text nested deeper than `most`, counted over its bytes before any parsing
/// (brackets inside strings skipped): a 16 MiB header of "[" took 2.4 s and 1.27 GB to be refused by the parser.
void check_nesting(const std::uint8_t* text, std::size_t size, const std::string& prefix, const std::string& what, std::uint64_t most) {
    std::uint64_t depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < size; ++i) {
        const std::uint8_t c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > most) throw spec_error(prefix + what + " nests arrays and objects more than " + std::to_string(most) + " levels deep.");
        } else if ((c == ']' || c == '}') && depth > 0) --depth;
    }
}

}  // namespace

/// Parses JSON text (`what` names it in a refusal) as nlohmann does, but refuses while parsing a
/// key given twice in one object (nlohmann keeps the last one, other readers the first) and more than
/// `most_values` values: the tree is never built for a hostile text.
template <class Json>
Json parse_guarded(const std::uint8_t* text, std::size_t size, const std::string& prefix, const std::string& what,
                   std::uint64_t most_values, std::uint64_t most_nesting) {
    const auto refuse = [&](const std::string& sentence) { throw spec_error(prefix + sentence); };
    check_nesting(text, size, prefix, what, most_nesting);
    std::vector<std::unordered_set<std::string>> keys;  // the keys so far of each object being read
    std::uint64_t values = 0;
    auto guard = [&](int, typename Json::parse_event_t event, Json& parsed) {
        switch (event) {
            case Json::parse_event_t::object_start: keys.emplace_back(); [[fallthrough]];
            case Json::parse_event_t::array_start:
                if (++values > most_values) refuse(what + " holds more than " + std::to_string(most_values) + " values.");
                break;
            case Json::parse_event_t::object_end: keys.pop_back(); break;
            case Json::parse_event_t::key: {
                const std::string& key = parsed.template get_ref<const std::string&>();
                if (!keys.back().insert(key).second)  // a set: tokenizer.json's vocabulary is one object of 150,000 keys
                    refuse(what + " has the key \"" + user_text(key) + "\" twice: each key must be given once.");
                break;
            }
            case Json::parse_event_t::value:
                if (!parsed.is_structured() && ++values > most_values)
                    refuse(what + " holds more than " + std::to_string(most_values) + " values.");
                break;
            default: break;
        }
        return true;
    };
    Json j = Json::parse(text, text + size, guard, false);
    if (j.is_discarded()) refuse(what + " is not valid JSON.");
    return j;
}

template json parse_guarded<json>(const std::uint8_t*, std::size_t, const std::string&, const std::string&, std::uint64_t, std::uint64_t);
template keyed_json parse_guarded<keyed_json>(const std::uint8_t*, std::size_t, const std::string&, const std::string&, std::uint64_t,
                                              std::uint64_t);

}  // namespace attn::io
