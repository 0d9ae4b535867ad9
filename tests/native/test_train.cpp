// Training: PyTorch's Adam and SGD step for step against an update written here from the formulas
// (on the core's gradients), the loss falling on a small alignment task, the same run twice giving
// the same numbers, and the refusals of a train spec.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "check.hpp"

namespace {

const char* const toy = R"({"x": [[1, 0, 0], [0, 1, 0]], "memory": [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
  "weights": {"wq": [[0.2, -0.1, 0], [0.1, 0.3, 0.1], [0, 0, 0.2]], "wk": [[0.1, 0, 0.2], [0, -0.2, 0.1], [0.3, 0.1, 0]]},
  "train": {"data": [
      {"x": [[1, 0, 0], [0, 1, 0]], "memory": [[0, 1, 0], [1, 0, 0], [0, 0, 1]], "target": [[0, 1, 0], [1, 0, 0]]},
      {"x": [[0, 1, 0], [0, 0, 1], [1, 0, 0]], "memory": [[1, 0, 0], [0, 0, 1], [0, 1, 0]], "target": [[1, 0, 0], [0, 0, 1], [0, 1, 0]]}],
    "params": ["wq", "wk"], "optimizer": OPT, "steps": 3}})";

std::string with_optimizer(const std::string& opt) {
    std::string text = toy;
    text.replace(text.find("OPT"), 3, opt);
    return text;
}

/// The mean gradient of a parameter over the data at spec s (the core's backward pass, summed here).
std::vector<double> mean_grad(const attn::spec& s, const attn::train_spec& t, const std::string& name) {
    std::vector<double> sum;
    for (const attn::train_item& item : t.data) {
        attn::spec si = s;
        si.x = item.x, si.memory = item.memory;
        const attn::grad_result r = attn::compute_grad(si, item.loss);
        const attn::matrix& g = name == "wq" ? *r.grads.wq.w : *r.grads.wk.w;
        sum.resize(g.size(), 0.0);
        for (std::size_t i = 0; i < g.size(); ++i) sum[i] += g.data()[i];
    }
    for (double& x : sum) x /= double(t.data.size());
    return sum;
}

}  // namespace

TEST_CASE("train: Adam (PyTorch's: bias-corrected, eps after the square root) step for step") {
    auto [s, t] = attn::parse_train_spec(with_optimizer(R"({"adam": {"lr": 0.05, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6}})"));
    attn::trainer run(s, t);
    attn::spec mine = s;  // the same steps, written out here
    std::vector<double> m[2], v[2];
    for (int step = 1; step <= 3; ++step) {
        run.step();
        const std::vector<double> grads[2] = {mean_grad(mine, t, "wq"), mean_grad(mine, t, "wk")};  // both at the same point
        for (int p = 0; p < 2; ++p) {
            const std::vector<double>& g = grads[p];
            m[p].resize(g.size(), 0.0), v[p].resize(g.size(), 0.0);
            attn::matrix& w = p == 0 ? *mine.wq.w : *mine.wk.w;
            for (std::size_t i = 0; i < g.size(); ++i) {
                m[p][i] = 0.8 * m[p][i] + 0.2 * g[i];
                v[p][i] = 0.99 * v[p][i] + 0.01 * g[i] * g[i];
                const double m_hat = m[p][i] / (1 - std::pow(0.8, step)), v_hat = v[p][i] / (1 - std::pow(0.99, step));
                w.data()[i] = float(w.data()[i] - 0.05 * m_hat / (std::sqrt(v_hat) + 1e-6));
            }
        }
        attn_test::check_close(*run.current().wq.w, *mine.wq.w, 2e-6, "wq after step " + std::to_string(step));
        attn_test::check_close(*run.current().wk.w, *mine.wk.w, 2e-6, "wk after step " + std::to_string(step));
    }
    CHECK(run.steps_done() == 3);
}

TEST_CASE("train: SGD is p − lr·g, exactly") {
    auto [s, t] = attn::parse_train_spec(with_optimizer(R"({"sgd": {"lr": 0.5}})"));
    const std::vector<double> g = mean_grad(s, t, "wq");
    attn::trainer run(s, t);
    run.step();
    for (std::size_t i = 0; i < g.size(); ++i) CHECK(run.current().wq.w->data()[i] == doctest::Approx(s.wq.w->data()[i] - 0.5 * g[i]).epsilon(1e-6));
}

