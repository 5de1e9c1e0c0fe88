#pragma once

#include "core/domain/objectmeta.h"
#include "core/domain/resourcelist.h"
#include "core/domain/result.h"
#include "core/domain/yamldoc.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq {

// One spec.limits entry.
struct LimitRangeItem {
    QString type; // "Container", "Pod", "PersistentVolumeClaim"
    ResourceList max;
    ResourceList min;
    ResourceList defaultLimit; // JSON/YAML "default"
    ResourceList defaultRequest;
    ResourceList maxLimitRequestRatio;
    friend bool operator==(const LimitRangeItem &, const LimitRangeItem &) = default;
    [[nodiscard]] bool sameAs(const LimitRangeItem &other) const;
};

// A typed view of a v1 LimitRange that keeps every field it does not model; same
// round-trip rules as QuotaSpec (see quotaspec.h). Items are matched to the source
// tree by index, so unknown fields inside an item survive edits of that item.
class LimitRangeSpec {
public:
    LimitRangeSpec(); // an empty LimitRange (apiVersion v1)

    ObjectMeta meta;
    QList<LimitRangeItem> limits; // spec.limits

    static Result<LimitRangeSpec> fromNode(const YamlNode &object);
    static Result<LimitRangeSpec> fromYaml(const QByteArray &yaml);
    static Result<LimitRangeSpec> fromJson(const QJsonObject &object);
    static LimitRangeSpec decode(const YamlNode &object, QList<Error> &problems);

    [[nodiscard]] YamlNode toNode() const;
    [[nodiscard]] QJsonObject toJson() const;
    [[nodiscard]] QByteArray toYaml() const;

    [[nodiscard]] const YamlNode &source() const { return m_source; }
    [[nodiscard]] bool sameAs(const LimitRangeSpec &other) const;

private:
    YamlNode m_source;
};

} // namespace gq

Q_DECLARE_METATYPE(gq::LimitRangeSpec)
