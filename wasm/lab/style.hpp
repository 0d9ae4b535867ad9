// What both entry points set up the same way: the font (a CJK subset, built in) and the style.
#pragma once

namespace lab {

/// @brief Loads the lab's font at 15 px × scale with every glyph the lab draws, and scales the style.
void setup_style(float scale);

}  // namespace lab
