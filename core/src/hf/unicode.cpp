// Unicode for the Hugging Face byte-level BPE tokenizers (GPT-2, Llama 3, Qwen2): their pre-tokenizer regexes
// need \p{L}, \p{N} and \s, and Qwen2's tokenizer.json normalizer is NFC. The tables come from Python's
// unicodedata at configure time (core/cmake/unicode_tables.py writes hf/unicode_tables.hpp, naming the
// Unicode version); every lookup is a binary search in a sorted constant array.
//
// [SECTION] character classes · NFC · UTF-8
#include "hf/unicode.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "attn/lm.hpp"
#include "attn/spec.hpp"
#include "hf/unicode_tables.hpp"

namespace attn::hf::unicode {
namespace {

namespace t = tables;

template <std::size_t N>
bool in_ranges(const t::range (&r)[N], char32_t c) {
    const auto it = std::upper_bound(std::begin(r), std::end(r), static_cast<std::uint32_t>(c),
                                     [](std::uint32_t v, const t::range& x) { return v < x.first; });
    return it != std::begin(r) && c <= std::prev(it)->last;
}

// Hangul syllables are composed and decomposed by arithmetic (Unicode 14, section 3.12)
constexpr char32_t s_base = 0xAC00, l_base = 0x1100, v_base = 0x1161, t_base = 0x11A7;
constexpr char32_t l_count = 19, v_count = 21, t_count = 28, n_count = v_count * t_count, s_count = l_count * n_count;

constexpr std::uint64_t mask21 = (std::uint64_t{1} << 21) - 1;
char32_t dec_c(std::uint64_t e) { return static_cast<char32_t>(e >> 42); }
char32_t dec_a(std::uint64_t e) { return static_cast<char32_t>((e >> 21) & mask21); }
char32_t dec_b(std::uint64_t e) { return static_cast<char32_t>(e & mask21); }

/// The table entry of c's single-step canonical decomposition, or nullptr (nothing below U+00C0 decomposes).
const std::uint64_t* decomposition(char32_t c) {
    if (c < 0xC0) return nullptr;
    const auto* b = std::begin(t::decompositions);
    const auto* e = std::end(t::decompositions);
    const auto* it = std::lower_bound(b, e, std::uint64_t{c} << 42);
    return it != e && dec_c(*it) == c ? it : nullptr;
}

void decompose(char32_t c, std::u32string& out) {
    if (c >= s_base && c < s_base + s_count) {
        const char32_t s = c - s_base;
        out += l_base + s / n_count;
        out += v_base + (s % n_count) / t_count;
        if (s % t_count != 0) out += t_base + s % t_count;
        return;
    }
    const std::uint64_t* d = decomposition(c);
    if (!d) {
        out += c;
        return;
    }
    decompose(dec_a(*d), out);
    if (dec_b(*d) != 0) decompose(dec_b(*d), out);
}

/// The primary composite of (a, b), or 0 when the pair does not compose.
char32_t compose(char32_t a, char32_t b) {
    if (a >= l_base && a < l_base + l_count && b >= v_base && b < v_base + v_count)
        return s_base + ((a - l_base) * v_count + (b - v_base)) * t_count;
    if (a >= s_base && a < s_base + s_count && (a - s_base) % t_count == 0 && b > t_base && b < t_base + t_count)
        return a + (b - t_base);
    if (b < 0x300) return 0;  // no pair's second is below U+0300 (the generator checks)
    const auto key = [](std::uint16_t i) {
        const std::uint64_t e = t::decompositions[i];
        return std::uint64_t{dec_a(e)} << 21 | dec_b(e);
    };
    const std::uint64_t want = std::uint64_t{a} << 21 | b;
    const auto* it = std::lower_bound(std::begin(t::compositions), std::end(t::compositions), want,
                                      [&](std::uint16_t i, std::uint64_t v) { return key(i) < v; });
    return it != std::end(t::compositions) && key(*it) == want ? dec_c(t::decompositions[*it]) : 0;
}

}  // namespace

// ---- [SECTION] character classes ----

bool is_letter(char32_t c) {
    if (c < 0x80) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    return in_ranges(t::letter_ranges, c);
}

bool is_number(char32_t c) {
    if (c < 0x80) return c >= '0' && c <= '9';
    return in_ranges(t::number_ranges, c);
}

bool is_space(char32_t c) {
    if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

int combining_class(char32_t c) {
    if (c < 0x300) return 0;
    const auto it = std::upper_bound(std::begin(t::ccc_runs), std::end(t::ccc_runs),
                                     static_cast<std::uint32_t>(c) << 8 | 0xFF);
    return it == std::begin(t::ccc_runs) ? 0 : static_cast<int>(*std::prev(it) & 0xFF);
}

// ---- [SECTION] NFC ----

bool is_nfc_fast(const std::u32string& text) {
    return std::all_of(text.begin(), text.end(), [](char32_t c) { return c < 0x300; });
}

std::u32string nfc(const std::u32string& text) {
    if (is_nfc_fast(text)) return text;
    // canonical decomposition
    std::u32string d;
    d.reserve(text.size() + text.size() / 2);
    for (const char32_t c : text) decompose(c, d);
    // canonical ordering: each run of non-starters sorted by class, stably
    std::vector<int> cc(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) cc[i] = combining_class(d[i]);
    // (a stable sort per run, not an insertion sort: a hostile run of 200,000 marks would take 10^10 swaps)
    for (std::size_t i = 0; i < d.size();) {
        if (cc[i] == 0) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < d.size() && cc[end] != 0) ++end;
        std::vector<std::pair<int, char32_t>> run;
        for (std::size_t k = i; k < end; ++k) run.emplace_back(cc[k], d[k]);
        std::stable_sort(run.begin(), run.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t k = i; k < end; ++k) cc[k] = run[k - i].first, d[k] = run[k - i].second;
        i = end;
    }
    // canonical composition: a character joins the last starter unless a character between them blocks it
    // (class 0, or a class not below its own)
    std::u32string out;
    out.reserve(d.size());
    std::size_t starter = 0;
    bool have_starter = false;
    int last_class = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
        const char32_t c = d[i];
        const int k = cc[i];
        if (have_starter && (out.size() == starter + 1 || (last_class != 0 && last_class < k))) {
            if (const char32_t composite = compose(out[starter], c)) {
                out[starter] = composite;
                continue;
            }
        }
        if (k == 0) {
            starter = out.size();
            have_starter = true;
        }
        last_class = k;
        out += c;
    }
    return out;
}

// ---- [SECTION] UTF-8 ----

std::u32string decode_utf8(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto bad = [&] {
            return spec_error("the text is not valid UTF-8 (byte " + std::to_string(i) + ").");
        };
        const unsigned char b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) throw bad();
        char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < len; ++k) {
            const unsigned char cb = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((cb >> 6) != 2) throw bad();
            c = (c << 6) | (cb & 0x3F);
        }
        constexpr char32_t min_of[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < min_of[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) throw bad();
        out += c;
        i += static_cast<std::size_t>(len);
    }
    return out;
}

std::string encode_utf8(std::u32string_view text) {
    std::string s;
    s.reserve(text.size());
    for (const char32_t c : text) s += lm::encode_utf8(c);  // the character model's one encoder
    return s;
}

}  // namespace attn::hf::unicode
