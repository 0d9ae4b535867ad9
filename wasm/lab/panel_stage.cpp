// The stage panels: the current stage drawn with its operands (labels and operands from the core's
// stage registry), every stage at once, the ÷√d_k what-if, and the live complexity measurement.
#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>

#include <imgui.h>

#include "heatmap.hpp"
#include "lab.hpp"
#include "lines.hpp"
#include "widgets.hpp"

namespace lab {

using attn::stage_id;

heatmap_args Lab::stage_heatmap(stage_id id, const std::string& title, float cell) const {
    const attn::trace& t = *trace_;
    const attn::stage_info& info = attn::stage_info_of(id);
    const attn::stage_view v = *t.stage(id);
    const int rows = int(v.shape[v.shape.size() - 2]), cols = int(v.shape.back());
    const int h = info.per_head ? std::min(head_, t.spec.heads - 1) : 0;  // one head's matrix
    const std::string which = info.per_head && t.spec.heads > 1 ? " (head " + std::to_string(h + 1) + ")" : "";
    return heatmap_args{info.name, title + which, v.data + std::size_t(h) * std::size_t(rows * cols), rows, cols,
                        attn::axis_labels(info.rows, info, t.spec), attn::axis_labels(info.cols, info, t.spec),
                        info.scale, -1, cell};
}

void Lab::draw_stage(stage_id id, float progress, bool small) {
    const attn::trace& t = *trace_;
    const float cell = small ? 20.0f : 34.0f;
    std::vector<heatmap_args> ops;
    std::vector<float> keep;  // the mask as floats, for its heatmap: what the masked stage applies
    if (id == stage_id::masked) {
        keep.assign(t.mask->begin(), t.mask->end());
        const attn::stage_info& info = attn::stage_info_of(id);
        ops.push_back({"maskview", "mask", keep.data(), int(t.mask->shape(0)), int(t.mask->shape(1)),
                       attn::axis_labels(info.rows, info, t.spec), attn::axis_labels(info.cols, info, t.spec), attn::color_scale::probability, -1, cell});
    }
    for (stage_id operand : attn::stage_operands(id, t.spec)) {
        ops.push_back(stage_heatmap(operand, attn::stage_info_of(operand).symbol, cell));
    }
    const attn::bilingual title = attn::stage_title(id);
    heatmap_args result = stage_heatmap(id, zh_ ? title.zh : title.en, cell);
    // the result's hover text is the core's arithmetic, the page's caption word for word; q, k and v
    // are drawn one head at a time here, and explained as the page shows them, heads side by side
    const std::size_t h = std::size_t(std::min(head_, t.spec.heads - 1));
    const std::size_t column_offset = id == stage_id::q || id == stage_id::k || id == stage_id::v ? h * t.spec.d_head() : 0;
    result.tooltip = [&t, id, h, column_offset](int i, int j) {
        return attn::explain_cell(t, id, h, std::size_t(i), std::size_t(j) + column_offset);
    };
    if (progress < 1.0f) result.revealed = int(progress * float(result.rows * result.cols)) + 1;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        if (k) ImGui::SameLine(0, 16);
        ops[k].id = small ? "##opsmall" : ops[k].id;
        ImGui::PushID(int(k));
        heatmap(ops[k]);
        ImGui::PopID();
    }
    if (!ops.empty()) arrow(progress);
    ImGui::PushID("result");
    heatmap(result);
    ImGui::PopID();
}

bool Lab::heads_grid(stage_id id) {
    // every head of a query × key stage side by side, on one colour scale; a click opens that head
    const attn::stage_info& info = attn::stage_info_of(id);
    const attn::trace& t = *trace_;
    if (t.spec.heads < 2 || !info.per_head || info.rows != attn::axis_kind::query || info.cols != attn::axis_kind::key) return false;
    const attn::stage_view v = *t.stage(id);
    const int rows = int(v.shape[1]), cols = int(v.shape[2]);
    float scale = 0;
    for (std::size_t k = 0; k < v.size; ++k)
        if (std::isfinite(v.data[k]) && std::fabs(v.data[k]) < 1e8f) scale = std::max(scale, std::fabs(v.data[k]));
    for (int h = 0; h < t.spec.heads; ++h) {
        if (h) ImGui::SameLine(0, 12);
        ImGui::PushID(h);
        heatmap_args mini{"##mini", std::string(h == head_ ? "> " : "") + tr("head ", "头 ") + std::to_string(h + 1),
                          v.data + std::size_t(h) * std::size_t(rows * cols), rows, cols, {}, {}, attn::stage_info_of(id).scale, -1, 12.0f};
        mini.scale = scale;
        if (heatmap(mini) >= 0) head_ = h;
        ImGui::PopID();
    }
    return true;
}

