// A vision block (SE, ECA, CBAM, Coordinate Attention) in the lab: the feature map editable a
// channel at a time and the block's parameters as JSON, the current stage drawn by its shape
// (a heatmap per channel, a vector as one row, a 2-D stage as one heatmap) with the core's
// arithmetic on hover, and every stage at once.
#include <algorithm>
#include <cstring>

#include <imgui.h>

#include "heatmap.hpp"
#include "lab.hpp"
#include "widgets.hpp"

namespace lab {

void Lab::recompute_vision() {
    try {
        attn::vision_trace t = attn::compute_vision(vspec_);
        vtrace_ = std::move(t);
        error_.clear();
        stage_ = std::min(stage_, int(vtrace_->stages.size()) - 1);
    } catch (const attn::spec_error& e) {
        error_ = e.what();  // the picture keeps the last good trace
    }
}

void Lab::panel_vision_spec() {
    ImGui::Begin(tr("Spec###spec", "输入与权重###spec"));
    spec_source();
    ImGui::Separator();
    ImGui::Text("%s: %s, %zu × %zu × %zu", tr("block", "模块"), attn::to_string(vspec_.block), vspec_.c, vspec_.h, vspec_.w);
    error_text(error_);
    // one channel of the feature map as a grid of draggable values
    vchannel_ = std::clamp(vchannel_, 0, int(vspec_.c) - 1);
    if (ImGui::BeginCombo(tr("channel", "通道"), vspec_.channels[std::size_t(vchannel_)].c_str())) {
        for (std::size_t c = 0; c < vspec_.c; ++c)
            if (ImGui::Selectable(vspec_.channels[c].c_str(), int(c) == vchannel_)) vchannel_ = int(c);
        ImGui::EndCombo();
    }
    bool changed = false;
    const float width = 40 * ImGui::GetIO().FontGlobalScale;
    for (std::size_t i = 0; i < vspec_.h; ++i)
        for (std::size_t j = 0; j < vspec_.w; ++j) {
            if (j) ImGui::SameLine(0, 2);
            ImGui::PushID(int(i * vspec_.w + j));
            ImGui::SetNextItemWidth(width);
            changed |= ImGui::DragFloat("##x", &vspec_.feature[(std::size_t(vchannel_) * vspec_.h + i) * vspec_.w + j], 0.01f, 0, 0, "%.2f");
            ImGui::PopID();
        }
    // the block's parameters as JSON text: applied with the button, checked by the core
    const char* block = attn::to_string(vspec_.block);
    if (vparams_.empty()) {
        const std::string text = attn::vision_spec_to_json(vspec_)[block].dump(1);
        vparams_.assign(text.begin(), text.end());
        vparams_.resize(text.size() + 16384, '\0');
    }
    ImGui::TextDisabled("%s", tr("the block's parameters (JSON)", "模块参数（JSON）"));
    ImGui::InputTextMultiline("##params", vparams_.data(), vparams_.size(), ImVec2(-1, 160 * ImGui::GetIO().FontGlobalScale));
    if (ImGui::Button(tr("apply", "应用"))) {
        try {
            attn::json j = attn::vision_spec_to_json(vspec_);
            j[block] = attn::parse_spec_json(std::string(vparams_.data(), std::strlen(vparams_.data())));
            vspec_ = attn::vision_spec_from_json(j);
            changed = true;
        } catch (const attn::spec_error& e) {
            error_ = e.what();
        }
    }
    if (changed) recompute_vision();
    ImGui::End();
}

void Lab::draw_vision_stage(const attn::vision_stage& s, float progress, bool small) {
    const attn::vision_trace& t = *vtrace_;
    const std::size_t cols = s.shape.back(), rows = s.shape.size() >= 2 ? s.shape[s.shape.size() - 2] : 1;
    const std::size_t grids = s.shape.size() == 3 ? s.shape[0] : 1;
    const attn::color_scale palette = attn::vision_stage_info_of(s.id).scale;  // gates 0…1, as on the page
    const bool gate = palette == attn::color_scale::probability;
    const float cell = small ? 10.0f : s.shape.size() == 1 ? 44.0f : s.shape.size() == 3 ? 14.0f : 22.0f;
    float scale = 0;
    for (float v : s.data) scale = std::max(scale, std::fabs(v));
    const std::size_t per = rows * cols;
    const int revealed = progress < 1.0f ? int(progress * float(grids == 1 ? per : grids)) + 1 : -1;
    for (std::size_t g = 0; g < grids; ++g) {
        if (g % 6) ImGui::SameLine(0, 8);
        ImGui::PushID(int(g));
        std::vector<std::string> row_labels, col_labels;
        if (s.shape.size() == 1 && cols == t.spec.c) col_labels = t.spec.channels;
        if (s.shape.size() == 2 && rows == t.spec.c && (s.id == "pool_h" || s.id == "pool_w" || s.id == "gate_h" || s.id == "gate_w")) row_labels = t.spec.channels;
        if (s.shape.size() == 1) row_labels = {attn::vision_stage_info_of(s.id).symbol};
        heatmap_args a{"##v", grids > 1 ? t.spec.channels[g] : std::string(), s.data.data() + g * per, int(rows), int(cols),
                       row_labels, col_labels, palette, grids > 1 ? (revealed < 0 || int(g) < revealed ? -1 : 0) : revealed, cell};
        a.scale = gate ? 0 : scale;  // one colour scale for every channel of a map
        const std::string id = s.id;
        a.tooltip = [&t, id, g, per, cols](int i, int j) { return attn::explain_vision_cell(t, id, g * per + std::size_t(i) * cols + std::size_t(j)); };
        heatmap(a);
        ImGui::PopID();
    }
}

void Lab::panel_vision_stage() {
    ImGui::Begin(tr("Stage###stage", "阶段###stage"), nullptr, ImGuiWindowFlags_HorizontalScrollbar);
    if (vtrace_) {
        const attn::vision_stage& s = vtrace_->stages[std::size_t(std::clamp(stage_, 0, int(vtrace_->stages.size()) - 1))];
        const attn::vision_stage_info& info = attn::vision_stage_info_of(s.id);
        ImGui::Text("%s    %s", zh_ ? info.title.zh : info.title.en, attn::vision_formula(vtrace_->spec.block, s.id).c_str());
        ImGui::SameLine();
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        stage_rect_ = {pos.x, pos.y, size.x, size.y};
        if (ImGui::SmallButton(tr("Save PNG", "保存 PNG"))) png_request_ = stage_rect_;
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", zh_ ? info.explanation.zh : info.explanation.en);
        ImGui::PopTextWrapPos();
        draw_vision_stage(s, progress_, false);
        stage_picture_ = "vision " + s.id;
    }
    ImGui::End();
}

void Lab::panel_vision_all_stages() {
    ImGui::Begin(tr("All stages###all", "所有阶段###all"));
    if (vtrace_)
        for (const attn::vision_stage& s : vtrace_->stages) {
            const attn::vision_stage_info& info = attn::vision_stage_info_of(s.id);
            if (ImGui::CollapsingHeader((std::string(zh_ ? info.title.zh : info.title.en) + "###" + s.id).c_str())) {
                ImGui::PushID(s.id.c_str());
                draw_vision_stage(s, 1.0f, true);
                ImGui::PopID();
            }
        }
    ImGui::End();
}

}  // namespace lab
