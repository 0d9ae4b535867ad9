// The gradient sentences (explain_grad_cell): for every cell of every stage's dL/d(stage), on specs
// that between them have every score function, masks, heads, W_o, positional encodings, cross-attention
// and both losses, the sentence ends in the adjoint's own value, and its written-out arithmetic — the
// numbers between the formula and the result — evaluates (here, in double) to that value.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

/// Evaluates the arithmetic the sentences write: numbers as format_exact writes them (U+2212 minus),
/// +, −, ×, ÷, parentheses and ². Sets ok = false on anything else.
struct arithmetic {
    std::string s;
    std::size_t at = 0;
    bool ok = true;

    bool eat(const std::string& token) {
        while (at < s.size() && s[at] == ' ') ++at;
        if (s.compare(at, token.size(), token) != 0) return false;
        at += token.size();
        return true;
    }
    double number() {
        while (at < s.size() && s[at] == ' ') ++at;
        std::string digits;
        while (at < s.size() && (std::isdigit(static_cast<unsigned char>(s[at])) || s[at] == '.' || s[at] == 'e' ||
                                 (s[at] == '-' && !digits.empty() && digits.back() == 'e')))
            digits += s[at++];
        if (digits.empty()) ok = false;
        return std::atof(digits.c_str());
    }
    double factor() {
        if (eat("−")) return -factor();
        double v;
        if (eat("(")) {
            v = expr();
            if (!eat(")")) ok = false;
        } else {
            v = number();
        }
        if (eat("²")) v *= v;
        return v;
    }
    double term() {
        double v = factor();
        for (;;) {
            if (eat("×")) v *= factor();
            else if (eat("÷")) v /= factor();
            else return v;
        }
    }
    double expr() {
        double v = term();
        for (;;) {
            if (eat("+")) v += term();
            else if (eat("−")) v -= term();
            else return v;
        }
    }
    double all() {
        const double v = expr();
        while (at < s.size() && s[at] == ' ') ++at;
        if (at != s.size()) ok = false;
        return v;
    }
};

std::vector<std::string> segments(const std::string& sentence) {
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t k; (k = sentence.find(" = ", from)) != std::string::npos; from = k + 3) out.push_back(sentence.substr(from, k - from));
    out.push_back(sentence.substr(from));
    return out;
}

const char* const specs[] = {
    // self-attention, two heads, scaled, causal, W_o with bias, a learned table, mse
    R"({"x": [[1, 0.5, -1, 2], [0, 1, 0.25, 1], [1, 1, 0, -0.5]], "heads": 2, "mask": "causal",
        "weights": {"wq": [[1,0,0.5,1],[0,1,1,0],[1,-1,0,0],[0,0,1,1]], "wk": [[0.5,0,0,1],[0,1,0,0],[1,0,1,0],[0,0.5,0,1]],
                    "wv": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], "bv": [0.1, 0, -0.1, 0.2],
                    "wo": [[1,0.5,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]], "bo": [0, 0.1, 0, 0]},
        "positional": {"learned": [[0.1,0,0,0],[0,0.1,0,0],[0,0,0.1,0]]},
        "target": [[0, 1, 0, 0], [1, 0, 0, 0], [0.5, 0, 0.5, 0]]})",
    // cross-attention, dot, sinusoidal PE, no weights at all, cross-entropy
    R"({"x": [[1, 0], [0, 1]], "memory": [[1, 1], [0, 1], [1, 0]], "score": "dot", "positional": "sinusoidal",
        "loss": "cross_entropy", "labels": [1, 0]})",
    // bilinear with a window mask and a bias on Q
    R"({"x": [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]], "score": "bilinear", "mask": {"window": 1},
        "weights": {"wq": [[1,0,0],[0,1,0],[0,0,1]], "bq": [0.1, 0, 0]}, "bilinear": {"w": [[0.5,0,0.1],[0,1,0],[0.2,0,0.5]]},
        "target": [[0,0,1],[0,1,0],[1,0,0],[0,1,0]]})",
    // additive, a padding-style matrix mask with an empty row, cross-entropy
    R"({"x": [[1, 0], [0, 1], [1, 1]], "score": "additive", "mask": {"matrix": [[0,0,0],[1,1,0],[1,1,1]]},
        "additive": {"w1": [[1,0],[0,1]], "w2": [[0.5,0],[0,0.5]], "v": [1, -1]},
        "loss": "cross_entropy", "labels": [0, 1, 1]})",
};

}  // namespace

TEST_CASE("explain_grad_cell: every sentence ends in the adjoint's value and its arithmetic adds up to it") {
    int sentences = 0, evaluated = 0;
    for (const char* text : specs) {
        const auto [s, l] = attn::parse_grad_spec(text);
        const attn::grad_result g = attn::compute_grad(s, l);
        for (const attn::stage_view& v : g.adjoint.stages()) {
            const bool merged = v.id == attn::stage_id::q || v.id == attn::stage_id::k || v.id == attn::stage_id::v;
            const std::size_t heads = merged || v.shape.size() == 2 ? 1 : v.shape[0];
            const std::size_t rows = v.shape[v.shape.size() - 2], cols = merged ? s.d_model() : v.shape.back();
            for (std::size_t h = 0; h < heads; ++h)
                for (std::size_t i = 0; i < rows; ++i)
                    for (std::size_t j = 0; j < cols; ++j) {
                        const std::string said = attn::explain_grad_cell(g, l, v.id, h, i, j, true);
                        INFO(attn::stage_name(v.id) << " (" << h << ", " << i << ", " << j << "): " << said);
                        const std::vector<std::string> parts = segments(said);
                        REQUIRE(parts.size() >= 2);
                        const std::size_t d_h = s.d_head();
                        const float value = merged ? v.data[((j / d_h) * rows + i) * d_h + j % d_h] : v.data[(h * rows + i) * cols + j];
                        std::string last = parts.back();
                        last = last.substr(0, last.find(':'));  // "0: the mask …"
                        CHECK(last == attn::format_exact(value));
                        ++sentences;
                        if (parts.size() < 4) continue;  // name = formula = numbers = result
                        arithmetic a{parts[parts.size() - 2]};
                        const double got = a.all();
                        if (!a.ok) continue;
                        CHECK(std::fabs(got - value) <= 1e-6 + 1e-4 * std::fabs(value));
                        ++evaluated;
                    }
        }
        CHECK_THROWS_WITH_AS(attn::explain_grad_cell(g, l, attn::stage_id::weights, 0, 99, 0), "stage weights has no cell (100, 1).",
                             attn::spec_error);
    }
    const std::string said = std::to_string(sentences) + " gradient sentences, " + std::to_string(evaluated) + " with their arithmetic evaluated";
    MESSAGE(said);
    CHECK(evaluated > sentences / 2);
}
