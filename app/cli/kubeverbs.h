#pragma once

// What the cluster verbs (cmd_get.cpp: `get`, `whoami`; cmd_apply.cpp: `apply`) share:
// their flags, the connection to the API server, waiting for one answer, and
// kubectl-shaped output.

#include "core/kube/kubeclient.h"
#include "core/domain/result.h"

#include <QFuture>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <memory>

namespace gq::cli::kubeverbs {

// The flags every cluster verb understands (cliargs.h), one line each in kubeverbs.cpp.
struct ClusterArgs {
    QString kubeconfig;
    QString context;
    QString ns;
    bool allNamespaces = false;
    QString output;
    QString file;
    QString dryRun;
    QString requestTimeout; // kubectl's syntax; empty: the client's default bounds
    QString db;             // apply: the audit log's usage database
    QString note;           // apply: the audit entry's reason
    QString actor;          // apply: who the audit entry names
    bool force = false;
    QStringList positional;
    QString usageError;
};

[[nodiscard]] ClusterArgs parseClusterArgs(const QStringList &args);

// A failed request, with what to do about a timeout.
[[nodiscard]] QString requestFailure(const ClusterArgs &a, const Error &e);

// Every verb that talks to a cluster connects here, so a connection without TLS
// verification is always said out loud, once per invocation, before any output.
[[nodiscard]] Result<std::shared_ptr<KubeClient>> connect(const ClusterArgs &a);

// One answer, waited for on this thread: the request runs on the client's own thread,
// so this is a plain blocking wait, no event loop.
template <typename T> Result<T> wait(QFuture<Result<T>> f) {
    f.waitForFinished();
    return f.result();
}

// kubectl's table: the header, then the rows, in columns three spaces apart.
void printTable(const QStringList &header, const QList<QStringList> &rows);
// -o json or yaml.
void printDocument(const QJsonObject &doc, const QString &format);

} // namespace gq::cli::kubeverbs
