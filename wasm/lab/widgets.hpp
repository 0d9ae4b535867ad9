// The lab's small widgets, shared by its panels: value grids, enum menus, help markers, and the
// defaults that keep a switched setting valid (identity weights, a score's own parameters).
#pragma once

#include <string>

#include <cstddef>

#include <imgui.h>

#include "attn/attn.hpp"

namespace lab {

/// @brief Identity d × d, for a projection switched on.
attn::matrix identity(std::size_t d);

/// @brief The score's own parameters and no others (the core refuses the rest): identity ones at the
/// current d_head when they are missing or were made for another width, so switching the score or
/// the heads never starts from an error.
void fit_score_params(attn::spec& s);

/// @brief A grid of draggable values; returns true when one changed.
bool edit_grid(const char* id, attn::matrix& m);
/// @brief A row of draggable values; returns true when one changed.
bool edit_vector(const char* id, attn::vector& v);

/// @brief imgui_demo's HelpMarker: a "(?)" whose tooltip is text.
void help_marker(const char* text);

/// @brief A menu over an enum's choices, named by the core's one table (attn::score_names, …).
template <class E, std::size_t N>
bool enum_combo(const char* label, E& value, const attn::named<E> (&choices)[N]) {
    bool changed = false;
    if (ImGui::BeginCombo(label, attn::to_string(value))) {
        for (const attn::named<E>& c : choices)
            if (ImGui::Selectable(c.name, c.value == value)) changed = c.value != value, value = c.value;
        ImGui::EndCombo();
    }
    return changed;
}

/// @brief The core's sentence for a refused edit, in red and wrapped; nothing when it is empty.
void error_text(const std::string& sentence);

}  // namespace lab
