#include "widgets.hpp"

#include <algorithm>

namespace lab {

attn::matrix identity(std::size_t d) {
    attn::matrix m = attn::matrix::from_shape({d, d});
    m.fill(0.0f);
    for (std::size_t i = 0; i < d; ++i) m(i, i) = 1.0f;
    return m;
}

void fit_score_params(attn::spec& s) {
    const std::size_t dh = s.d_model() / std::size_t(std::max(1, s.heads));
    if (s.score != attn::score_kind::additive) s.additive = {};
    else if (!s.additive.w1 || s.additive.w1->shape(0) != dh) {
        s.additive.w1 = identity(dh);
        s.additive.w2 = identity(dh);
        s.additive.v = attn::vector::from_shape({dh});
        s.additive.v->fill(1.0f);
    }
    if (s.score != attn::score_kind::bilinear) s.bilinear.reset();
    else if (!s.bilinear || s.bilinear->shape(0) != dh) s.bilinear = identity(dh);
}

namespace {

/// rows × cols draggable values, one ImGui id per cell.
bool edit_values(const char* id, float* values, std::size_t rows, std::size_t cols) {
    bool changed = false;
    ImGui::PushID(id);
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < cols; ++j) {
            ImGui::PushID(int(i * cols + j));
            if (j) ImGui::SameLine(0, 2);
            ImGui::SetNextItemWidth(46 * ImGui::GetIO().FontGlobalScale);
            changed |= ImGui::DragFloat("##v", &values[i * cols + j], 0.01f, 0, 0, "%.2f");
            ImGui::PopID();
        }
    }
    ImGui::PopID();
    return changed;
}

}  // namespace

bool edit_grid(const char* id, attn::matrix& m) { return edit_values(id, m.data(), m.shape(0), m.shape(1)); }

bool edit_vector(const char* id, attn::vector& v) { return edit_values(id, v.data(), 1, v.size()); }

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void error_text(const std::string& sentence) {
    if (sentence.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(207, 34, 46, 255));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(sentence.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

}  // namespace lab
