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
    insertNonEmpty(status, QLatin1String("reason"), reason);
    QJsonObject details;
    insertNonEmpty(details, QLatin1String("name"), name);
    insertNonEmpty(details, QLatin1String("group"), group);
    insertNonEmpty(details, QLatin1String("kind"), kind);
    insertNonEmpty(details, QLatin1String("causes"), causes);
    if (retryAfterSeconds > 0)
        details.insert(QLatin1String("retryAfterSeconds"), retryAfterSeconds);
    insertNonEmpty(status, QLatin1String("details"), details);
    status.insert(QLatin1String("code"), code);
    return toCompactJson(status);
}

Error ApiError::toError() const {
    Error e;
    e.kind = code == 400   ? Error::Kind::Parse
             : code == 401 ? Error::Kind::Unauthorized
             : code == 403 ? Error::Kind::Forbidden
             : code == 404 ? Error::Kind::NotFound
             : code == 409 ? Error::Kind::Conflict
             : code == 410 ? Error::Kind::Gone
             : code == 422 ? Error::Kind::Invalid
             : code == 429 ? Error::Kind::TooManyRequests
                           : Error::Kind::Server;
    e.message = message;
    e.httpStatus = code;
    e.reason = reason;
    for (const QJsonValue &c : causes) {
        const QJsonObject o = c.toObject();
        e.causes.append({o.value(QLatin1String("field")).toString(),
                         o.value(QLatin1String("message")).toString(),
                         o.value(QLatin1String("reason")).toString()});
    }
    return e;
}

ApiError ApiError::fromError(const Error &e) {
    ApiError a{e.httpStatus > 0 ? e.httpStatus : 500, e.reason, e.message, {}, {}, {}, 0};
    if (a.reason.isEmpty())
        a.reason = e.httpStatus == 400 ? QStringLiteral("BadRequest") : QStringLiteral("InternalError");
    for (const Error::Cause &c : e.causes) {
        QJsonObject o;
        o.insert(QLatin1String("reason"), c.reason);
        o.insert(QLatin1String("message"), c.message);
        o.insert(QLatin1String("field"), c.field);
        a.causes.append(o);
    }
    return a;
}

namespace {

// A failure about the request or the server as a whole: no details.
ApiError general(int code, const char *reason, const QString &message, int retryAfterSeconds = 0) {
    return {code, QLatin1String(reason), message, {}, {}, {}, retryAfterSeconds};
}

// A failure about one object: details name it and its resource (or Kind).
ApiError aboutObject(int code, const char *reason, const QString &message, const QString &kind,
                     const QString &name, const QJsonArray &causes = {}) {
    // "deployments.apps": details carry the group apart, as StatusDetails does.
    const qsizetype dot = kind.indexOf(QLatin1Char('.'));
    if (dot > 0)
        return {code, QLatin1String(reason), message, name, kind.left(dot), causes, 0, kind.mid(dot + 1)};
    return {code, QLatin1String(reason), message, name, kind, causes, 0, {}};
}

// `plural "name"`, as the API server names an object in its messages.
QString quoted(const QString &plural, const QString &name) {
    return plural + QStringLiteral(" \"") + name + QLatin1Char('"');
}

} // namespace

ApiError ApiError::pathNotFound() {
    return general(404, "NotFound", QStringLiteral("the server could not find the requested resource"));
}

ApiError ApiError::notFound(const QString &plural, const QString &name) {
    return aboutObject(404, "NotFound", quoted(plural, name) + QStringLiteral(" not found"), plural, name);
}

ApiError ApiError::alreadyExists(const QString &plural, const QString &name) {
    return aboutObject(409, "AlreadyExists", quoted(plural, name) + QStringLiteral(" already exists"), plural,
                       name);
}

ApiError ApiError::conflict(const QString &plural, const QString &name) {
    return aboutObject(409, "Conflict",
                       QStringLiteral("Operation cannot be fulfilled on ") + quoted(plural, name) +
                           QStringLiteral(": the object has been modified; please apply your changes to the "
                                          "latest version and try again"),
                       plural, name);
}

ApiError ApiError::badRequest(const QString &message) {
    return general(400, "BadRequest", message);
}

ApiError ApiError::forbidden(const QString &plural, const QString &name, const QString &why) {
    const QString subject = name.isEmpty() ? plural : quoted(plural, name);
    return aboutObject(403, "Forbidden", subject + QStringLiteral(" is forbidden: ") + why, plural, name);
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
    return aboutObject(422, "Invalid", quoted(kind, name) + QStringLiteral(" is invalid: ") + joined, kind,
                       name, causes);
}

ApiError ApiError::methodNotAllowed() {
    return general(405, "MethodNotAllowed",
                   QStringLiteral("the server does not allow this method on the requested resource"));
}

// What kube-apiserver answers to a PATCH of another content type (its message names
// neither the type sent nor the accepted ones; tst_realcluster_fidelity compares them).
ApiError ApiError::unsupportedMediaType(const QString &contentType) {
    Q_UNUSED(contentType)
    return general(415, "UnsupportedMediaType", QStringLiteral("415: Unsupported Media Type"));
}

ApiError ApiError::gone(const QString &message) {
    return general(410, "Expired", message);
}

ApiError ApiError::internal(const QString &message) {
    return general(500, "InternalError", QStringLiteral("Internal error occurred: ") + message);
}

ApiError ApiError::serviceUnavailable(const QString &message) {
    return general(503, "ServiceUnavailable", message);
}

ApiError ApiError::unauthorized() {
    return general(401, "Unauthorized", QStringLiteral("Unauthorized"));
}

ApiError ApiError::tooManyRequests(int retryAfterSeconds) {
    return general(429, "TooManyRequests", QStringLiteral("Too many requests, please try again later."),
                   retryAfterSeconds);
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

FieldError FieldError::notSupported(const QString &field, const QString &value,
                                    const QStringList &supported) {
    QStringList quoted;
    for (const QString &s : supported)
        quoted.append(quote(s));
    return {Type::NotSupported, field, quote(value),
            QStringLiteral("supported values: ") + quoted.join(QStringLiteral(", "))};
}

QString FieldError::item(const QString &base, qsizetype i) {
    return base + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
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
