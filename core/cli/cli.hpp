// The attn CLI's parts: each subcommand returns the process exit code
// (0 done, 2 bad input or usage; the sentence is on stderr, stdout stays empty).
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

/// @brief `attn example ID` without --json: title, explanation and every stage as a labelled table.
int print_example_table(const std::string& id, const std::string& variant, const std::string& lang);

/// @brief `attn bench`: SIMD kernels against their scalar twins, side by side, as ratios.
int run_bench(const std::vector<std::string>& args);

/// @brief "128,512": sizes from 1 to max_positions, or one sentence naming the flag (option).
std::vector<std::size_t> parse_list(const std::string& text, const char* option);

/// @brief A whole number from lo to hi written as text (all of it), or one sentence naming the flag.
long long whole_number(const std::string& text, const std::string& flag, long long lo, long long hi);

/// @brief `attn lm …`: the tiny language model (lm.cpp; docs/model.md).
int run_lm(const std::vector<std::string>& args);

/// @brief Whether `attn lm …`'s --model names a folder (a Hugging Face model; hf.cpp) rather than zh, en or a file.
bool is_model_folder(const std::vector<std::string>& args);
/// @brief `attn lm …` on a model folder (hf.cpp; docs/models-you-bring.md).
int run_hf(const std::vector<std::string>& args);
/// @brief `attn lm train --arch …`: a small model in a Hugging Face layout, written as a folder (hf_train.cpp).
int train_folder(const std::vector<std::string>& args);

}  // namespace attn::cli
