#include "attn/text.hpp"

#include <cstdint>
#include <cstdio>


namespace attn {
namespace {

/// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one
/// (overlong forms, surrogates and code points past U+10FFFF are invalid too).
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
    const std::uint8_t b = byte(i);
    if (b < 0x80) return 1;
    std::size_t n;
    std::uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;  // no UTF-16 surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else return 0;
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

}  // namespace

std::string user_text(std::string_view text, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++chars) {
        if (chars == max_chars) return out + "…";
        const std::size_t n = utf8_length(text, i);
        const auto c = static_cast<unsigned char>(text[i]);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD for a byte that starts no valid character
            ++i;
        } else if (c == '\n') out += "\\n", ++i;
        else if (c == '\t') out += "\\t", ++i;
        else if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04X", c);
            out += buf;
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string cell_at(const std::string& name, std::size_t i, std::size_t c) {
    return name + "[" + std::to_string(i) + "][" + std::to_string(c) + "] (row " + std::to_string(i + 1) + ", column " +
           std::to_string(c + 1) + ")";
}

std::string entry_at(const std::string& name, std::size_t i, const char* what) {
    return name + "[" + std::to_string(i) + "] (" + what + " " + std::to_string(i + 1) + ")";
}

}  // namespace attn
