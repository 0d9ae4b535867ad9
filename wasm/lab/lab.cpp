#include "lab.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "heatmap.hpp"

namespace lab {
namespace {

using attn::stage_id;

std::vector<std::string> numbered(const char* prefix, std::size_t n) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i + 1));
    return out;
}

/// Identity d × d, for a projection switched on.
attn::matrix identity(std::size_t d) {
    attn::matrix m = attn::matrix::from_shape({d, d});
    m.fill(0.0f);
    for (std::size_t i = 0; i < d; ++i) m(i, i) = 1.0f;
    return m;
}

/// The score's own parameters and no others (the core refuses the rest): identity ones at the
/// current d_head when they are missing or were made for another width, so switching the score
/// or the heads never starts from an error.
void fit_score_params(attn::spec& s) {
    const std::size_t dh = s.d_model() / std::size_t(std::max(1, s.heads));
    if (s.score != attn::score_kind::additive) s.additive = {};
    else if (!s.additive.w1 || s.additive.w1->shape(0) != dh) {
        s.additive.w1 = identity(dh);
        s.additive.w2 = identity(dh);
        s.additive.v = attn::vector::from_shape({dh});
        s.additive.v->fill(1.0f);
    }
    if (s.score != attn::score_kind::bilinear) s.bilinear.reset();
    else if (!s.bilinear || s.bilinear->shape(0) != dh) s.bilinear = identity(dh);
}

/// A grid of draggable values; returns true when one changed.
bool edit_grid(const char* id, attn::matrix& m) {
    bool changed = false;
    ImGui::PushID(id);
    for (std::size_t i = 0; i < m.shape(0); ++i) {
        for (std::size_t j = 0; j < m.shape(1); ++j) {
            ImGui::PushID(int(i * m.shape(1) + j));
            if (j) ImGui::SameLine(0, 2);
            ImGui::SetNextItemWidth(46 * ImGui::GetIO().FontGlobalScale);
            changed |= ImGui::DragFloat("##v", &m(i, j), 0.01f, 0, 0, "%.2f");
            ImGui::PopID();
        }
    }
    ImGui::PopID();
    return changed;
}

bool edit_vector(const char* id, attn::vector& v) {
    bool changed = false;
    ImGui::PushID(id);
    for (std::size_t j = 0; j < v.size(); ++j) {
        ImGui::PushID(int(j));
        if (j) ImGui::SameLine(0, 2);
        ImGui::SetNextItemWidth(46 * ImGui::GetIO().FontGlobalScale);
        changed |= ImGui::DragFloat("##v", &v(j), 0.01f, 0, 0, "%.2f");
        ImGui::PopID();
    }
    ImGui::PopID();
    return changed;
}

