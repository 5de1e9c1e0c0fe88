#pragma once

#include "core/domain/objectmeta.h"
#include "core/domain/resourcelist.h"
#include "core/domain/result.h"
#include "core/domain/yamldoc.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// One scopeSelector.matchExpressions entry.
struct ScopedResourceSelectorRequirement {
    QString scopeName; // "PriorityClass", "BestEffort", ...
    QString op;        // "In", "NotIn", "Exists", "DoesNotExist" (JSON: "operator")
    QStringList values;
    friend bool operator==(const ScopedResourceSelectorRequirement &,
                           const ScopedResourceSelectorRequirement &) = default;
};

// A typed view of a v1 ResourceQuota that keeps every field it does not model.
//
// The object as loaded (YAML or JSON) is kept in source(); the typed fields are
// decoded from it and written back into a copy of it by toNode(), so unknown fields,
// key order and — where a quantity did not change — the original quantity text
// survive a load/edit/save round trip.
class QuotaSpec {
public:
    QuotaSpec(); // an empty ResourceQuota (apiVersion v1)

    ObjectMeta meta;
    ResourceList hard;                                      // spec.hard
    QStringList scopes;                                     // spec.scopes
    bool hasScopeSelector = false;                          // spec.scopeSelector present (even if empty)
    QList<ScopedResourceSelectorRequirement> scopeSelector; // spec.scopeSelector.matchExpressions
    ResourceList statusHard;                                // status.hard (server-filled)
    ResourceList statusUsed;                                // status.used (server-filled)

    // Strict decoding: any problem (wrong kind, a field of the wrong shape, a
    // quantity that does not parse) is an Error whose causes list every problem.
    // An object without `kind` is accepted as a ResourceQuota.
    static Result<QuotaSpec> fromNode(const YamlNode &object);
    static Result<QuotaSpec> fromYaml(const QByteArray &yaml); // exactly one object
    static Result<QuotaSpec> fromJson(const QJsonObject &object);
    // Best-effort decoding for validation: never fails, reports problems (with field
    // paths, no positions) and decodes what it can.
    static QuotaSpec decode(const YamlNode &object, QList<Error> &problems);

    [[nodiscard]] YamlNode toNode() const;
    [[nodiscard]] QJsonObject toJson() const;
    [[nodiscard]] QByteArray toYaml() const;

    // The tree this spec was decoded from (unknown fields live here).
    [[nodiscard]] const YamlNode &source() const { return m_source; }

    // Semantic equality of the modelled fields (quantities compared by value,
    // resource order ignored). Unknown fields are not compared.
    [[nodiscard]] bool sameAs(const QuotaSpec &other) const;

private:
    YamlNode m_source;
};

} // namespace gq

Q_DECLARE_METATYPE(gq::QuotaSpec)
