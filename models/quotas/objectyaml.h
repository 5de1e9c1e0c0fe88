#pragma once

#include <QJsonObject>
#include <QString>

namespace gq {

// The object as a person edits it: without status and server-managed metadata
// (resourceVersion, uid, managedFields, timestamps), which are noise in an editor
// and in a diff, and which the apply path sets itself.
// kind fills in apiVersion v1 / kind when the object came from a list without them.
[[nodiscard]] QJsonObject editableObject(const QJsonObject &object, const QString &kind = {});
// editableObject() as block YAML, key order kept.
[[nodiscard]] QString editableYaml(const QJsonObject &object, const QString &kind = {});
[[nodiscard]] QString resourceVersionOf(const QJsonObject &object);

} // namespace gq