void help_marker(const char* text) {  // imgui_demo's HelpMarker
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace

// [SECTION] state and loading

Lab::Lab(const options& o) : zh_(o.zh) {
    example_ids_ = attn::example_ids();
    load(o.example, "");
    if (trace_ && !o.stage.empty()) {
        const auto stages = trace_->stages();
        for (std::size_t i = 0; i < stages.size(); ++i)
            if (o.stage == attn::stage_name(stages[i].id)) stage_ = int(i);
    }
}

void Lab::load(const std::string& id, const std::string& variant) {
    try {
        spec_ = attn::example_spec(id, variant);
        example_ = id;
        variant_ = variant;
        error_.clear();
        head_ = 0;
        recompute();
    } catch (const attn::spec_error& e) {
        error_ = e.what();
    }
}

void Lab::load_blank() {
    spec_ = attn::spec{};
    spec_.x = attn::matrix::from_shape({3, 4});
    spec_.x.fill(0.0f);
    for (std::size_t i = 0; i < 3; ++i) spec_.x(i, i) = 1.0f;
    example_.clear();
    variant_.clear();
    recompute();
}

void Lab::recompute() {
    try {
        attn::trace t = attn::compute_trace(spec_);
        const std::string was = stage_name_;
        trace_ = std::move(t);
        error_.clear();
        const auto stages = trace_->stages();
        stage_ = std::min(stage_, int(stages.size()) - 1);
        for (std::size_t i = 0; i < stages.size(); ++i)
            if (was == attn::stage_name(stages[i].id)) stage_ = int(i);
        head_ = std::min(head_, spec_.heads - 1);
        complexity_.clear();
        // the what-if pair: the same spec with and without the ÷√d_k, computed here, not every frame
        attn::spec with = trace_->spec, without = trace_->spec;
        with.score = attn::score_kind::scaled_dot;
        without.score = attn::score_kind::dot;
        fit_score_params(with);
        fit_score_params(without);
        what_if_error_.clear();
        try {
            with_scaling_ = attn::compute_trace(with);
            without_scaling_ = attn::compute_trace(without);
        } catch (const attn::spec_error& e) {
            with_scaling_.reset(), without_scaling_.reset();
            what_if_error_ = e.what();
        }
    } catch (const attn::spec_error& e) {
        error_ = e.what();  // the picture keeps the last good trace
    }
}

void Lab::frame(float dt) {
    // the first layout is drawn for 1280 × 800 and stretched to the window the lab opens in
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float sx = display.x / 1280.0f, sy = display.y / 800.0f;
    const auto place = [sx, sy](float x, float y, float w, float h) {
        ImGui::SetNextWindowPos(ImVec2(x * sx, y * sy), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(w * sx, h * sy), ImGuiCond_FirstUseEver);
    };
    place(8, 8, 380, 784);
    panel_spec();
    place(396, 8, 876, 118);
    panel_timeline(dt);
    place(396, 132, 876, 400);
    panel_stage();
    place(396, 538, 430, 254);
    if (example_ == "complexity") panel_complexity();
    else panel_what_if();
    place(834, 538, 438, 254);
    panel_all_stages();
}

// [SECTION] panels

void Lab::panel_spec() {
    ImGui::Begin(tr("Spec###spec", "输入与权重###spec"));
    if (ImGui::Button(zh_ ? "English" : "中文")) zh_ = !zh_;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("language", "语言"));
    const std::string current = example_.empty() ? tr("blank spec", "空白 spec") : example_;
    if (ImGui::BeginCombo(tr("example", "示例"), current.c_str())) {
        for (const std::string& id : example_ids_)
            if (ImGui::Selectable(id.c_str(), id == example_)) load(id, "");
        if (ImGui::Selectable(tr("blank spec", "空白 spec"), example_.empty())) load_blank();
        ImGui::EndCombo();
    }
    if (!example_.empty()) {
        const attn::json& doc = attn::example_document(example_);
        if (doc.contains("variants")) {
            if (ImGui::BeginCombo(tr("variant", "变体"), variant_.empty() ? "—" : variant_.c_str())) {
                for (const attn::json& v : doc["variants"]) {
                    const std::string vid = v["id"].get<std::string>();
                    if (ImGui::Selectable(vid.c_str(), vid == variant_)) load(example_, vid);
                }
                ImGui::EndCombo();
            }
        }
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(doc["title"][zh_ ? "zh" : "en"].get<std::string>().c_str());
        ImGui::TextDisabled("%s", doc["embeddings"][zh_ ? "zh" : "en"].get<std::string>().c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Separator();
    bool changed = false;
    const char* scores[] = {"dot", "scaled_dot", "additive", "bilinear"};
    int score = int(spec_.score);
    if (ImGui::Combo(tr("score", "打分函数"), &score, scores, 4)) {
        spec_.score = attn::score_kind(score);
        fit_score_params(spec_);
        changed = true;
    }
    if (ImGui::SliderInt(tr("heads", "头数"), &spec_.heads, 1, 8)) {
        fit_score_params(spec_);  // d_head changed with the heads
        changed = true;
    }
    const char* masks[] = {"none", "causal", "window", "matrix"};
    int mask = int(spec_.mask);
    if (ImGui::Combo(tr("mask", "掩码"), &mask, masks, 4)) {
        spec_.mask = attn::mask_kind(mask);
        if (spec_.mask == attn::mask_kind::window && spec_.window < 1) spec_.window = 2;
        if (spec_.mask == attn::mask_kind::matrix &&
            (spec_.mask_matrix.shape(0) != spec_.n_q() || spec_.mask_matrix.shape(1) != spec_.n_k())) {
            spec_.mask_matrix = attn::matrix::from_shape({spec_.n_q(), spec_.n_k()});
            spec_.mask_matrix.fill(1.0f);
        }
        changed = true;
    }
    if (spec_.mask == attn::mask_kind::window) changed |= ImGui::SliderInt(tr("window", "窗口"), &spec_.window, 1, 8);
    if (spec_.mask != attn::mask_kind::none)
        changed |= ImGui::InputFloat(tr("mask value", "掩码值"), &spec_.mask_value, 0, 0, "%g", ImGuiInputTextFlags_EnterReturnsTrue);
    if (spec_.mask == attn::mask_kind::matrix) {
        ImGui::TextDisabled("%s", tr("click cells to draw the mask", "点击格子绘制掩码"));
        const int k = heatmap({"##maskdraw", "mask", spec_.mask_matrix.data(), int(spec_.n_q()), int(spec_.n_k()),
                               spec_.query_tokens, {}, true, -1, 26.0f});
        if (k >= 0) {
            spec_.mask_matrix.data()[k] = spec_.mask_matrix.data()[k] != 0.0f ? 0.0f : 1.0f;
            changed = true;
        }
    }
    const char* positionals[] = {"none", "sinusoidal", "learned"};
    int pos = int(spec_.positional);
    if (ImGui::Combo(tr("positional", "位置编码"), &pos, positionals, 3)) {
        spec_.positional = attn::positional_kind(pos);
        const std::size_t n = std::max(spec_.n_q(), spec_.n_k());
        if (spec_.positional == attn::positional_kind::learned && spec_.learned.shape(0) < n) {
            spec_.learned = attn::matrix::from_shape({n, spec_.d_model()});
            spec_.learned.fill(0.0f);
        }
        changed = true;
    }
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(207, 34, 46, 255));
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
    bool cross = spec_.memory.has_value();
    if (ImGui::Checkbox(tr("cross-attention (K, V from a memory)", "交叉注意力（K、V 来自 memory）"), &cross)) {
        if (cross) spec_.memory = spec_.x;  // start from a copy of X: the same numbers, now on the key side
        else spec_.memory.reset(), spec_.key_tokens.clear();
        if (spec_.mask == attn::mask_kind::matrix) spec_.mask = attn::mask_kind::none;  // its shape was n_q × n_k
        changed = true;
    }
    if (ImGui::CollapsingHeader("X", ImGuiTreeNodeFlags_DefaultOpen)) changed |= edit_grid("x", spec_.x);
    if (spec_.memory && ImGui::CollapsingHeader("memory")) changed |= edit_grid("memory", *spec_.memory);
    attn::projection* projections[] = {&spec_.wq, &spec_.wk, &spec_.wv, &spec_.wo};
    const char* names[] = {"W_q", "W_k", "W_v", "W_o"};
    for (int p = 0; p < 4; ++p) {
        ImGui::PushID(p);
        bool on = projections[p]->w.has_value();
        if (ImGui::Checkbox(names[p], &on)) {
            if (on) projections[p]->w = identity(spec_.d_model());
            else projections[p]->w.reset();
            if (!spec_.wo.w) spec_.wo.b.reset();  // b_o alone is refused: it goes with W_o
            changed = true;
        }
        if (projections[p]->w) {
            ImGui::SameLine();
            if (ImGui::TreeNode(tr("values", "值"))) {
                changed |= edit_grid(names[p], *projections[p]->w);
                if (projections[p]->b) changed |= edit_vector("b", *projections[p]->b);
                ImGui::TreePop();
            }
        }
        ImGui::PopID();
    }
    if (spec_.additive.w1 && ImGui::CollapsingHeader("additive W1, W2, v")) {
        changed |= edit_grid("w1", *spec_.additive.w1);
        changed |= edit_grid("w2", *spec_.additive.w2);
        changed |= edit_vector("av", *spec_.additive.v);
    }
    if (spec_.bilinear && ImGui::CollapsingHeader("bilinear W")) changed |= edit_grid("bw", *spec_.bilinear);
    if (spec_.positional == attn::positional_kind::learned && ImGui::CollapsingHeader(tr("learned PE table", "可学习位置表")))
        changed |= edit_grid("pe", spec_.learned);
    if (changed) recompute();
    ImGui::End();
}

void Lab::panel_timeline(float dt) {
    ImGui::Begin(tr("Timeline###timeline", "时间轴###timeline"));
    if (!trace_) {
        ImGui::End();
        return;
    }
    const auto stages = trace_->stages();
    const int n = int(stages.size());
    if (playing_) {  // a quarter second a result cell, within 1.2 … 5 s a stage (as on the page)
        const auto view = stages[std::size_t(stage_)];
        const float steps = float(view.shape.size() == 3 ? view.shape[1] * view.shape[2] : view.size);
        progress_ += dt * speed_ / std::clamp(steps * 0.25f, 1.2f, 5.0f);
        if (progress_ >= 1.0f) {
            if (stage_ + 1 < n) ++stage_, progress_ = 0.0f;
            else progress_ = 1.0f, playing_ = false;
        }
    }
    if (ImGui::Button("<")) stage_ = std::max(0, stage_ - 1), progress_ = 1.0f;
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? tr("Pause", "暂停") : tr("Play", "播放"))) {
        playing_ = !playing_;
        if (playing_ && progress_ >= 1.0f) stage_ = stage_ + 1 < n ? stage_ + 1 : 0, progress_ = 0.0f;
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) stage_ = std::min(n - 1, stage_ + 1), progress_ = 1.0f;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    next_button_ = {a.x, a.y, b.x - a.x, b.y - a.y};
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * ImGui::GetIO().FontGlobalScale);
    ImGui::SliderFloat(tr("speed", "速度"), &speed_, 0.25f, 4.0f, "%.2fx");
    float position = float(stage_) + std::min(progress_, 0.999f);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##scrub", &position, 0.0f, float(n) - 0.001f, "")) {
        stage_ = std::clamp(int(position), 0, n - 1);
        progress_ = position - float(stage_);
        playing_ = false;
    }
    for (int i = 0; i < n; ++i) {
        if (i) ImGui::SameLine(0, 3);
        const attn::bilingual t = attn::stage_title(stages[std::size_t(i)].id);
        const bool current = i == stage_;
        if (current) ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(31, 111, 235, 255));
        if (ImGui::SmallButton((std::string(attn::stage_name(stages[std::size_t(i)].id)) + "##st").c_str()))
            stage_ = i, progress_ = 1.0f, playing_ = false;
        if (current) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", zh_ ? t.zh : t.en);
    }
    stage_name_ = attn::stage_name(stages[std::size_t(stage_)].id);
    ImGui::End();
}

