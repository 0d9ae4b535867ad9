// The learn part (web/dist/learn): gradients, their chain rule, the training tasks, the trainer and the guided
// path's figures (rnn-limits, why-sqrt-dk, cnn-rnn-attention), loaded when a page or a program first asks for
// one, so the sequence stepper's download does not carry them.
// Plain exports answering JSON text (text_answer.hpp).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "text_answer.hpp"

namespace {

using namespace attn;
using attn::wasm::answer;
using attn::wasm::text_of;

// Training runs the page steps between frames: each lives here under a handle until JS deletes it.
std::map<int, std::unique_ptr<trainer>> trainers;
int next_trainer = 1;

/// The live trainer of a handle; a disposed one is refused in one sentence.
trainer& trainer_at(int handle) {
    const auto it = trainers.find(handle);
    if (it == trainers.end()) throw spec_error("this trainer was disposed of.");
    return *it->second;
}

}  // namespace

// attn grad's JSON for a grad spec ({loss, grads, stage_grads}).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_grad(const char* spec, std::size_t length) {
    return answer([&] {
        const auto [s, loss] = parse_grad_spec(text_of(spec, length));
        return grad_to_json(compute_grad(s, loss)).dump();
    });
}

// The chain rule behind one cell of dL/d(stage) for a grad spec (explain_grad_cell). The passes of the last
// spec asked about are kept: hovering cell after cell costs no recompute.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_explain_grad(const char* spec, std::size_t length, const char* stage, std::size_t stage_length,
                                                              int head, int i, int j, int detail) {
    struct passes {
        loss_spec loss;
        attn::grad_result g;
    };
    static attn::wasm::kept_for_text<passes> last;
    return answer([&] {
        const stage_id id = attn::wasm::checked_cell(text_of(stage, stage_length), head, i, j);
        const std::string_view text = text_of(spec, length);
        const passes& p = last.of(text, [&] {
            const auto [s, loss] = parse_grad_spec(text);
            return passes{loss, compute_grad(s, loss)};
        });
        return explain_grad_cell(p.g, p.loss, id, std::size_t(head), std::size_t(i), std::size_t(j), detail != 0);
    });
}

// The training tasks' ids, in the page's order (a JSON array).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_task_ids() {
    return answer([] { return json(training_task_ids()).dump(); });
}

// A training task's train spec (attn/tasks.hpp).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_task(const char* id, std::size_t length) {
    return answer([&] { return training_task_json(std::string(text_of(id, length))).dump(); });
}

// A trainer for a spec with "train": {handle, steps}.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_trainer_create(const char* spec, std::size_t length) {
    return answer([&] {
        auto [s, settings] = parse_train_spec(text_of(spec, length));
        const int handle = next_trainer++;
        trainers.emplace(handle, std::make_unique<trainer>(std::move(s), std::move(settings)));
        return json{{"handle", handle}, {"steps", trainers.at(handle)->settings().steps}}.dump();
    });
}

// count steps: {losses, done} and, when a step was refused, its sentence as "error" (the steps before it
// are kept and their losses come back with it).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_trainer_step(int handle, int count) {
    return answer([&] {
        trainer& run = trainer_at(handle);
        run.check_steps(std::uint64_t(std::max(count, 0)));  // refused before the first step
        json out = json::object();
        std::vector<float> losses;
        try {
            for (int k = 0; k < count; ++k) losses.push_back(run.step());
        } catch (const spec_error& e) {
            out["error"] = e.what();
        }
        out["losses"] = losses;  // floats written as doubles: exact again as Float32Array
        out["done"] = run.steps_done();
        return out.dump();
    });
}

// Refuses count steps in one call if they are over the training limit ("" when they are not).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_trainer_check_steps(int handle, double count) {
    return answer([&] {
        trainer_at(handle).check_steps(count > 0 ? std::uint64_t(count) : 0);
        return std::string();
    });
}

// The trainer's learning rate from its next step on ("").
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_trainer_set_lr(int handle, float lr) {
    return answer([&] {
        trainer_at(handle).set_learning_rate(lr);
        return std::string();
    });
}

// The spec with the parameters as trained so far.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_trainer_spec(int handle) {
    return answer([&] { return spec_to_json(trainer_at(handle).current()).dump(); });
}

extern "C" EMSCRIPTEN_KEEPALIVE void attn_trainer_delete(int handle) { trainers.erase(handle); }

// A guided-path figure's numbers (attn/figures.hpp: "rnn-limits", "why-sqrt-dk", "cnn-rnn-attention") for a
// request's JSON text (empty: the defaults), as `attn figure NAME` writes them.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_figure(const char* name, std::size_t name_length, const char* request,
                                                        std::size_t request_length) {
    return answer([&] { return figure_json(text_of(name, name_length), text_of(request, request_length)).dump(); });
}
