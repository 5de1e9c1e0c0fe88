#pragma once

#include "core/domain/error.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace gq::tc {

// A failure answered as a Kubernetes `Status` object, field for field as the API
// server writes it (apimachinery pkg/api/errors).
struct ApiError {
    int code = 500;
    QString reason;
    QString message;
    QString name; // details.name
    QString kind; // details.kind: the plural resource name for core objects
    QJsonArray causes;
    int retryAfterSeconds = 0;
    QString group = QString(); // details.group

    [[nodiscard]] QByteArray toJson() const;
    // The same failure as the project's error value, so functions can return
    // Result<T>; fromError() turns it back into the Status to send.
    [[nodiscard]] Error toError() const;
    static ApiError fromError(const Error &e);

    static ApiError notFound(const QString &plural, const QString &name);
    static ApiError alreadyExists(const QString &plural, const QString &name);
    static ApiError conflict(const QString &plural, const QString &name);
    static ApiError badRequest(const QString &message);
    static ApiError forbidden(const QString &plural, const QString &name, const QString &why);
    // `kind` here is the Kind ("ResourceQuota"), as the Invalid message uses it.
    // details.kind is the Kind as well (NewInvalid uses the qualified kind, not the resource).
    static ApiError invalid(const QString &kind, const QString &name, const QJsonArray &causes);
    // A URL the server does not serve at all.
    static ApiError pathNotFound();
    static ApiError methodNotAllowed();
    static ApiError unsupportedMediaType(const QString &contentType);
    static ApiError gone(const QString &message);
    static ApiError internal(const QString &message);
    // 503 ServiceUnavailable: what a proxy subresource answers when its backend does not.
    static ApiError serviceUnavailable(const QString &message);
    static ApiError unauthorized();
    static ApiError tooManyRequests(int retryAfterSeconds);
};

// One field error, formatted like apimachinery's field.Error.
struct FieldError {
    enum class Type { Invalid, Required, NotSupported, Forbidden, Duplicate };
    Type type = Type::Invalid;
    QString field;
    QString value; // already rendered (JSON-quoted for strings and quantities)
    QString detail;

    [[nodiscard]] QString toString() const;
    [[nodiscard]] QJsonObject toCause() const;
    static QString quote(const QString &s);
    // A NotSupported error listing the supported values, each quoted, as field.NotSupported does.
    static FieldError notSupported(const QString &field, const QString &value, const QStringList &supported);
    // The path of item i of the list at `base`: "spec.ports[2]".
    static QString item(const QString &base, qsizetype i);
};

} // namespace gq::tc