void Lab::draw_stage(stage_id id, float progress, bool small) {
    const attn::trace& t = *trace_;
    const attn::spec& s = t.spec;
    const int h = std::min(head_, s.heads - 1);
    const std::vector<std::string> qt = s.query_tokens.empty() ? numbered("q", s.n_q()) : s.query_tokens;
    const std::vector<std::string> kt = !s.key_tokens.empty() ? s.key_tokens : s.memory ? numbered("k", s.n_k()) : qt;
    const float cell = small ? 20.0f : 34.0f;
    // one matrix of the trace: 2-D whole, 3-D the selected head
    const auto of = [&](stage_id sid, const std::string& title, const std::vector<std::string>& rows,
                        const std::vector<std::string>& cols, bool prob) {
        const attn::stage_view v = *t.stage(sid);
        const bool per_head = v.shape.size() == 3;
        const int r = int(v.shape[per_head ? 1 : 0]), c = int(v.shape[per_head ? 2 : 1]);
        return heatmap_args{attn::stage_name(sid), title + (per_head && s.heads > 1 ? " (head " + std::to_string(h + 1) + ")" : ""),
                            v.data + (per_head ? std::size_t(h) * r * c : 0), r, c, rows, cols, prob, -1, cell};
    };
    std::vector<heatmap_args> ops;
    const stage_id input = t.masked ? stage_id::masked : t.scaled ? stage_id::scaled : stage_id::scores;
    const auto dims = numbered("d", s.d_head());
    const auto all_dims = numbered("d", s.d_model());
    switch (id) {
        case stage_id::pe: break;
        case stage_id::x: if (t.pe) ops.push_back(of(stage_id::pe, "PE", qt, all_dims, false)); break;
        case stage_id::memory: if (t.pe) ops.push_back(of(stage_id::pe, "PE", kt, all_dims, false)); break;
        case stage_id::q: ops.push_back(of(stage_id::x, "X", qt, all_dims, false)); break;
        case stage_id::k:
        case stage_id::v: ops.push_back(of(t.memory ? stage_id::memory : stage_id::x, t.memory ? "M" : "X", kt, all_dims, false)); break;
        case stage_id::scores: ops.push_back(of(stage_id::q, "Q", qt, dims, false)); ops.push_back(of(stage_id::k, "K", kt, dims, false)); break;
        case stage_id::scaled: ops.push_back(of(stage_id::scores, "E", qt, kt, false)); break;
        case stage_id::masked:
            ops.push_back({"maskview", "mask", nullptr, 0, 0, qt, kt, true, -1, cell});
            ops.push_back(of(t.scaled ? stage_id::scaled : stage_id::scores, "E", qt, kt, false));
            break;
        case stage_id::row_max:
        case stage_id::exp: ops.push_back(of(input, "e", qt, kt, false)); break;
        case stage_id::row_sum: ops.push_back(of(stage_id::exp, "exp", qt, kt, false)); break;
        case stage_id::weights: ops.push_back(of(stage_id::exp, "exp", qt, kt, false)); ops.push_back(of(stage_id::row_sum, "sum", qt, {"s"}, false)); break;
        case stage_id::context: ops.push_back(of(stage_id::weights, "α", qt, kt, true)); ops.push_back(of(stage_id::v, "V", kt, dims, false)); break;
        case stage_id::concat: ops.push_back(of(stage_id::context, "C", qt, dims, false)); break;
        case stage_id::output: ops.push_back(of(stage_id::concat, "concat", qt, all_dims, false)); break;
    }
    std::vector<float> keep;  // the mask as floats, for its heatmap
    if (t.mask) {
        keep.assign(t.mask->begin(), t.mask->end());
        for (heatmap_args& a : ops)
            if (a.data == nullptr) a.data = keep.data(), a.rows = int(t.mask->shape(0)), a.cols = int(t.mask->shape(1));
    }
    const bool result_dims = id == stage_id::q || id == stage_id::k || id == stage_id::v || id == stage_id::context;
    const bool result_keys = id == stage_id::k || id == stage_id::v;
    heatmap_args result = of(id, zh_ ? attn::stage_title(id).zh : attn::stage_title(id).en, result_keys ? kt : id == stage_id::pe ? numbered("pos ", s.n_q()) : qt,
                             id == stage_id::row_max ? std::vector<std::string>{"m"} : id == stage_id::row_sum ? std::vector<std::string>{"s"}
                             : result_dims ? dims : (id == stage_id::x || id == stage_id::memory || id == stage_id::pe || id == stage_id::concat || id == stage_id::output) ? all_dims : kt,
                             id == stage_id::weights);
    if (progress < 1.0f) result.revealed = int(progress * float(result.rows * result.cols)) + 1;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        if (k) ImGui::SameLine(0, 16);
        ops[k].id = small ? "##opsmall" : ops[k].id;
        ImGui::PushID(int(k));
        heatmap(ops[k]);
        ImGui::PopID();
    }
    if (!ops.empty()) arrow(progress);
    ImGui::PushID("result");
    heatmap(result);
    ImGui::PopID();
}