void Lab::weights_lines(float progress) {
    const attn::trace& t = *trace_;
    const attn::stage_info& info = attn::stage_info_of(stage_id::weights);
    const int queries = int(t.weights.shape(1)), keys = int(t.weights.shape(2));
    // the animation reveals the lines query by query
    const int revealed = progress < 1.0f ? std::min(queries, int(progress * float(queries)) + 1) : -1;
    attention_lines({t.weights.data(), t.spec.heads, queries, keys, attn::axis_labels(info.rows, info, t.spec),
                     attn::axis_labels(info.cols, info, t.spec), &lines_heads_, revealed, tr("head", "头")});
}

std::string Lab::png_name() const {
    return "attention-lab-" + (example_.empty() ? std::string("spec") : example_) + "-" + stage_name_ + ".png";
}

void Lab::empty_rows_note(stage_id id) const {
    // the softmax stages of a row that sees no key are uniform by the seed's rule: say so
    const bool softmax_stage = id == stage_id::masked || id == stage_id::row_max || id == stage_id::exp ||
                               id == stage_id::row_sum || id == stage_id::weights;
    if (!softmax_stage || trace_->empty_rows.empty()) return;
    const attn::stage_info& info = attn::stage_info_of(id);
    const std::vector<std::string> queries = attn::axis_labels(attn::axis_kind::query, info, trace_->spec);
    for (std::size_t row : trace_->empty_rows)
        ImGui::TextColored(ImVec4(0.6f, 0.3f, 0.0f, 1.0f), zh_ ? "第 %zu 行（%s）看不到任何键：它的 softmax 是均匀的。"
                                                              : "Row %zu (%s) sees no key: its softmax is uniform.",
                           row + 1, queries[row].c_str());
}

void Lab::panel_stage() {
    ImGui::Begin(tr("Stage###stage", "阶段###stage"), nullptr, ImGuiWindowFlags_HorizontalScrollbar);
    if (trace_) {
        const attn::stage_view v = trace_->stages()[std::size_t(stage_)];
        const attn::stage_info& info = attn::stage_info_of(v.id);
        ImGui::Text("%s    %s", zh_ ? info.title.zh : info.title.en, attn::stage_formula(v.id, trace_->spec).c_str());
        ImGui::SameLine();
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        stage_rect_ = {pos.x, pos.y, size.x, size.y};
        if (ImGui::SmallButton(tr("Save PNG", "保存 PNG"))) png_request_ = stage_rect_;
        const ImVec2 b0 = ImGui::GetItemRectMin(), b1 = ImGui::GetItemRectMax();
        save_button_ = {b0.x, b0.y, b1.x - b0.x, b1.y - b0.y};
        if (!png_note_.empty()) ImGui::SameLine(), ImGui::TextDisabled("%s", png_note_.c_str());
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", zh_ ? info.explanation.zh : info.explanation.en);
        ImGui::PopTextWrapPos();
        empty_rows_note(v.id);
        // q, k and v show every head side by side; the other per-head stages one head at a time
        const bool shows_all_heads = v.id == stage_id::q || v.id == stage_id::k || v.id == stage_id::v;
        const bool lines = v.id == stage_id::weights && weights_lines_;
        if (v.id == stage_id::weights) {
            if (ImGui::RadioButton(tr("matrix", "矩阵"), !weights_lines_)) weights_lines_ = false;
            ImGui::SameLine();
            if (ImGui::RadioButton(tr("lines", "连线"), weights_lines_)) weights_lines_ = true;
        }
        if (lines) {
            weights_lines(progress_);  // every head at once, each in its colour
            stage_picture_ = "lines (" + std::to_string(trace_->spec.heads) + (trace_->spec.heads == 1 ? " head)" : " heads)");
        } else {
            stage_picture_ = heads_grid(v.id) ? "heads grid + matrices" : "matrices";
            if (info.per_head && trace_->spec.heads > 1 && !shows_all_heads)
                ImGui::SliderInt(tr("head", "头"), &head_, 0, trace_->spec.heads - 1);
            draw_stage(v.id, progress_, false);
        }
    }
    ImGui::End();
}

