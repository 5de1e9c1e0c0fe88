#pragma once

// Internal helpers shared by QuotaSpec, LimitRangeSpec, validation and fmt: reading
// and writing resource lists in a YamlNode tree, and building field errors in the
// API server's wording. Not part of the public core API.

#include "core/domain/error.h"
#include "core/domain/objectmeta.h"
#include "core/domain/resourcelist.h"
#include "core/domain/result.h"
#include "core/domain/yamldoc.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gq::detail {

// "Invalid value: \"x\": detail" and friends, with Status-cause reasons.
Error invalidValue(const QString &field, const QString &value, const QString &detail);
Error invalidShape(const QString &field, const QString &detail); // no value shown
Error requiredValue(const QString &field, const QString &detail = {});
Error forbidden(const QString &field, const QString &detail);
Error duplicateValue(const QString &field, const QString &value);
Error notSupported(const QString &field, const QString &value, const QStringList &supported);
QString quoted(const QString &value); // JSON-style double quotes, long values elided

// Reads a map of resource name -> quantity. Problems (not a map, a value that is
// not a scalar or does not parse) are appended with field paths "<path>[name]".
ResourceList decodeResourceList(const YamlNode *node, const QString &path, QList<Error> &problems);
// Writes list under parent[key], reusing existing key/value nodes (and so their
// text and quoting) wherever the quantity did not change. An empty list removes the
// key unless it existed before.
void encodeResourceList(YamlNode &parent, const QString &key, const ResourceList &list);
// Turns every scalar of a resource map into a JSON string: quantities travel as
// strings so no JSON reader rounds them through a double.
void quantitiesAsStrings(YamlNode *resourceMap);

QStringList decodeStringList(const YamlNode *node, const QString &path, QList<Error> &problems);
void encodeStringList(YamlNode &parent, const QString &key, const QStringList &values);

// The object's kind must be `expected` (or absent); problems are appended.
void checkKind(const YamlNode &object, const QString &expected, QList<Error> &problems);

// Strict-decoding helper: the first problem as the Error, all of them as causes.
Error firstProblem(const QList<Error> &problems, const YamlNode &root);

// What every typed object (QuotaSpec, LimitRangeSpec) does the same way.
// decode()'s start: false (with a problem) unless a map; the kind is checked and
// metadata decoded.
bool decodeObjectHead(const YamlNode &object, const QString &kind, ObjectMeta &meta, QList<Error> &problems);
// toNode()'s start: apiVersion v1 and the kind filled in when missing, metadata
// written back when the source had it or there is any.
void encodeObjectHead(YamlNode &root, const QString &kind, const ObjectMeta &meta);

// fromNode(): Spec::decode, any problem is the Error.
template <typename Spec> Result<Spec> strictDecode(const YamlNode &object) {
    QList<Error> problems;
    Spec spec = Spec::decode(object, problems);
    if (!problems.isEmpty())
        return firstProblem(problems, object);
    return spec;
}

// fromYaml(): exactly one object, through Spec::fromNode.
template <typename Spec> Result<Spec> decodeYamlText(const QByteArray &yaml) {
    auto node = parseYamlNode(yaml);
    if (!node)
        return node.error();
    return Spec::fromNode(*node);
}

} // namespace gq::detail
