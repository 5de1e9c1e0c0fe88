#include "core/report/ratecard.h"

#include "core/domain/boundedread.h"
#include "core/report/money.h"
#include "core/domain/yamldoc.h"

#include <QFileInfo>

namespace gq {

namespace {

Error invalid(const QString &message, const QString &field, const SourcePos &pos) {
    return errorAt(Error::make(Error::Kind::Invalid, message, field), pos);
}

Result<qint64> rateAt(const YamlNode &value, const QString &field) {
    if (!value.isScalar() || value.text().isEmpty())
        return invalid(QStringLiteral("a rate must be a number (e.g. 2.50)"), field, value.pos());
    auto r = parseRateMicros(value.text(), field);
    if (!r)
        return errorAt(r.error(), value.pos());
    return r;
}

} // namespace

qint64 RateCard::rateFor(const QString &resource, const QString &model) const {
    if (!model.isEmpty())
        if (auto it = modelMicros.constFind(model); it != modelMicros.cend())
            return *it;
    return resourceMicros.value(resource, defaultMicros);
}

bool RateCard::isFlat() const {
    for (const QMap<QString, qint64> *m : {&resourceMicros, &modelMicros})
        for (auto it = m->cbegin(); it != m->cend(); ++it)
            if (it.value() != defaultMicros)
                return false;
    return true;
}

QStringList RateCard::exceptions() const {
    QStringList parts;
    for (auto it = resourceMicros.cbegin(); it != resourceMicros.cend(); ++it)
        if (it.value() != defaultMicros)
            parts << it.key() + QLatin1Char(' ') + formatRate(it.value());
    for (auto it = modelMicros.cbegin(); it != modelMicros.cend(); ++it)
        if (it.value() != defaultMicros)
            parts << QStringLiteral("model ") + it.key() + QLatin1Char(' ') + formatRate(it.value());
    return parts;
}

RateCard RateCard::flat(qint64 micros) {
    RateCard c;
    c.defaultMicros = micros;
    c.source = QStringLiteral("--rate");
    return c;
}

Result<RateCard> parseRateCard(const QByteArray &yaml) {
    auto root = parseYamlNode(yaml);
    if (!root)
        return root.error();
    if (!root->isMap())
        return invalid(QStringLiteral("a rates file is a map with 'default' and optionally 'resources', "
                                      "'models' and 'currency'"),
                       QString(), root->pos().isValid() ? root->pos() : SourcePos{1, 1, 0});
    RateCard card;
    bool haveDefault = false;
    for (const YamlNode::Entry &e : root->entries()) {
        if (e.key == QLatin1String("default")) {
            auto r = rateAt(e.value, e.key);
            if (!r)
                return r.error();
            card.defaultMicros = *r;
            haveDefault = true;
        } else if (e.key == QLatin1String("currency")) {
            const QString c = e.value.text().trimmed();
            if (!e.value.isScalar() || c.isEmpty() || c.size() > 8)
                return invalid(QStringLiteral("currency must be a short text such as EUR or USD"), e.key,
                               e.value.pos().isValid() ? e.value.pos() : e.keyPos);
            card.currency = c;
        } else if (e.key == QLatin1String("resources") || e.key == QLatin1String("models")) {
            const bool models = e.key == QLatin1String("models");
            if (e.value.isNull())
                continue;
            if (!e.value.isMap())
                return invalid(models ? QStringLiteral("models must map GPU models to rates "
                                                       "(NVIDIA-H100-80GB-HBM3: 4.00)")
                                      : QStringLiteral("resources must map resource names to rates "
                                                       "(nvidia.com/mig-1g.10gb: 1.20)"),
                               e.key, e.keyPos);
            QMap<QString, qint64> &target = models ? card.modelMicros : card.resourceMicros;
            for (const YamlNode::Entry &r : e.value.entries()) {
                const QString field = e.key + QLatin1Char('.') + r.key;
                // A model is matched exactly as recorded; a resource name has no spaces.
                if (r.key.trimmed().isEmpty() || (!models && r.key.contains(QLatin1Char(' '))))
                    return invalid(models ? QStringLiteral("a GPU model name must not be empty")
                                          : QStringLiteral("'%1' is not a resource name").arg(elided(r.key)),
                                   field, r.keyPos);
                auto rate = rateAt(r.value, field);
                if (!rate)
                    return rate.error();
                target.insert(r.key, *rate);
            }
        } else {
            return invalid(QStringLiteral("unknown key '%1' (expected default, resources, models, currency)")
                               .arg(elided(e.key)),
                           e.key, e.keyPos);
        }
    }
    if (!haveDefault)
        return invalid(QStringLiteral("'default' is required: the rate for every resource without one of "
                                      "its own"),
                       QStringLiteral("default"), SourcePos{1, 1, 0});
    return card;
}

Result<RateCard> loadRateCard(const QString &path) {
    auto bytes = readInputFile(path);
    if (!bytes)
        return bytes.error();
    auto card = parseRateCard(*bytes);
    if (!card)
        return card.error();
    card->source = QFileInfo(path).fileName();
    return card;
}

} // namespace gq
