#include "style.hpp"

#include <imgui.h>

#include "lab_font_data.hpp"  // generated: the subset of WenQuanYi Micro Hei the lab needs

namespace lab {

void setup_style(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the same layout every time (and no file system on the web)
    ImGui::StyleColorsLight();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 6.0f;
    style.FrameRounding = 4.0f;
    style.ScaleAllSizes(scale);
    // explanations use TextDisabled: dark enough for 4.5:1 on the light window background
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.33f, 0.36f, 0.40f, 1.0f);
    // glyph ranges: exactly the characters the lab can show, so the atlas stays small
    static ImVector<ImWchar> ranges;
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
    builder.AddText(lab_font_chars);
    builder.BuildRanges(&ranges);
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;  // the bytes are static data of the program
    config.OversampleH = 1;
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(lab_font_ttf), int(lab_font_ttf_size), 15.0f * scale, &config, ranges.Data);
    config.MergeMode = true;  // DejaVu Sans adds only the glyphs WenQuanYi lacks (ᵀ)
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(lab_fallback_ttf), int(lab_fallback_ttf_size), 15.0f * scale, &config, ranges.Data);
}

}  // namespace lab
