// Everything of the attention core in one include.
#pragma once

#include "attn/examples.hpp"
#include "attn/json.hpp"
#include "attn/kernels.hpp"
#include "attn/limits.hpp"
#include "attn/mask.hpp"
#include "attn/multi_head.hpp"
#include "attn/positional.hpp"
#include "attn/projection.hpp"
#include "attn/score.hpp"
#include "attn/softmax.hpp"
#include "attn/spec.hpp"
#include "attn/text.hpp"
#include "attn/stages.hpp"
#include "attn/trace.hpp"
#include "attn/types.hpp"
#include "attn/weighted_sum.hpp"
