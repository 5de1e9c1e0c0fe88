#include "core/advisor/modelcatalog.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace gq::advisor {

namespace {

ModelShape dense(const char *name, double params, int layers, int hidden, int heads, int kvHeads, int inter,
                 int vocab, bool tied = false) {
    ModelShape m;
    m.name = QLatin1String(name);
    m.params = m.activeParams = params;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = kvHeads;
    m.intermediate = inter;
    m.vocab = vocab;
    m.tiedEmbeddings = tied;
    return m;
}

QString normalized(QString s) {
    s = s.toLower();
    if (const qsizetype slash = s.lastIndexOf(QLatin1Char('/')); slash >= 0)
        s = s.mid(slash + 1);
    s.remove(QRegularExpression(QStringLiteral("[-_ ]")));
    for (const char *suffix : {"hf", "chathf", "instruct", "chat", "v0.1"}) {
        const QString sfx = QLatin1String(suffix);
        if (s.endsWith(sfx) && !s.startsWith(QLatin1String("qwenvl")))
            s.chop(sfx.size());
    }
    return s;
}

} // namespace

const QList<ModelShape> &modelCatalogue() {
    static const QList<ModelShape> catalogue = [] {
        QList<ModelShape> c{
            dense("llama-2-7b", 6.74e9, 32, 4096, 32, 32, 11008, 32000),
            dense("llama-2-13b", 13.02e9, 40, 5120, 40, 40, 13824, 32000),
            dense("llama-2-70b", 68.98e9, 80, 8192, 64, 8, 28672, 32000),
            // LLaMA 1 65B: the QLoRA paper's largest model.
            dense("llama-65b", 65.29e9, 80, 8192, 64, 64, 22016, 32000),
            dense("llama-3-8b", 8.03e9, 32, 4096, 32, 8, 14336, 128256),
            dense("llama-3-70b", 70.55e9, 80, 8192, 64, 8, 28672, 128256),
            dense("qwen1.5-7b", 7.72e9, 32, 4096, 32, 32, 11008, 151936),
            dense("qwen2-7b", 7.62e9, 28, 3584, 28, 4, 18944, 152064),
            dense("qwen2.5-7b", 7.62e9, 28, 3584, 28, 4, 18944, 152064),
            dense("qwen2.5-14b", 14.77e9, 48, 5120, 40, 8, 13824, 152064),
            dense("qwen2.5-72b", 72.71e9, 80, 8192, 64, 8, 29568, 152064),
            // Qwen-7B's language model (7.7 B) and a 1.9 B ViT: 9.6 B in all. Each image
            // adds 256 tokens to the sequence.
            dense("qwen-vl-chat", 9.6e9, 32, 4096, 32, 32, 11008, 151936),
            dense("mistral-7b", 7.24e9, 32, 4096, 32, 8, 14336, 32000),
        };
        ModelShape mixtral = dense("mixtral-8x7b", 46.7e9, 32, 4096, 32, 8, 14336, 32000);
        mixtral.activeParams = 12.9e9;
        mixtral.experts = 8;
        mixtral.expertsPerToken = 2;
        c.append(mixtral);
        return c;
    }();
    return catalogue;
}

Result<ModelShape> findModel(const QString &name) {
    const QString want = normalized(name);
    QStringList names;
    for (const ModelShape &m : modelCatalogue()) {
        if (normalized(m.name) == want)
            return m;
        names << m.name;
    }
    return Error::make(Error::Kind::NotFound,
                       QStringLiteral("unknown model \"%1\" (known: %2; or give --params)")
                           .arg(name, names.join(QStringLiteral(", "))));
}

Result<double> parseParamCount(const QString &text) {
    static const QRegularExpression re(
        QStringLiteral("^\\s*([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*([kKmMbBtT]?)\\s*$"));
    const auto m = re.match(text);
    double v = 0;
    if (m.hasMatch()) {
        v = m.captured(1).toDouble();
        switch (m.captured(2).toLower().isEmpty() ? u' ' : m.captured(2).toLower().at(0).unicode()) {
        case u'k': v *= 1e3; break;
        case u'm': v *= 1e6; break;
        case u'b': v *= 1e9; break;
        case u't': v *= 1e12; break;
        default: break;
        }
    }
    if (!m.hasMatch() || !std::isfinite(v) || v < 1e6)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("not a parameter count: \"%1\" (e.g. 7B, 6.74e9, 7000000000)").arg(text));
    return v;
}

ModelShape shapeFromParams(double params) {
    // Ψ = 12·L·h² with h = 128·L  =>  L = (Ψ / (12·128²))^(1/3).
    const int layers = std::max(2, int(std::lround(std::cbrt(params / (12.0 * 128 * 128)))));
    ModelShape m;
    m.params = m.activeParams = params;
    m.layers = layers;
    m.hidden = 128 * layers;
    m.heads = m.kvHeads = layers;
    m.intermediate = int(std::ceil(m.hidden * 8.0 / 3.0 / 256.0)) * 256;
    m.vocab = 32000;
    return m;
}

} // namespace gq::advisor
