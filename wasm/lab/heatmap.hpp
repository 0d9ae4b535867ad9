// A matrix drawn with ImDrawList: one coloured cell per value, labels on both axes, the value
// on hover, and an optional click (the lab draws masks with it).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "attn/stages.hpp"

namespace lab {

struct heatmap_args {
    const char* id;                         // ImGui id, unique in the window
    std::string title;                      // drawn above the grid
    const float* data;                      // rows × cols, row-major
    int rows, cols;
    std::vector<std::string> row_labels;    // may be empty: 1, 2, 3, …
    std::vector<std::string> col_labels;
    attn::color_scale palette = attn::color_scale::signed_values;  // the stage's (registry), as on the page
    int revealed = -1;                      // cells shown in reading order; -1: all (the animation uses it)
    float cell = 34.0f;                     // cell size in pixels (before the DPI scale)
    float scale = 0;                        // the |value| drawn at full colour; 0: this matrix's largest
    /// The hover text of cell (i, j): for a stage's result, the core's arithmetic (attn::explain_cell,
    /// the same sentence the page's caption shows); empty: the matrix's name, position and value.
    std::function<std::string(int i, int j)> tooltip;
};

/// @brief Draws the heatmap; returns the clicked cell index (row·cols + col) or -1.
int heatmap(const heatmap_args& a);

/// @brief An arrow from the last item to the next one, with a dot travelling along it (t in 0…1).
void arrow(float t);

}  // namespace lab
