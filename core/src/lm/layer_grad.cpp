// One layer's attention with the model's loss above it: the bridge from the language model's backward
// pass (backward.cpp) to the sequence core's (grad.cpp), so that a layer opened in the playground's stepper
// shows, under each stage, the gradient of the model's own next-character loss.
#include <algorithm>

#include "attn/lm_json.hpp"
#include "attn/lm_train.hpp"

namespace attn::lm {

layer_grad layer_grad_of(const model& m, const model_trace& t, int layer) {
    layer_grad out;
    out.spec = layer_spec_of(m, t, layer);  // refuses a layer the model lacks
    const std::vector<int>& ids = t.tokens.ids;
    const std::size_t n = ids.size(), d = static_cast<std::size_t>(m.config.d_model);
    if (n < 2) throw spec_error("a layer's gradient needs a text of at least 2 characters: each is predicted from those before it.");
    check_text_cost(m, n, "a layer's gradient", layer_grad_cost);
    // the first n − 1 characters predict the next ones; causal attention makes their rows the same as in
    // the whole text's trace, and the last row (whose prediction is not in the loss) gets no gradient
    const std::vector<int> in(ids.begin(), ids.end() - 1), target(ids.begin() + 1, ids.end());
    std::vector<float> grad;
    std::vector<std::vector<float>> at_output;
    out.loss = loss_and_grad(m, in, target, 1, static_cast<int>(n - 1), &grad, &at_output);
    check_finite(out.loss, "loss");
    out.upstream.loss = loss_spec::kind::upstream;
    out.upstream.target = matrix::from_shape({n, d});
    std::fill(out.upstream.target.begin(), out.upstream.target.end(), 0.0f);
    const std::vector<float>& g = at_output[static_cast<std::size_t>(layer)];
    check_finite(g.data(), g.size(), "loss gradient");
    std::copy(g.begin(), g.end(), out.upstream.target.begin());
    return out;
}

json layer_grad_json(const layer_grad& g) {
    json spec = spec_to_json(g.spec);
    spec["loss"] = "upstream";
    spec["upstream"] = matrix_json(g.upstream.target);
    return {{"loss", g.loss}, {"spec", std::move(spec)}};
}

}  // namespace attn::lm
