#pragma once

#include "core/domain/result.h"

#include <QList>
#include <QString>

namespace gq::advisor {

// The shape of a decoder-only transformer: what the memory estimate needs.
struct ModelShape {
    QString name;            // "llama-2-7b"; empty for a model given by its numbers
    double params = 0;       // all parameters (Ψ); for a mixture of experts all experts
    double activeParams = 0; // parameters one token passes through (== params when dense)
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0;      // grouped-query attention: fewer key/value heads
    int intermediate = 0; // the MLP's inner size
    int vocab = 0;
    int experts = 1; // MoE: experts per layer
    int expertsPerToken = 1;
    bool tiedEmbeddings = false;
    [[nodiscard]] bool isMoe() const { return experts > 1; }
};

// The catalogue: Llama 2 7B/13B/70B, LLaMA 65B, Llama 3 8B/70B, Qwen1.5-7B, Qwen2-7B,
// Qwen2.5-7B/14B/72B, Qwen-VL-Chat, Mistral 7B, Mixtral 8x7B. Shapes from each model's
// published config.json.
[[nodiscard]] const QList<ModelShape> &modelCatalogue();
// By name, ignoring case, '-', '_', ' ' and an organisation prefix ("meta-llama/Llama-2-7b-hf",
// "Llama-2-7B", "llama2-7b" all find llama-2-7b). NotFound names the known models.
[[nodiscard]] Result<ModelShape> findModel(const QString &name);

// "7B", "6.74e9", "7000000000", "1.5b", "500M" -> parameters. Invalid when not a
// positive number of at least one million.
[[nodiscard]] Result<double> parseParamCount(const QString &text);

// A model known only by its parameter count: a dense Llama-like shape with Ψ ≈ 12·L·h²
// and h = 128·L (the 7B/13B proportions), 128-dimensional heads, MLP 8/3·h rounded up
// to 256, a 32 000-token vocabulary.
[[nodiscard]] ModelShape shapeFromParams(double params);

} // namespace gq::advisor