void Lab::panel_all_stages() {
    ImGui::Begin(tr("All stages###all", "所有阶段###all"));
    ImGui::TextDisabled("%s", tr("one panel per stage", "每个阶段一个面板"));
    if (trace_) {
        for (const attn::stage_view& v : trace_->stages()) {
            const attn::stage_info& info = attn::stage_info_of(v.id);
            const char* text = zh_ ? info.explanation.zh : info.explanation.en;
            if (ImGui::CollapsingHeader((std::string(zh_ ? info.title.zh : info.title.en) + "###" + info.name).c_str())) {
                ImGui::PushTextWrapPos(0);
                ImGui::TextUnformatted(attn::stage_formula(v.id, trace_->spec).c_str());
                ImGui::TextDisabled("%s", text);
                ImGui::PopTextWrapPos();
                ImGui::PushID(info.name);
                draw_stage(v.id, 1.0f, true);
                ImGui::PopID();
            }
            help_marker(text);
        }
    }
    ImGui::End();
}

void Lab::panel_what_if() {
    ImGui::Begin(tr("What if###whatif", "如果###whatif"));
    const bool dot_family = spec_.score == attn::score_kind::dot || spec_.score == attn::score_kind::scaled_dot;
    if (!dot_family) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", tr("÷√d_k belongs to dot-product scores; this spec uses another score function.",
                                     "÷√d_k 只用于点积打分；这个 spec 用的是另一种打分函数。"));
        ImGui::PopTextWrapPos();
    } else if (with_scaling_ && without_scaling_) {
        ImGui::TextDisabled("%s", tr("weights with ÷√d_k (left) and without (right)", "权重：除以 √d_k（左）与不除（右）"));
        const attn::trace& a = *with_scaling_;
        const attn::trace& b = *without_scaling_;
        const int r = int(a.weights.shape(1)), c = int(a.weights.shape(2));
        const std::size_t h = std::size_t(std::min(head_, a.spec.heads - 1)), offset = h * std::size_t(r * c);  // the chosen head
        const attn::stage_info& w = attn::stage_info_of(stage_id::weights);
        const std::vector<std::string> rows = attn::axis_labels(w.rows, w, a.spec), cols = attn::axis_labels(w.cols, w, a.spec);
        const std::string which = a.spec.heads > 1 ? " (head " + std::to_string(h + 1) + ")" : "";
        heatmap({"##with", "÷√d_k" + which, a.weights.data() + offset, r, c, rows, cols, attn::color_scale::probability, -1, 22.0f});
        ImGui::SameLine(0, 24);
        heatmap({"##without", tr("no scaling", "不缩放") + which, b.weights.data() + offset, r, c, rows, cols, attn::color_scale::probability, -1, 22.0f});
    } else {
        ImGui::TextUnformatted(what_if_error_.c_str());
    }
    ImGui::End();
}

void Lab::panel_complexity() {
    ImGui::Begin(tr("Complexity###complexity", "复杂度###complexity"));
    const attn::json& doc = attn::example_document("complexity");
    if (complexity_.empty() || ImGui::Button(tr("measure", "测量"))) {
        complexity_.clear();
        for (const attn::json& n : doc["sizes"]) {
            const attn::spec s = attn::spec_from_json(attn::complexity_spec_json(n.get<std::size_t>(), doc["d_model"].get<std::size_t>()));
            const auto start = std::chrono::steady_clock::now();
            const attn::trace t = attn::compute_trace(s);
            const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
            complexity_.push_back({n.get<int>(), ms, float(t.bytes()) / float(1 << 20)});
        }
    }
    std::vector<float> ms, mib;
    for (const measurement& m : complexity_) ms.push_back(m.ms), mib.push_back(m.mib);
    const ImVec2 size(ImGui::GetContentRegionAvail().x * 0.7f, 70 * ImGui::GetIO().FontGlobalScale);  // 1.86 plots take no -1 width
    ImGui::PlotLines(tr("time (ms)", "时间（毫秒）"), ms.data(), int(ms.size()), 0, nullptr, 0.0f, FLT_MAX, size);
    ImGui::PlotLines(tr("memory (MiB)", "内存（MiB）"), mib.data(), int(mib.size()), 0, nullptr, 0.0f, FLT_MAX, size);
    for (const measurement& m : complexity_) ImGui::Text("n = %4d   %8.3f ms   %8.3f MiB", m.n, m.ms, m.mib);
    ImGui::End();
}

}  // namespace lab
