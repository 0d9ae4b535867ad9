// The weights α as token-to-token lines, drawn with ImDrawList: queries in a left column, keys in
// a right one, one curve per (query, key) whose thickness and opacity grow with α; each head in its
// own colour (the page's palette), a checkbox per head; hovering a token keeps only its lines and
// writes their α beside the tokens at the other end.
#pragma once

#include <string>
#include <vector>

namespace lab {

struct lines_args {
    const float* weights;              // heads × queries × keys, row-major (the trace's weights stage)
    int heads, queries, keys;
    std::vector<std::string> query_labels, key_labels;
    std::vector<char>* shown_heads;    // one flag per head, toggled by the checkboxes
    int revealed_queries = -1;         // the animation: lines of the first n queries; -1: all
    const char* head_word = "head";   // the checkboxes' label, in the lab's language
};

/// @brief Draws the picture (and the head checkboxes when heads > 1).
void attention_lines(const lines_args& a);

}  // namespace lab
