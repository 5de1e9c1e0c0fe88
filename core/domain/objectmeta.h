#pragma once

#include "core/domain/yamldoc.h"

#include <QMap>
#include <QString>

namespace gq {

// The metadata fields the console reads and edits. Everything else under metadata
// (creationTimestamp, managedFields, ownerReferences, ...) stays in the source tree of
// the spec that owns this and is written back untouched.
struct ObjectMeta {
    QString name;
    QString generateName;
    QString namespaceName;
    QString resourceVersion; // opaque; compare for equality only
    QString uid;
    QMap<QString, QString> labels;
    QMap<QString, QString> annotations;

    friend bool operator==(const ObjectMeta &, const ObjectMeta &) = default;

    // Reads metadata from an object's `metadata` map. Wrong shapes are reported
    // into problems (field paths like "metadata.labels") and skipped.
    static ObjectMeta decode(const YamlNode &metadata, QList<Error> &problems);
    // Writes the fields into a `metadata` map, keeping unknown keys and key order;
    // empty strings / maps remove the key.
    void encode(YamlNode &metadata) const;
};

} // namespace gq
