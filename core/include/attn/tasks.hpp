// The training tasks of the page's train mode, as train specs (attn/train.hpp) the core generates
// the same way every time: the CLI (`attn task ID`), the npm module (`a.task(id)`), the lab and the
// page all train on the same data.
//   alignment        seed 002: W_q and W_k start random; trained on 16 sentence pairs over the
//                    translation example's vocabulary, each Chinese word comes to attend to its
//                    English word (猫 → cat, 坐 → sat, 垫子 → mat, …)
//   positions-pe     reverse a sequence: output i should be token n − 1 − i. With sinusoidal PE the
//   positions-no-pe  queries can find a position; without it attention sees only content and cannot
//                    tell the first a from the last (the loss plateaus)
//   scaling-sqrt-dk  the alignment task with d = 64 and larger starting weights, scores ÷ √d_k or not:
//   scaling-none     unscaled, the softmax starts peaked, saturates and its gradient vanishes
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/json.hpp"

namespace attn {

/// @brief The ids of the training tasks, in the page's order.
const std::vector<std::string>& training_task_ids();
/// @brief The task's train spec (a sequence spec with "train", "loss" and, for alignment, the Chinese and
/// English tokens of its first item). Throws spec_error for an unknown id.
json training_task_json(std::string_view id);
/// @brief For the alignment task: each data item's Chinese tokens and, per token, the index of its English
/// word in that item's keys (−1 for none), as the acceptance test and the page's captions read them.
struct alignment_item {
    std::vector<std::string> zh, en;
    std::vector<int> partner;
};
std::vector<alignment_item> alignment_items();

}  // namespace attn
