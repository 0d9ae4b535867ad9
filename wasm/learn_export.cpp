// The learn part (web/dist/learn): gradients, their chain rule, the training tasks, the trainer and the guided
// path's figures (rnn-limits, why-sqrt-dk, cnn-rnn-attention), loaded when a page or a program first asks for
// one, so the sequence stepper's download does not carry them. One entry, attn_call(operation, request,
// payload) (one_call.hpp): a spec travels as the payload, its JSON text read by the core's guarded parser.
//
// [SECTION] the trainers kept here · the operations · the table
#include <cstdint>
#include <map>
#include <memory>

#include "one_call.hpp"

namespace {

using namespace attn;
using attn::wasm::number_of;
using attn::wasm::payload;
using attn::wasm::text_of;

// [SECTION] the trainers kept here

// Training runs the page steps between frames: each lives here under a handle until JS frees it.
std::map<int, std::unique_ptr<trainer>> trainers;
int next_trainer = 1;

int trainer_handle(const json& r) { return static_cast<int>(number_of(r, "trainer", 0, 0, 2147483647, true)); }

/// The live trainer of a request's handle; a disposed one is refused in one sentence.
trainer& trainer_of(const json& r) {
    const auto it = trainers.find(trainer_handle(r));
    if (it == trainers.end()) throw spec_error("this trainer was disposed of.");
    return *it->second;
}

// [SECTION] the operations

/// The chain rule behind one cell of dL/d(stage) of the payload's grad spec ({stage, head, i, j, detail}): its text.
/// The passes of the last spec asked about are kept: hovering cell after cell costs no recompute.
json explain_grad(const json& r, const payload& spec) {
    struct passes {
        loss_spec loss;
        attn::grad_result g;
    };
    static attn::wasm::kept_for_text<passes> last;
    const attn::wasm::cell c = attn::wasm::cell_of(r);
    const passes& p = last.of(spec.text(), [&] {
        const auto [s, loss] = parse_grad_spec(spec.text());
        return passes{loss, compute_grad(s, loss)};
    });
    return explain_grad_cell(p.g, p.loss, c.stage, c.head, c.i, c.j, attn::wasm::flag_of(r, "detail"));
}

/// {trainer, count} → {losses, done}, and when a step was refused its sentence as "stopped" (the steps before it are
/// kept and their losses come back with it); more steps than one call may train are refused before the first.
json trainer_step(const json& r) {
    trainer& run = trainer_of(r);
    run.check_steps(static_cast<std::uint64_t>(number_of(r, "count", 1, 0, 1e9, true)));
    const int count = static_cast<int>(number_of(r, "count", 1, 0, 1e9, true));
    json out = json::object();
    std::vector<float> losses;
    try {
        for (int k = 0; k < count; ++k) losses.push_back(run.step());
    } catch (const spec_error& e) {
        out["stopped"] = e.what();
    }
    out["losses"] = losses;  // floats written as doubles: exact again as Float32Array
    out["done"] = run.steps_done();
    return out;
}

// [SECTION] the table

/// The operations, by name (attn_call("operations")): what api.js's learning calls name.
const attn::wasm::operation_table& operations() {
    using request = const json&;
    static const attn::wasm::operation_table table = {
        // attn grad's JSON for the payload's grad spec ({loss, grads, stage_grads})
        {"grad", [](request, const payload& spec) {
             const auto [s, loss] = parse_grad_spec(spec.text());
             return grad_to_json(compute_grad(s, loss));
         }},
        {"explain_grad", explain_grad},
        // the training tasks' ids, in the page's order; a task's train spec (attn/tasks.hpp)
        {"tasks", [](request, const payload&) { return json(training_task_ids()); }},
        {"task", [](request r, const payload&) { return training_task_json(text_of(r, "id")); }},
        // a trainer for the payload's spec with "train": {trainer, steps}
        {"trainer", [](request, const payload& spec) {
             auto [s, settings] = parse_train_spec(spec.text());
             const int handle = next_trainer++;
             trainers.emplace(handle, std::make_unique<trainer>(std::move(s), std::move(settings)));
             return json{{"trainer", handle}, {"steps", trainers.at(handle)->settings().steps}};
         }},
        {"trainer_step", [](request r, const payload&) { return trainer_step(r); }},
        // {trainer, count}: refuses count steps in one call if they are over the training limit
        {"trainer_check_steps", [](request r, const payload&) {
             trainer_of(r).check_steps(static_cast<std::uint64_t>(number_of(r, "count", 0, 0, 9007199254740991.0, true)));
             return json::object();
         }},
        // {trainer, lr}: the learning rate from the next step on
        {"trainer_set_lr", [](request r, const payload&) {
             trainer_of(r).set_learning_rate(static_cast<float>(number_of(r, "lr", 0, -1e300, 1e300, false)));
             return json::object();
         }},
        // {trainer}: the spec with the parameters as trained so far
        {"trainer_spec", [](request r, const payload&) { return spec_to_json(trainer_of(r).current()); }},
        {"trainer_free", [](request r, const payload&) {
             trainers.erase(trainer_handle(r));
             return json::object();
         }},
        // {name} and the payload's request JSON (empty: the defaults): a guided-path figure's numbers
        // (attn/figures.hpp), as `attn figure NAME` writes them
        {"figure", [](request r, const payload& text) { return figure_json(text_of(r, "name"), text.text()); }},
    };
    return table;
}

}  // namespace

// in the unnamed namespace above, the table's calls find this file's operations before attn's names
const attn::wasm::operation_table& attn::wasm::module_operations() { return operations(); }
const char* const attn::wasm::module_out_of_memory = attn::wasm::spec_out_of_memory;
