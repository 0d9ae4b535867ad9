// Attention Lab: a Dear ImGui workbench over the core. The same code runs natively (GLFW +
// OpenGL 3) and in the browser (Emscripten, WebGL2); main_native.cpp and main_web.cpp only
// open the window and drive frames.
//
// Files: lab.cpp (state, loading, layout, timeline), panel_spec.cpp (the spec panel),
// panel_stage.cpp (stage, all stages, what-if, complexity), panel_train.cpp (training a task),
// vision_panels.cpp (the vision blocks),
// widgets.cpp, heatmap.cpp, lines.cpp.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "heatmap.hpp"

namespace lab {

struct options {
    std::string example = "numpy-3x4";
    std::string stage;      // a stage id to open at; empty: the first
    bool zh = false;        // Chinese texts
    std::string view;       // the weights as "matrix" or "lines"; empty: as the example prefers
    std::string train;      // a training task to start training (attn::training_task_ids()); empty: none
};

/// A rectangle of a control, in framebuffer pixels, for tests that click it.
struct rect {
    float x = 0, y = 0, w = 0, h = 0;
};

class Lab {
public:
    explicit Lab(const options& o);

    /// @brief One frame of UI, between ImGui::NewFrame and ImGui::Render; dt in seconds.
    void frame(float dt);

    /// @brief The stage panel's rectangle when its "Save PNG" was clicked (once; then empty). The
    /// platform layer reads those pixels after rendering the frame and writes png_name().
    std::optional<rect> take_png_request() { return std::exchange(png_request_, std::nullopt); }
    /// @brief The stage panel's rectangle in the last frame, and its "Save PNG" button's, in display pixels.
    rect stage_rect() const { return stage_rect_; }
    rect save_button() const { return save_button_; }
    /// @brief "attention-lab-<example>-<stage>.png".
    std::string png_name() const;
    /// @brief What became of a saved PNG, shown beside the button.
    void png_saved(const std::string& note) { png_note_ = note; }

    /// @brief Where the "next stage" button was drawn in the last frame.
    rect next_button() const { return next_button_; }
    const std::string& current_stage() const { return stage_name_; }
    /// What the stage panel drew in the last frame: "matrices", "heads grid + matrices" or "lines (N heads)".
    const std::string& stage_picture() const { return stage_picture_; }
    /// @brief Steps done and the last loss of the task being trained (0, 0 when none); whether it still plays.
    std::pair<int, float> training_progress() const {
        return training_ ? std::pair{training_->run->steps_done(), training_->losses.empty() ? 0.0f : training_->losses.back()} : std::pair{0, 0.0f};
    }
    bool training_playing() const { return training_ && training_->playing; }

private:
    void load(const std::string& id, const std::string& variant);
    void load_blank();
    void recompute();
    // panel_spec.cpp
    void panel_spec();
    void spec_source();     // language, example, variant
    bool spec_options();    // score, heads, mask, positional, cross-attention; true when one changed
    bool mask_options();
    bool spec_matrices();   // X, memory, the W's, score parameters, the learned table
    // lab.cpp
    void panel_timeline(float dt);
    /// The stages the timeline steps through: the vision trace's when a vision spec is loaded.
    struct timeline_stage { std::string id; attn::bilingual title; float steps; std::string formula; };
    std::vector<timeline_stage> timeline_stages() const;
    // vision_panels.cpp: a vision block (SE, ECA, CBAM, CA) in the spec and stage panels
    void recompute_vision();
    void panel_vision_spec();
    void panel_vision_stage();
    void panel_vision_all_stages();
    void draw_vision_stage(const attn::vision_stage& s, float progress, bool small);
    // panel_train.cpp: a training task trained between frames, editable while it trains
    void start_training(const std::string& task);
    void show_training_item();  // spec_ = the chosen sentence through the current weights
    void training_edited();     // the spec panel's value edits, into the trainer
    bool train_step();          // one step, its loss kept; false (and the core's sentence kept) when refused
    void train_frame();
    void panel_train();
    // panel_stage.cpp
    void panel_stage();
    void panel_all_stages();
    void panel_what_if();
    void panel_complexity();
    void draw_stage(attn::stage_id id, float progress, bool small);
    heatmap_args stage_heatmap(attn::stage_id id, const std::string& title, float cell) const;
    void empty_rows_note(attn::stage_id id) const;
    bool heads_grid(attn::stage_id id);  // true when drawn (a per-head query × key stage, heads > 1)
    void weights_lines(float progress);
    const char* tr(const char* en, const char* zh) const { return zh_ ? zh : en; }

    attn::spec spec_;
    std::optional<attn::trace> trace_;      // the last good trace
    bool vision_ = false;                   // a vision example is loaded: vspec_ and vtrace_ are shown
    attn::vision_spec vspec_;
    std::optional<attn::vision_trace> vtrace_;
    int vchannel_ = 0;                      // the channel of the feature map being edited
    std::vector<char> vparams_;             // the block's parameters as JSON text, edited in place
    std::string error_;                     // the core's sentence for the current edit, if refused
    std::string example_, variant_;
    std::vector<std::string> example_ids_;
    int stage_ = 0;
    float progress_ = 1.0f;
    bool playing_ = false;
    float speed_ = 1.0f;
    int head_ = 0;
    bool weights_lines_ = false;            // the weights stage drawn as token-to-token lines
    std::vector<char> lines_heads_;         // the heads the lines view draws
    bool zh_ = false;
    std::string stage_name_;
    std::string stage_picture_;
    rect stage_rect_, save_button_;
    std::optional<rect> png_request_;
    std::string png_note_;
    rect next_button_;
    struct measurement { int n; float ms; float mib; };
    std::vector<measurement> complexity_;
    std::optional<attn::trace> with_scaling_, without_scaling_;  // the what-if pair, made once per edit
    std::string what_if_error_;
    struct training {
        std::string task;                    // the core's task id
        attn::json json;                     // its train spec (the sentences' tokens are read from it)
        std::unique_ptr<attn::trainer> run;
        std::vector<float> losses;           // one per step, as the core returned them
        bool playing = true;
        int per_frame = 5, item = 0, target = 0;
        float lr = 0;
        std::string error;
    };
    std::optional<training> training_;     // set while a task is being trained
};

}  // namespace lab
