// `attn example ID`: a readable walk through every stage, with token labels on the axes
// (like seed 000's seaborn heatmap, in text). CJK labels count two columns wide.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "attn/attn.hpp"
#include "cli.hpp"

namespace attn::cli {
namespace {

/// Columns a UTF-8 string takes in a terminal: East Asian wide characters take two.
std::size_t display_width(const std::string& s) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t len = 4;  // the lead byte says how many bytes the character takes
        if (c < 0xF0) len = 3;
        if (c < 0xE0) len = 2;
        if (c < 0x80) len = 1;
        char32_t cp = len == 1 ? c : c & (0xFF >> (len + 1));
        for (std::size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
        const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                          (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                          (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                          (cp >= 0xFFE0 && cp <= 0xFFE6);
        width += wide ? 2 : 1;
        i += len;
    }
    return width;
}

std::string pad(const std::string& s, std::size_t width) {
    const std::size_t w = display_width(s);
    return w >= width ? s : std::string(width - w, ' ') + s;
}

void print_matrix(const float* data, const std::vector<std::string>& rows, const std::vector<std::string>& cols) {
    std::size_t label_w = 0, cell_w = 10;
    for (const std::string& r : rows) label_w = std::max(label_w, display_width(r));
    for (const std::string& c : cols) cell_w = std::max(cell_w, display_width(c) + 1);
    std::cout << std::string(label_w, ' ');
    for (const std::string& c : cols) std::cout << pad(c, cell_w);
    std::cout << '\n';
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::cout << pad(rows[i], label_w);
        for (std::size_t j = 0; j < cols.size(); ++j) std::cout << pad(format_cell(data[i * cols.size() + j]), cell_w);
        std::cout << '\n';
    }
}

std::string text(const json& j, const std::string& lang) { return j.at(lang).get<std::string>(); }

/// The complexity example: the n² stages measured live at each documented size.
void print_complexity(const json& doc, const std::string& lang) {
    std::cout << (lang == "zh" ? "\n实时测量（单头，d = " : "\nMeasured live (one head, d = ") << doc["d_model"] << "):\n";
    char line[128];
    std::snprintf(line, sizeof line, "%8s %12s %14s %12s\n", "n", "n^2 cells", "trace bytes", "time (ms)");
    std::cout << line;
    for (const json& n : doc["sizes"]) {
        const spec s = spec_from_json(complexity_spec_json(n.get<std::size_t>(), doc["d_model"].get<std::size_t>()));
        const auto start = std::chrono::steady_clock::now();
        const trace t = compute_trace(s);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::snprintf(line, sizeof line, "%8zu %12zu %14zu %12.3f\n", n.get<std::size_t>(), t.weights.size(), t.bytes(), ms);
        std::cout << line;
    }
    if (!doc.contains("streaming_sizes")) return;
    // the same attention streamed a block of keys at a time (the online-softmax example): memory O(n·d)
    std::cout << (lang == "zh" ? "\n流式内核（在线 softmax，不保存 n × n 矩阵）：\n" : "\nThe streaming kernel (online softmax, no n × n matrix):\n");
    std::snprintf(line, sizeof line, "%8s %12s %14s %12s\n", "n", "n^2 cells", "bytes", "time (ms)");
    std::cout << line;
    const std::size_t d = doc["d_model"].get<std::size_t>();
    for (const json& size : doc["streaming_sizes"]) {
        const std::size_t n = size.get<std::size_t>();
        const std::vector<float> x = complexity_inputs(n, d);
        std::vector<float> out(n * d);
        const auto start = std::chrono::steady_clock::now();
        attention_streaming(out.data(), x.data(), x.data(), x.data(), n, n, d, 1, false);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::snprintf(line, sizeof line, "%8zu %12zu %14zu %12.3f\n", n, n * n, attention_streaming_bytes(n, n, d, 1), ms);
        std::cout << line;
    }
}

}  // namespace

namespace {

/// A vision example: its texts, then every stage (a vector as one row, a map as rows × columns,
/// C × … stages one channel after another).
int print_vision_example(const std::string& id, const std::string& variant, const std::string& lang) {
    const json& doc = example_document(id);
    const vision_trace t = compute_vision(example_vision_spec(id, variant));
    const json notes = example_notes(id, variant);
    std::cout << text(doc["title"], lang) << "\n" << text(doc["source"], lang) << "\n\n" << text(doc["summary"], lang) << "\n\n"
              << (lang == "zh" ? "输入：" : "Inputs: ") << text(doc["embeddings"], lang) << "\n";
    const auto numbered = [](std::size_t n, const char* prefix) {
        std::vector<std::string> out;
        for (std::size_t k = 0; k < n; ++k) out.push_back(prefix + std::to_string(k + 1));
        return out;
    };
    for (const vision_stage& s : t.stages) {
        const vision_stage_info& info = vision_stage_info_of(s.id);
        std::cout << "\n== " << s.id << ": " << (lang == "zh" ? info.title.zh : info.title.en) << "   " << vision_formula(t.spec.block, s.id) << "\n";
        if (notes.contains(s.id)) std::cout << "   " << text(notes[s.id], lang) << "\n";
        const std::size_t cols = s.shape.back(), rows = s.shape.size() == 1 ? 1 : s.shape[s.shape.size() - 2];
        const std::size_t blocks = s.shape.size() == 3 ? s.shape[0] : 1;
        const bool per_channel = s.shape[0] == t.spec.c && s.shape.size() >= 2;
        for (std::size_t b = 0; b < blocks; ++b) {
            if (blocks > 1) std::cout << "-- " << t.spec.channels[b] << "\n";
            const std::vector<std::string> row_labels = s.shape.size() == 1 ? std::vector<std::string>{info.symbol}
                                                        : per_channel && blocks == 1 ? t.spec.channels : numbered(rows, "");
            const std::vector<std::string> col_labels = s.shape.size() == 1 && cols == t.spec.c ? t.spec.channels : numbered(cols, "");
            print_matrix(s.data.data() + b * rows * cols, row_labels, col_labels);
        }
    }
    return 0;
}

}  // namespace

int print_example_table(const std::string& id, const std::string& variant, const std::string& lang) {
    if (example_is_vision(id)) return print_vision_example(id, variant, lang);
    const json& doc = example_document(id);
    const trace t = compute_trace(example_spec(id, variant));  // throws before anything is printed
    const json notes = example_notes(id, variant);
    std::cout << text(doc["title"], lang) << "\n" << text(doc["source"], lang) << "\n\n"
              << fill_numbers(text(doc["summary"], lang), t) << "\n\n"
              << (lang == "zh" ? "输入向量：" : "Embeddings: ") << text(doc["embeddings"], lang) << "\n";
    if (doc.contains("variants")) {
        std::cout << (lang == "zh" ? "变体：" : "Variants:");
        for (const json& v : doc["variants"]) std::cout << ' ' << v["id"].get<std::string>();
        std::cout << (variant.empty() ? "" : "  (" + variant + ")") << "\n";
    }
    for (const stage_view& v : t.stages()) {
        const std::size_t heads = v.shape.size() == 3 ? v.shape[0] : 1;
        const std::size_t rows = v.shape[v.shape.size() - 2], cols = v.shape.back();  // one head's matrix
        const bilingual title = stage_title(v.id);
        std::cout << "\n== " << stage_name(v.id) << ": " << (lang == "zh" ? title.zh : title.en) << "   "
                  << stage_formula(v.id, t.spec) << "\n";
        if (notes.contains(stage_name(v.id))) std::cout << "   " << fill_numbers(text(notes[stage_name(v.id)], lang), t) << "\n";
        const stage_info& info = stage_info_of(v.id);
        const std::vector<std::string> row_labels = axis_labels(info.rows, info, t.spec);
        const std::vector<std::string> col_labels = axis_labels(info.cols, info, t.spec);
        for (std::size_t h = 0; h < heads; ++h) {
            if (heads > 1) std::cout << (lang == "zh" ? "-- 头 " : "-- head ") << h + 1 << "\n";
            print_matrix(v.data + h * rows * cols, row_labels, col_labels);
        }
    }
    if (doc.contains("sizes")) print_complexity(doc, lang);
    return 0;
}

}  // namespace attn::cli
