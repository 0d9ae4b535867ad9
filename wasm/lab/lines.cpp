#include "lines.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "attn/format.hpp"

namespace lab {
namespace {

// The page's head colours (web/src/stepper/colors.js): Okabe–Ito, distinct with colour-blindness.
constexpr ImU32 head_colours[] = {IM_COL32(0, 114, 178, 255), IM_COL32(213, 94, 0, 255), IM_COL32(0, 158, 115, 255),
                                  IM_COL32(204, 121, 167, 255), IM_COL32(230, 159, 0, 255), IM_COL32(86, 180, 233, 255),
                                  IM_COL32(0, 0, 0, 255)};

ImU32 head_colour(int h, float alpha) {
    const ImU32 c = head_colours[h % int(std::size(head_colours))];
    return (c & ~IM_COL32_A_MASK) | (ImU32(std::clamp(alpha, 0.0f, 1.0f) * 255.0f) << IM_COL32_A_SHIFT);
}

float widest(const std::vector<std::string>& labels) {
    float w = 0;
    for (const std::string& l : labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    return w;
}

}  // namespace

void attention_lines(const lines_args& a) {
    const float scale = ImGui::GetIO().FontGlobalScale;
    std::vector<char>& shown = *a.shown_heads;
    shown.resize(std::size_t(a.heads), 1);
    if (a.heads > 1) {
        for (int h = 0; h < a.heads; ++h) {
            if (h) ImGui::SameLine();
            ImGui::PushStyleColor(ImGuiCol_CheckMark, head_colour(h, 1.0f));
            bool on = shown[std::size_t(h)] != 0;
            if (ImGui::Checkbox((std::string(a.head_word) + " " + std::to_string(h + 1)).c_str(), &on)) shown[std::size_t(h)] = on;
            ImGui::PopStyleColor();
        }
    }
    const float row = 30.0f * scale, gap = 6.0f * scale;
    // room beside each column for the α written there when a token at the other end is hovered
    const float badge = ImGui::CalcTextSize("0.0000 ").x * float(std::max(1, a.heads));
    const float left = badge + widest(a.query_labels) + gap, right_labels = widest(a.key_labels) + gap;
    const float middle = std::max(160.0f * scale, ImGui::GetContentRegionAvail().x - left - right_labels - badge - 16);
    const float height = float(std::max(a.queries, a.keys)) * row;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float x0 = origin.x + left, x1 = x0 + middle;
    auto y_of = [&](int k, int count) { return origin.y + (height - float(count) * row) / 2 + (float(k) + 0.5f) * row; };
    ImGui::InvisibleButton("##lines", ImVec2(left + middle + right_labels + badge, height));
    // the hovered token: a query (side 0) or a key (side 1), found from the mouse over its label
    int side = -1, token = -1;
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetMousePos();
        const bool on_left = m.x < x0, on_right = m.x > x1;
        const int count = on_left ? a.queries : a.keys;
        const int k = int(std::floor((m.y - origin.y - (height - float(count) * row) / 2) / row));
        if ((on_left || on_right) && k >= 0 && k < count) side = on_left ? 0 : 1, token = k;
    }
    const int revealed = a.revealed_queries < 0 ? a.queries : a.revealed_queries;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float text_h = ImGui::GetTextLineHeight();
    for (int h = 0; h < a.heads; ++h) {
        if (!shown[std::size_t(h)]) continue;
        for (int i = 0; i < std::min(revealed, a.queries); ++i) {
            for (int j = 0; j < a.keys; ++j) {
                const float w = a.weights[(std::size_t(h) * a.queries + i) * a.keys + j];
                if (!(w > 0)) continue;  // a masked key: no line
                const bool touches = side < 0 || (side == 0 ? i == token : j == token);
                const float y0 = y_of(i, a.queries), y1 = y_of(j, a.keys), mid = (x0 + x1) / 2;
                draw->AddBezierCubic(ImVec2(x0, y0), ImVec2(mid, y0), ImVec2(mid, y1), ImVec2(x1, y1),
                                     head_colour(h, touches ? 0.1f + 0.9f * w : 0.04f), (0.6f + 7.4f * w) * scale);
            }
        }
    }
    const ImU32 ink = IM_COL32(27, 31, 36, 255), accent = IM_COL32(130, 80, 223, 255);
    for (int i = 0; i < a.queries; ++i) {
        const std::string& l = a.query_labels[std::size_t(i)];
        const ImVec2 p(x0 - gap - ImGui::CalcTextSize(l.c_str()).x, y_of(i, a.queries) - text_h / 2);
        draw->AddText(p, side == 0 && token == i ? accent : ink, l.c_str());
    }
    for (int j = 0; j < a.keys; ++j) {
        const std::string& l = a.key_labels[std::size_t(j)];
        const ImVec2 p(x1 + gap, y_of(j, a.keys) - text_h / 2);
        draw->AddText(p, side == 1 && token == j ? accent : ink, l.c_str());
    }
    if (side < 0) return;
    // the α of the hovered token's lines, beside the tokens at the other end, one per shown head
    const int others = side == 0 ? a.keys : a.queries;
    for (int k = 0; k < others; ++k) {
        float x = side == 0 ? x1 + gap + ImGui::CalcTextSize(a.key_labels[std::size_t(k)].c_str()).x + gap : origin.x;
        const float y = (side == 0 ? y_of(k, a.keys) : y_of(k, a.queries)) - text_h / 2;
        for (int h = 0; h < a.heads; ++h) {
            if (!shown[std::size_t(h)]) continue;
            const int i = side == 0 ? token : k, j = side == 0 ? k : token;
            const std::string text = attn::format_cell(a.weights[(std::size_t(h) * a.queries + i) * a.keys + j]);
            if (side == 1) {  // left of the query labels: right-aligned against them
                draw->AddText(ImVec2(x0 - gap - ImGui::CalcTextSize(a.query_labels[std::size_t(k)].c_str()).x - gap -
                                         ImGui::CalcTextSize(text.c_str()).x - float(h) * ImGui::CalcTextSize("0.0000 ").x,
                                     y),
                              head_colour(h, 1.0f), text.c_str());
                continue;
            }
            draw->AddText(ImVec2(x, y), head_colour(h, 1.0f), text.c_str());
            x += ImGui::CalcTextSize(text.c_str()).x + gap;
        }
    }
}

}  // namespace lab
