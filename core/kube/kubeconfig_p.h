#pragma once

// Internal to the kubeconfig code: what parsing, connection resolving and the
// credential supply share. Not part of gqkube's public API.

#include "core/domain/error.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace gq::detail {

// A kubeconfig error (kind Config) naming the field and, where known, the line.
Error configError(QString message, QString field = {}, int line = 0);

// A relative path resolved against the directory of the file it appears in.
QString resolvePath(const QString &path, const QString &baseDir);

// The bytes of a file a kubeconfig field names; an Io error names the field.
Result<QByteArray> readFileField(const QString &path, const QString &field);

template <typename T> const T *findByName(const QList<T> &list, const QString &name) {
    for (const T &item : list) {
        if (item.name == name)
            return &item;
    }
    return nullptr;
}

} // namespace gq::detail
