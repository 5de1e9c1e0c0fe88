#include "testcluster/apierror.h"

#include "testcluster/store.h"

#include <QJsonDocument>
#include <QStringList>

namespace gq::tc {

QByteArray ApiError::toJson() const {
    QJsonObject status;
    status.insert(QLatin1String("kind"), QLatin1String("Status"));
    status.insert(QLatin1String("apiVersion"), QLatin1String("v1"));
    status.insert(QLatin1String("metadata"), QJsonObject());
    status.insert(QLatin1String("status"), QLatin1String("Failure"));
    status.insert(QLatin1String("message"), message);
    if (!reason.isEmpty())
        status.insert(QLatin1String("reason"), reason);
    QJsonObject details;
    if (!name.isEmpty())
        details.insert(QLatin1String("name"), name);
    if (!kind.isEmpty())
        details.insert(QLatin1String("kind"), kind);
    if (!causes.isEmpty())
        details.insert(QLatin1String("causes"), causes);
    if (retryAfterSeconds > 0)
        details.insert(QLatin1String("retryAfterSeconds"), retryAfterSeconds);
    if (!details.isEmpty())
        status.insert(QLatin1String("details"), details);
    status.insert(QLatin1String("code"), code);
    return toCompactJson(status);
}

ApiError ApiError::notFound(const QString &plural, const QString &name) {
    return {404,
            QStringLiteral("NotFound"),
            plural + QStringLiteral(" \"") + name + QStringLiteral("\" not found"),
            name,
            plural,
            {},
            0};
}

ApiError ApiError::alreadyExists(const QString &plural, const QString &name) {
    return {409,
            QStringLiteral("AlreadyExists"),
            plural + QStringLiteral(" \"") + name + QStringLiteral("\" already exists"),
            name,
            plural,
            {},
            0};
}

ApiError ApiError::conflict(const QString &plural, const QString &name) {
    return {409,
            QStringLiteral("Conflict"),
            QStringLiteral("Operation cannot be fulfilled on ") + plural + QStringLiteral(" \"") + name +
                QStringLiteral("\": the object has been modified; please apply your changes to the latest "
                               "version and try again"),
            name,
            plural,
            {},
            0};
}

ApiError ApiError::badRequest(const QString &message) {
    return {400, QStringLiteral("BadRequest"), message, {}, {}, {}, 0};
}

ApiError ApiError::forbidden(const QString &plural, const QString &name, const QString &why) {
    const QString subject =
        name.isEmpty() ? plural : plural + QStringLiteral(" \"") + name + QLatin1Char('"');
    return {
        403, QStringLiteral("Forbidden"), subject + QStringLiteral(" is forbidden: ") + why, name, plural, {},
        0};
}

ApiError ApiError::invalid(const QString &kind, const QString &name, const QJsonArray &causes) {
    QStringList parts;
    for (const QJsonValue &c : causes) {
        const QJsonObject o = c.toObject();
        const QString field = o.value(QLatin1String("field")).toString();
        const QString msg = o.value(QLatin1String("message")).toString();
        parts.append(field.isEmpty() ? msg : field + QStringLiteral(": ") + msg);
    }
    const QString joined = parts.size() == 1
                               ? parts.first()
                               : QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    return {422,
            QStringLiteral("Invalid"),
            kind + QStringLiteral(" \"") + name + QStringLiteral("\" is invalid: ") + joined,
            name,
            kind,
            causes,
            0};
}

ApiError ApiError::methodNotAllowed() {
    return {405,
            QStringLiteral("MethodNotAllowed"),
            QStringLiteral("the server does not allow this method on the requested resource"),
            {},
            {},
            {},
            0};
}

ApiError ApiError::unsupportedMediaType(const QString &contentType) {
    return {415,
            QStringLiteral("UnsupportedMediaType"),
            QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                           "application/json-patch+json, application/merge-patch+json, "
                           "application/apply-patch+yaml (got \"") +
                contentType + QStringLiteral("\")"),
            {},
            {},
            {},
            0};
}

ApiError ApiError::gone(const QString &message) {
    return {410, QStringLiteral("Expired"), message, {}, {}, {}, 0};
}

ApiError ApiError::internal(const QString &message) {
    return {500,
            QStringLiteral("InternalError"),
            QStringLiteral("Internal error occurred: ") + message,
            {},
            {},
            {},
            0};
}

ApiError ApiError::unauthorized() {
    return {401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized"), {}, {}, {}, 0};
}

ApiError ApiError::tooManyRequests(int retryAfterSeconds) {
    return {429,
            QStringLiteral("TooManyRequests"),
            QStringLiteral("Too many requests, please try again later."),
            {},
            {},
            {},
            retryAfterSeconds};
}

QString FieldError::quote(const QString &s) {
    QString out = QStringLiteral("\"");
    for (QChar c : s) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out + QLatin1Char('"');
}

static QString typeText(FieldError::Type t) {
    switch (t) {
    case FieldError::Type::Invalid: return QStringLiteral("Invalid value");
    case FieldError::Type::Required: return QStringLiteral("Required value");
    case FieldError::Type::NotSupported: return QStringLiteral("Unsupported value");
    case FieldError::Type::Forbidden: return QStringLiteral("Forbidden");
    case FieldError::Type::Duplicate: return QStringLiteral("Duplicate value");
    }
    return {};
}

static QString reasonText(FieldError::Type t) {
    switch (t) {
    case FieldError::Type::Invalid: return QStringLiteral("FieldValueInvalid");
    case FieldError::Type::Required: return QStringLiteral("FieldValueRequired");
    case FieldError::Type::NotSupported: return QStringLiteral("FieldValueNotSupported");
    case FieldError::Type::Forbidden: return QStringLiteral("FieldValueForbidden");
    case FieldError::Type::Duplicate: return QStringLiteral("FieldValueDuplicate");
    }
    return {};
}

// The message part after "<field>: ", as field.Error.ErrorBody() renders it.
static QString body(const FieldError &e) {
    QString s = typeText(e.type);
    if (e.type == FieldError::Type::Invalid || e.type == FieldError::Type::NotSupported ||
        e.type == FieldError::Type::Duplicate)
        s += QStringLiteral(": ") + e.value;
    if (!e.detail.isEmpty())
        s += QStringLiteral(": ") + e.detail;
    return s;
}

QString FieldError::toString() const {
    return field.isEmpty() ? body(*this) : field + QStringLiteral(": ") + body(*this);
}

QJsonObject FieldError::toCause() const {
    QJsonObject c;
    c.insert(QLatin1String("reason"), reasonText(type));
    c.insert(QLatin1String("message"), body(*this));
    c.insert(QLatin1String("field"), field);
    return c;
}

} // namespace gq::tc