void Lab::panel_stage() {
    ImGui::Begin(tr("Stage###stage", "阶段###stage"), nullptr, ImGuiWindowFlags_HorizontalScrollbar);
    if (trace_) {
        const attn::stage_view v = trace_->stages()[std::size_t(stage_)];
        const attn::bilingual title = attn::stage_title(v.id), text = attn::stage_explanation(v.id);
        ImGui::Text("%s    %s", zh_ ? title.zh : title.en, attn::stage_formula(v.id, trace_->spec).c_str());
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", zh_ ? text.zh : text.en);
        ImGui::PopTextWrapPos();
        if (v.shape.size() == 3 && trace_->spec.heads > 1 && v.id != stage_id::q && v.id != stage_id::k && v.id != stage_id::v) {
            ImGui::SliderInt(tr("head", "头"), &head_, 0, trace_->spec.heads - 1);
        }
        draw_stage(v.id, progress_, false);
    }
    ImGui::End();
}

void Lab::panel_all_stages() {
    ImGui::Begin(tr("All stages###all", "所有阶段###all"));
    ImGui::TextDisabled("%s", tr("one panel per stage", "每个阶段一个面板"));
    if (trace_) {
        for (const attn::stage_view& v : trace_->stages()) {
            const attn::bilingual title = attn::stage_title(v.id), text = attn::stage_explanation(v.id);
            if (ImGui::CollapsingHeader((std::string(zh_ ? title.zh : title.en) + "###" + attn::stage_name(v.id)).c_str())) {
                ImGui::PushTextWrapPos(0);
                ImGui::TextUnformatted(attn::stage_formula(v.id, trace_->spec).c_str());
                ImGui::TextDisabled("%s", zh_ ? text.zh : text.en);
                ImGui::PopTextWrapPos();
                ImGui::PushID(attn::stage_name(v.id));
                draw_stage(v.id, 1.0f, true);
                ImGui::PopID();
            }
            help_marker(zh_ ? text.zh : text.en);
        }
    }
    ImGui::End();
}

