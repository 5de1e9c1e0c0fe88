#pragma once

#include <QList>
#include <QString>
#include <QStringView>

namespace gq {

// One error type for all of core. It carries everything a caller may want to show
// or act on: what kind of failure, a message for humans, and where it applies the
// field path, the YAML position, the HTTP status and the decoded Kubernetes Status.
struct Error {
    enum class Kind {
        Invalid,         // bad input: a value or object that fails validation
        Parse,           // text that could not be parsed (YAML, JSON, CSV, quantity)
        Io,              // file could not be read or written
        Config,          // kubeconfig / settings problem
        Usage,           // wrong command-line usage
        Network,         // transport failure: DNS, refused, reset, TLS handshake
        Timeout,         // a deadline passed
        Tls,             // certificate verification failure
        Unauthorized,    // HTTP 401
        Forbidden,       // HTTP 403
        NotFound,        // HTTP 404
        AlreadyExists,   // HTTP 409 reason AlreadyExists
        Conflict,        // HTTP 409 (resourceVersion mismatch)
        Gone,            // HTTP 410 (watch resourceVersion too old)
        TooManyRequests, // HTTP 429
        Server,          // HTTP 5xx
        Database,        // SQL error, unreachable, locked
        Schema,          // database schema is newer / wrong
        Cancelled,       // the caller gave up
        Internal,        // a bug
    };

    // A single field-level cause (Kubernetes Status details.causes, validation errors).
    struct Cause {
        QString field;
        QString message;
        QString reason;
        friend bool operator==(const Cause &, const Cause &) = default;
    };

    Kind kind = Kind::Internal;
    QString message;    // human-readable, already specific ("unknown suffix 'Gb'; ...")
    QString field;      // field path, e.g. "spec.hard[requests.nvidia.com/gpu]"
    int line = 0;       // 1-based YAML/CSV line, 0 when unknown
    int column = 0;     // 1-based column, 0 when unknown
    int httpStatus = 0; // 0 when no HTTP exchange happened
    QString reason;     // Kubernetes Status.reason ("Conflict", "Invalid", ...)
    QList<Cause> causes;

    static Error make(Kind kind, QString message, QString field = {}) {
        Error e;
        e.kind = kind;
        e.message = std::move(message);
        e.field = std::move(field);
        return e;
    }

    // "field: message" or just "message"; position is not included.
    [[nodiscard]] QString toString() const;

    friend bool operator==(const Error &, const Error &) = default;
};

[[nodiscard]] QString kindName(Error::Kind kind);

// How a message echoes a value the user wrote: whole when short, else its first
// maxChars characters and "… (N bytes)", so a 5 MB quantity does not make 10 MB of
// error output.
[[nodiscard]] QString elided(QStringView text, qsizetype maxChars = 64);

} // namespace gq
