#include "attn/format.hpp"

#include <cmath>
#include <cstdio>
#include <cctype>

namespace attn {
namespace {

/// "1.20e-07" -> "1.20e-7", "1e+09" -> "1e9": exponents as people write them.
std::string tidy_exponent(std::string s) {
    const auto e = s.find('e');
    if (e == std::string::npos) return s;
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    const bool negative = exponent[0] == '-';
    exponent.erase(0, exponent.find_first_not_of("+-"));
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    return mantissa + "e" + (negative ? "-" : "") + exponent;
}

}  // namespace

std::string format_cell(float v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "−Infinity";
    const double x = v, a = std::fabs(x);
    char buf[40];
    if (a >= 1e5) {
        const bool power_of_ten = a == std::pow(10.0, std::round(std::log10(a)));
        std::snprintf(buf, sizeof buf, power_of_ten ? "%.0e" : "%.2e", x);
    } else if (x == std::floor(x)) {
        std::snprintf(buf, sizeof buf, "%.0f", x);
    } else if (a < 5e-5) {
        std::snprintf(buf, sizeof buf, "%.1e", x);
    } else {
        std::snprintf(buf, sizeof buf, "%.4f", x);
    }
    std::string s = tidy_exponent(buf);
    if (s == "-0") s = "0";
    if (!s.empty() && s[0] == '-') s.replace(0, 1, "−");
    return s;
}

std::string fill_numbers(std::string_view text, const trace& t, std::size_t head) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        // the next "{name[i][j]}": a name of lowercase letters and _, then two 1-based indices
        const std::size_t open = text.find('{', at);
        if (open == std::string_view::npos) break;
        out.append(text.substr(at, open - at));
        std::size_t p = open + 1;
        while (p < text.size() && (std::islower(static_cast<unsigned char>(text[p])) || text[p] == '_')) ++p;
        const std::string name(text.substr(open + 1, p - open - 1));
        std::size_t index[2] = {0, 0};
        bool ok = !name.empty();
        for (std::size_t& k : index) {
            ok = ok && p < text.size() && text[p] == '[';
            const std::size_t digits = ok ? ++p : p;
            while (ok && p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) k = k * 10 + std::size_t(text[p++] - '0');
            ok = ok && p > digits && p < text.size() && text[p++] == ']';
        }
        ok = ok && p < text.size() && text[p] == '}';
        if (!ok) {  // not a placeholder: keep the brace and go on after it
            out += '{';
            at = open + 1;
            continue;
        }
        at = p + 1;
        std::string value = "—";
        const auto id = stage_from_name(name);
        const std::optional<stage_view> v = id ? t.stage(*id) : std::nullopt;
        const std::size_t i = index[0], j = index[1];
        if (v && i >= 1 && j >= 1) {
            const std::size_t rows = v->shape[v->shape.size() - 2], cols = v->shape.back();
            const std::size_t heads = v->shape.size() == 3 ? v->shape[0] : 1;
            if (i <= rows && j <= cols && head < heads) value = format_cell(v->data[(head * rows + (i - 1)) * cols + (j - 1)]);
        }
        out += value;
    }
    if (at < text.size()) out.append(text.substr(at));
    return out;
}

}  // namespace attn