TEST_CASE("train: the loss falls, and the same run twice gives the same numbers") {
    auto [s, t] = attn::parse_train_spec(with_optimizer(R"({"adam": {"lr": 0.05}})"));
    attn::trainer a(s, t), b(s, t);
    const float first = a.loss();
    std::vector<float> la, lb;
    for (int k = 0; k < 200; ++k) la.push_back(a.step()), lb.push_back(b.step());
    CHECK(la == lb);  // deterministic, bit for bit
    CHECK(la.front() == first);
    CHECK(a.loss() < 0.5f * first);
}

TEST_CASE("train: a step that overflows is refused before it reaches the weights, and the run stays usable") {
    auto [s, t] = attn::parse_train_spec(with_optimizer(R"({"sgd": {"lr": 1e36}})"));
    attn::trainer run(s, t);
    run.step();  // the first step is finite: weights of order 1e36 come out of it
    const attn::matrix before = *run.current().wq.w;
    std::string refusal;
    for (int k = 0; k < 3 && refusal.empty(); ++k) {
        try {
            run.step();
        } catch (const attn::spec_error& e) {
            refusal = e.what();
        }
    }
    CHECK(refusal.find("training overflowed the float range at step ") == 0);
    const attn::matrix after = *run.current().wq.w;
    CHECK(run.steps_done() >= 1);
    bool finite = true;
    for (float v : after) finite &= std::isfinite(v);
    CHECK(finite);
    CHECK(std::equal(before.begin(), before.end(), after.begin()));  // the refused step changed nothing
}

TEST_CASE("train: weights and data edited between steps (the lab does) are what the next step starts from") {
    auto [s, t] = attn::parse_train_spec(with_optimizer(R"({"adam": {"lr": 0.05}})"));
    attn::trainer run(s, t);
    run.step();
    // a new W_q of the same shape, assigned as the lab assigns the spec panel's values
    attn::matrix edited = *run.current().wq.w;
    edited(0, 0) += 0.5f;
    run.current().wq.w = edited;
    run.data()[1].x(0, 1) = 0.25f;
    // the loss the next step reports is the loss at the edited weights and data
    attn::spec expected = run.current();
    double total = 0;
    for (const attn::train_item& item : run.data()) total += attn::compute_grad(attn::spec_for_item(expected, item.x, item.memory), item.loss).loss;
    const float reported = run.step();
    CHECK(reported == doctest::Approx(total / double(run.data().size())).epsilon(1e-6));
    CHECK(run.current().wq.w->data()[0] != edited.data()[0]);  // and it trained the edited matrix, not the old one
}

TEST_CASE("train: refusals name the field, down to the data item") {
    const auto refusal = [](const std::string& text) {
        try {
            attn::parse_train_spec(text);
        } catch (const attn::spec_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string base = R"({"x": [[1, 0]], "weights": {"wq": [[1, 0], [0, 1]]}, "train": )";
    CHECK(refusal(R"({"x": [[1, 0]]})") == "the spec has no \"train\": give {\"data\", \"params\", \"optimizer\", \"steps\"}.");
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0, 0]], "target": [[1, 0, 0]]}], "params": ["wq"], "optimizer": {"sgd": {"lr": 1}}}})")
              .rfind("train.data[0]: ", 0) == 0);
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0]], "target": [[1]]}], "params": ["wq"], "optimizer": {"sgd": {"lr": 1}}}})") ==
          "train.data[0]: target is 1 × 1 but the last stage is 1 × 2 (n_q × d_out).");
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0]], "target": [[1, 0]]}], "params": ["wk"], "optimizer": {"sgd": {"lr": 1}}}})") ==
          "train.params names wk but the spec has no wk: give its starting values.");
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0]], "target": [[1, 0]]}], "params": ["w_q"], "optimizer": {"sgd": {"lr": 1}}}})")
              .find("train.params[0] is \"w_q\"") == 0);
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0]], "target": [[1, 0]]}], "params": ["wq"], "optimizer": {"adam": {"lr": -1}}}})") ==
          "train.optimizer.adam.lr must be positive.");
    CHECK(refusal(base + R"({"data": [{"x": [[1, 0]], "target": [[1, 0]]}], "params": ["wq"], "optimizer": {"sgd": {"lr": 1}}, "steps": 0}})")
              .find("train.steps") == 0);
    CHECK(refusal(base + R"({"data": [], "params": ["wq"], "optimizer": {"sgd": {"lr": 1}}}})").find("train.data must be") == 0);
    CHECK(refusal(R"({"x": [[1, 0]], "loss": "upstream", "train": {}})") ==
          "the \"upstream\" loss is for one backward pass (the gradient a later loss sends back), not for training: use \"mse\" or \"cross_entropy\".");
}

