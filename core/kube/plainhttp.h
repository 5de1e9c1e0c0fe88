#pragma once

#include "core/domain/error.h"
#include "core/kube/kubeconfig.h"

#include <QString>

#include <optional>

namespace gq {

// Credentials and plain http:// server URLs. A bearer token (static, from a file or
// an exec plugin) sent over http:// can be read by anyone on the path, and a client
// certificate cannot authenticate at all without TLS. So KubeClient refuses to talk
// to a non-loopback http:// server with any credential configured, unless allowed
// (KubeClientOptions::allowPlainHttpCredentials, GQ_ALLOW_PLAIN_HTTP_CREDENTIALS=1);
// to a loopback one (a port-forward, a local test server) it talks, and callers warn.

// What the connection would authenticate with ("a bearer token", "a client
// certificate", ...); empty when nothing.
[[nodiscard]] QString credentialKinds(const KubeConnection &connection);

// The server URL is http:// and the connection has credentials.
[[nodiscard]] bool sendsCredentialsInClear(const KubeConnection &connection);

// localhost, 127.0.0.0/8 or ::1 (by name or address; no DNS lookup).
[[nodiscard]] bool isLoopbackHost(const QString &host);

// The error for a non-loopback http:// server with credentials (kind Config, naming
// the server URL and the kubeconfig user); nothing when the connection may be used.
[[nodiscard]] std::optional<Error> plainHttpRefusal(const KubeConnection &connection, bool allowed);

// The stderr line for credentials sent in clear to a loopback server.
[[nodiscard]] QString plainHttpWarning(const KubeConnection &connection);

// GQ_ALLOW_PLAIN_HTTP_CREDENTIALS=1 in the environment.
[[nodiscard]] bool plainHttpCredentialsAllowedByEnvironment();

} // namespace gq
