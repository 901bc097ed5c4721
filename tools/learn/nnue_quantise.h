// Rounding the trainer's float model to the network file's integers, the int8 layers with
// the error of each rounded weight compensated by the weights not rounded yet (GPTQ).
#pragma once

#include <vector>

#include "engine/nnue/network.h"
#include "tools/learn/nnue_model.h"

namespace tools {

// The network file of `model`. The int8 layers (l1, l2, out) are rounded in that order, each
// input by input: the error of a weight rounded is carried onto the same unit's weights not
// yet rounded and its bias, in proportion to how the layer's inputs go together over the
// calibration positions (their second moments), so that the unit's sum over those inputs
// changes least; each layer's inputs come from the model whose earlier layers are already
// rounded. Plain rounding (model.quantised()) leaves each unit's error to chance, and its
// sum over 32 or 512 inputs at 1/64 a step is tens of centipawns at the output.
// With no calibration positions: model.quantised().
engine::nnue::Network calibrated_network(const NnueModel& model,
                                         const std::vector<NnueSample>& calibration);

}  // namespace tools