TEST_CASE("tasks: after training the alignment task, every Chinese word's largest weight is on its English word") {
    auto [s, t] = attn::parse_train_spec(attn::training_task_json("alignment").dump());
    const std::vector<attn::alignment_item> items = attn::alignment_items();
    REQUIRE(items.size() == t.data.size());
    // before: W_q and W_k are small and random, the weights nearly uniform
    const auto largest_on_partner = [&](const attn::spec& trained) {
        int right = 0, total = 0;
        for (std::size_t k = 0; k < items.size(); ++k) {
            attn::spec si = trained;
            si.x = t.data[k].x, si.memory = t.data[k].memory, si.query_tokens.clear(), si.key_tokens.clear();
            const attn::trace tr = attn::compute_trace(si);
            const std::size_t n_k = items[k].en.size();
            for (std::size_t i = 0; i < items[k].zh.size(); ++i) {
                std::size_t best = 0;
                for (std::size_t j = 1; j < n_k; ++j)
                    if (tr.weights(0, i, j) > tr.weights(0, i, best)) best = j;
                right += int(best) == items[k].partner[i];
                ++total;
            }
        }
        return std::pair{right, total};
    };
    const auto [before, total] = largest_on_partner(s);
    attn::trainer run(s, t);
    for (int k = 0; k < t.steps; ++k) run.step();
    const auto [after, same_total] = largest_on_partner(run.current());
    const std::string said = std::string("alignment: ") + std::to_string(before) + " of " + std::to_string(total) + " words on their partner before training, " +
            std::to_string(after) + " after " + std::to_string(t.steps) + " steps (loss " + std::to_string(run.loss()) + ")";
    MESSAGE(said);
    CHECK(before < total / 2);
    CHECK(after == same_total);
}

TEST_CASE("tasks: reversing a sequence needs positions — with sinusoidal PE the loss ends far below the loss without") {
    float final_loss[2];
    for (int pe = 0; pe < 2; ++pe) {
        auto [s, t] = attn::parse_train_spec(attn::training_task_json(pe ? "positions-pe" : "positions-no-pe").dump());
        attn::trainer run(s, t);
        for (int k = 0; k < t.steps; ++k) run.step();
        final_loss[pe] = run.loss();
    }
    const std::string said = std::string("positions after 300 steps: loss ") + std::to_string(final_loss[1]) + " with PE, " +
                             std::to_string(final_loss[0]) + " without";
    MESSAGE(said);
    CHECK(final_loss[1] < 0.1f * final_loss[0]);
    CHECK(final_loss[0] > 0.5f);  // without positions, the reversed token cannot be found
    CHECK_THROWS_WITH_AS(attn::training_task_json("copy"),
                         "training task \"copy\" is unknown: use one of alignment, positions-pe, positions-no-pe, scaling-sqrt-dk, scaling-none.",
                         attn::spec_error);
}

TEST_CASE("tasks: why ÷√d_k — at d = 64 the unscaled softmax starts peaked and gets stuck; scaled, the same task trains") {
    float final_loss[2], start_max[2];
    for (int scaled = 0; scaled < 2; ++scaled) {
        auto [s, t] = attn::parse_train_spec(attn::training_task_json(scaled ? "scaling-sqrt-dk" : "scaling-none").dump());
        CHECK(s.d_model() == 64);
        const attn::trace before = attn::compute_trace(s);  // the first sentence before training: how peaked is α?
        float mean_max = 0;
        for (std::size_t i = 0; i < s.n_q(); ++i) {
            float top = 0;
            for (std::size_t j = 0; j < s.n_k(); ++j) top = std::max(top, before.weights(0, i, j));
            mean_max += top / float(s.n_q());
        }
        start_max[scaled] = mean_max;
        attn::trainer run(s, t);
        for (int k = 0; k < t.steps; ++k) run.step();
        final_loss[scaled] = run.loss();
    }
    const std::string said = std::string("scaling after 300 steps: loss ") + std::to_string(final_loss[1]) + " with ÷√d_k, " +
                             std::to_string(final_loss[0]) + " without; mean largest α at the start " + std::to_string(start_max[1]) +
                             " vs " + std::to_string(start_max[0]);
    MESSAGE(said);
    CHECK(start_max[0] > 2 * start_max[1]);  // unscaled: peaked before any training (scores 8× larger)
    CHECK(start_max[1] < 0.4f);              // scaled: close to uniform over 6 keys
    CHECK(final_loss[1] < 0.01f * final_loss[0]);
    CHECK(final_loss[0] > 0.05f);
}