void Lab::panel_what_if() {
    ImGui::Begin(tr("What if###whatif", "如果###whatif"));
    ImGui::TextDisabled("%s", tr("weights with ÷√d_k (left) and without (right)", "权重：除以 √d_k（左）与不除（右）"));
    if (with_scaling_ && without_scaling_) {
        const attn::trace& a = *with_scaling_;
        const attn::trace& b = *without_scaling_;
        const int r = int(a.weights.shape(1)), c = int(a.weights.shape(2));
        heatmap({"##with", "÷√d_k", a.weights.data(), r, c, a.spec.query_tokens, {}, true, -1, 22.0f});
        ImGui::SameLine(0, 24);
        heatmap({"##without", tr("no scaling", "不缩放"), b.weights.data(), r, c, b.spec.query_tokens, {}, true, -1, 22.0f});
    } else {
        ImGui::TextUnformatted(what_if_error_.c_str());
    }
    ImGui::End();
}

void Lab::panel_complexity() {
    ImGui::Begin(tr("Complexity###complexity", "复杂度###complexity"));
    const attn::json& doc = attn::example_document("complexity");
    if (complexity_.empty() || ImGui::Button(tr("measure", "测量"))) {
        complexity_.clear();
        for (const attn::json& n : doc["sizes"]) {
            const attn::spec s = attn::spec_from_json(attn::complexity_spec_json(n.get<std::size_t>(), doc["d_model"].get<std::size_t>()));
            const auto start = std::chrono::steady_clock::now();
            const attn::trace t = attn::compute_trace(s);
            const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
            std::size_t bytes = 0;
            for (const attn::stage_view& v : t.stages()) bytes += v.size * sizeof(float);
            complexity_.push_back({n.get<int>(), ms, float(bytes) / float(1 << 20)});
        }
    }
    std::vector<float> ms, mib;
    for (const measurement& m : complexity_) ms.push_back(m.ms), mib.push_back(m.mib);
    const ImVec2 size(-1, 70 * ImGui::GetIO().FontGlobalScale);
    ImGui::PlotLines(tr("time (ms)", "时间（毫秒）"), ms.data(), int(ms.size()), 0, nullptr, 0.0f, FLT_MAX, size);
    ImGui::PlotLines(tr("memory (MiB)", "内存（MiB）"), mib.data(), int(mib.size()), 0, nullptr, 0.0f, FLT_MAX, size);
    for (const measurement& m : complexity_) ImGui::Text("n = %4d   %8.3f ms   %8.3f MiB", m.n, m.ms, m.mib);
    ImGui::End();
}

}  // namespace lab
