#include "core/domain/error.h"

namespace gq {

QString Error::toString() const {
    if (field.isEmpty())
        return message;
    return field + QStringLiteral(": ") + message;
}

QString kindName(Error::Kind kind) {
    switch (kind) {
    case Error::Kind::Invalid: return QStringLiteral("Invalid");
    case Error::Kind::Parse: return QStringLiteral("Parse");
    case Error::Kind::Io: return QStringLiteral("Io");
    case Error::Kind::Config: return QStringLiteral("Config");
    case Error::Kind::Usage: return QStringLiteral("Usage");
    case Error::Kind::Network: return QStringLiteral("Network");
    case Error::Kind::Timeout: return QStringLiteral("Timeout");
    case Error::Kind::Tls: return QStringLiteral("Tls");
    case Error::Kind::Unauthorized: return QStringLiteral("Unauthorized");
    case Error::Kind::Forbidden: return QStringLiteral("Forbidden");
    case Error::Kind::NotFound: return QStringLiteral("NotFound");
    case Error::Kind::AlreadyExists: return QStringLiteral("AlreadyExists");
    case Error::Kind::Conflict: return QStringLiteral("Conflict");
    case Error::Kind::Gone: return QStringLiteral("Gone");
    case Error::Kind::TooManyRequests: return QStringLiteral("TooManyRequests");
    case Error::Kind::Server: return QStringLiteral("Server");
    case Error::Kind::Database: return QStringLiteral("Database");
    case Error::Kind::Schema: return QStringLiteral("Schema");
    case Error::Kind::Cancelled: return QStringLiteral("Cancelled");
    case Error::Kind::Internal: return QStringLiteral("Internal");
    }
    return QStringLiteral("Unknown");
}

QString elided(QStringView text, qsizetype maxChars) {
    if (text.size() <= maxChars)
        return text.toString();
    qsizetype cut = maxChars;
    if (cut > 0 && text[cut - 1].isHighSurrogate()) // do not split a character
        --cut;
    return text.left(cut).toString() + QChar(0x2026) +
           QStringLiteral(" (%1 bytes)").arg(text.toUtf8().size());
}

} // namespace gq
