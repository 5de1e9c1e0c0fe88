#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace gq::tc {

// The Kubernetes OpenAPI v3 component schemas, used two ways: the server drops
// (and, with fieldValidation=Strict, rejects) fields the schema does not know,
// as the API server's decoder does; tests check responses for conformance.
class OpenApiSchema {
public:
    // Adds the components of one OpenAPI v3 document. False if it has none.
    bool addDocument(const QByteArray &json);
    [[nodiscard]] bool contains(const QString &component) const { return m_schemas.contains(component); }

    // Removes fields unknown to `component` from `object`; returns their paths
    // ("spec.bogus", "spec.limits[0].x") in document order.
    QStringList pruneUnknown(const QString &component, QJsonObject &object) const;

    // Every violation: missing required fields, wrong JSON types, unknown fields.
    // Empty means the value conforms. Null counts as "not set".
    [[nodiscard]] QStringList validate(const QString &component, const QJsonValue &value) const;

private:
    QJsonObject resolve(const QJsonObject &schema) const;
    QJsonValue prune(const QJsonObject &schema, const QJsonValue &value, const QString &path,
                     QStringList &unknown) const;
    void check(const QJsonObject &schema, const QJsonValue &value, const QString &path,
               QStringList &errors) const;

    QJsonObject m_schemas;
};

} // namespace gq::tc
