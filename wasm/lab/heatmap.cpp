#include "heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "attn/format.hpp"

namespace lab {
namespace {

ImU32 colour(float v, float scale, attn::color_scale palette) {
    if (!std::isfinite(v)) return IM_COL32(200, 200, 200, 255);
    if (palette != attn::color_scale::signed_values) {  // pale yellow (0) to deep blue-purple, as on the page
        const float top = palette == attn::color_scale::probability ? 1.0f : scale;  // probabilities: fixed 0…1
        const float t = top > 0 ? std::clamp(v / top, 0.0f, 1.0f) : 0.0f;
        return IM_COL32(int(253 - 185 * t), int(231 - 180 * t), int(37 + 113 * t), 255);
    }
    const float t = scale > 0 ? std::clamp(v / scale, -1.0f, 1.0f) : 0.0f;
    const int light = int(255 - 150 * std::fabs(t));
    return t >= 0 ? IM_COL32(255, light, std::max(0, light - 10), 255) : IM_COL32(std::max(0, light - 10), light, 255, 255);
}

bool dark(ImU32 c) {
    const int r = c & 0xFF, g = (c >> 8) & 0xFF, b = (c >> 16) & 0xFF;
    return 0.299f * r + 0.587f * g + 0.114f * b < 140;
}

}  // namespace

int heatmap(const heatmap_args& a) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(a.title.c_str());
    const float s = a.cell * ImGui::GetIO().FontGlobalScale;
    float label_w = 0;
    for (const std::string& l : a.row_labels) label_w = std::max(label_w, ImGui::CalcTextSize(l.c_str()).x);
    label_w = std::max(label_w, ImGui::CalcTextSize("00").x) + 6;
    const float label_h = ImGui::GetTextLineHeight() + 2;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 grid(origin.x + label_w, origin.y + label_h);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float scale = a.scale;  // small multiples share one scale; a lone matrix uses its own largest value
    if (scale <= 0)
        for (int k = 0; k < a.rows * a.cols; ++k) scale = std::max(scale, std::isfinite(a.data[k]) && std::fabs(a.data[k]) < 1e8f ? std::fabs(a.data[k]) : 0.0f);
    char buf[32];
    for (int j = 0; j < a.cols; ++j) {
        const std::string l = j < int(a.col_labels.size()) ? a.col_labels[j] : std::to_string(j + 1);
        // a label longer than its column is cut at the column's edge, never drawn over the next one
        draw->PushClipRect(ImVec2(grid.x + j * s, origin.y), ImVec2(grid.x + (j + 1) * s - 2, grid.y), true);
        draw->AddText(ImVec2(grid.x + j * s + 2, origin.y), IM_COL32(80, 80, 80, 255), l.c_str());
        draw->PopClipRect();
    }
    for (int i = 0; i < a.rows; ++i) {
        const std::string l = i < int(a.row_labels.size()) ? a.row_labels[i] : std::to_string(i + 1);
        draw->AddText(ImVec2(origin.x, grid.y + i * s + (s - ImGui::GetTextLineHeight()) / 2), IM_COL32(90, 90, 90, 255), l.c_str());
        for (int j = 0; j < a.cols; ++j) {
            const int k = i * a.cols + j;
            const ImVec2 p0(grid.x + j * s, grid.y + i * s), p1(p0.x + s - 1, p0.y + s - 1);
            if (a.revealed >= 0 && k >= a.revealed) {
                draw->AddRectFilled(p0, p1, IM_COL32(236, 238, 241, 255));
                continue;
            }
            const float v = a.data[k];
            const ImU32 c = v <= -1e8f ? IM_COL32(150, 150, 150, 255) : colour(v, scale, a.palette);
            draw->AddRectFilled(p0, p1, c);
            if (s >= 30) {  // the value in the cell when there is room for it
                std::snprintf(buf, sizeof buf, std::fabs(v) >= 1e5f ? "%.0e" : "%.2f", v);
                const ImVec2 ts = ImGui::CalcTextSize(buf);
                draw->AddText(ImGui::GetFont(), ImGui::GetFontSize() * 0.8f, ImVec2(p0.x + (s - ts.x * 0.8f) / 2, p0.y + (s - ts.y * 0.8f) / 2),
                              dark(c) ? IM_COL32_WHITE : IM_COL32(20, 20, 20, 255), buf);
            }
        }
    }
    ImGui::InvisibleButton(a.id, ImVec2(label_w + a.cols * s, label_h + a.rows * s));
    int clicked = -1;
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetMousePos();
        const int j = int((m.x - grid.x) / s), i = int((m.y - grid.y) / s);
        if (m.x >= grid.x && m.y >= grid.y && i < a.rows && j < a.cols) {
            const int k = i * a.cols + j;
            draw->AddRect(ImVec2(grid.x + j * s, grid.y + i * s), ImVec2(grid.x + (j + 1) * s - 1, grid.y + (i + 1) * s - 1), IM_COL32(31, 111, 235, 255), 0, 0, 2.5f);
            ImGui::BeginTooltip();
            if (a.tooltip) ImGui::TextUnformatted(a.tooltip(i, j).c_str());
            else ImGui::Text("%s [%d][%d] = %s", a.title.c_str(), i + 1, j + 1, attn::format_cell(a.data[k]).c_str());
            ImGui::EndTooltip();
            if (ImGui::IsItemClicked()) clicked = k;
        }
    }
    ImGui::EndGroup();
    return clicked;
}

void arrow(float t) {
    ImGui::SameLine();
    const float h = ImGui::GetTextLineHeight() * 3, w = 44 * ImGui::GetIO().FontGlobalScale;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float y = p.y + h;
    draw->AddLine(ImVec2(p.x + 4, y), ImVec2(p.x + w - 8, y), IM_COL32(87, 96, 106, 255), 2.0f);
    draw->AddTriangleFilled(ImVec2(p.x + w - 4, y), ImVec2(p.x + w - 12, y - 5), ImVec2(p.x + w - 12, y + 5), IM_COL32(87, 96, 106, 255));
    if (t > 0 && t < 1) draw->AddCircleFilled(ImVec2(p.x + 4 + (w - 16) * t, y), 4.0f, IM_COL32(31, 111, 235, 255));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
}

}  // namespace lab
