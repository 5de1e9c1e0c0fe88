#pragma once

#include "core/domain/error.h"
#include "core/usage/identitymapping.h"
#include "core/usage/ledger.h"
#include "services/controller/podtrust.h"
#include "core/domain/yamldoc.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// The controller's configuration file (`gpuquota-controller --config FILE`), typed.
// Every key of the file is read here except sections kept as raw YAML nodes for their
// own parsers (with source positions, so their errors can name lines too): `alerts:`
// (the alert service), `selfService:` (the /quota endpoints), `metrics:` and `idle:`
// (the idle recorder, idlerecorder.h).
struct ControllerConfig {
    struct Cluster {
        QString kubeconfig; // empty: $KUBECONFIG / ~/.kube/config
        QString context;    // empty: current-context
        bool inCluster = false;
    };
    struct Enforce {
        bool enabled = false;
        qint64 intervalSeconds = 10;
    };
    struct Webhook {
        bool configured = false;
        QString listen;
        QString tlsCert;
        QString tlsKey;
        // The names the API server connects to (the Service's DNS name, or the host of a
        // url webhook): the certificate's subjectAltNames must cover each. Optional.
        QStringList names;
        // The "webhook not called" alert: GPU pods the pod informer saw created this long
        // ago without any admission review since. 0: off.
        qint64 uncheckedAfterSeconds = 120;
    };
    struct LeaderElection {
        bool enabled = false;
        QString namespaceName = QStringLiteral("gpuquota-system");
        QString name = QStringLiteral("gpuquota-controller");
    };

    Cluster cluster;
    // The `cluster` column of the intervals this controller writes. Default: the
    // kubeconfig context name, or "in-cluster". Keep it fixed: a restart reconciles
    // only the rows of its own cluster name.
    QString clusterName;
    QString database; // sqlite:///path or postgresql://user@host:port/db
    QString listen = QStringLiteral("127.0.0.1:9464");
    QString userLabel = kDefaultUserLabel;
    // Built-in MIG rule plus the gpuResources overrides, and the gpuModelWeights: the
    // store writes both factors into each interval (weight, model_weight) and budgets
    // count weighted GPU-hours (see ResourceWeights).
    ResourceWeights weights;
    QHash<QString, double> gpuModelWeights; // nvidia.com/gpu.product -> factor (default 1)
    // DRA DeviceClasses whose devices are GPUs beyond the rule (a class or driver name
    // containing "gpu"): their claims are recorded and counted like nvidia.com/gpu.
    QSet<QString> gpuDeviceClasses;
    QString timeZone = QStringLiteral("UTC");
    Enforce enforce;
    Webhook webhook;
    QString spool; // directory of the spool file
    LeaderElection leaderElection;
    // How TokenReview usernames become budget subjects (self-service, the webhook's
    // denial text); the defaults without an `identity:` section.
    IdentityRules identity;
    // Who may label GPU pods for whom; the floor of their expected hours (podtrust.h).
    TrustRules trust;
    YamlNode alerts;      // raw, Null when absent
    YamlNode selfService; // raw, Null when absent
    YamlNode metrics;     // raw, Null when absent
    YamlNode idle;        // raw, Null when absent
    QString fileName;     // the file read: relative paths in the raw sections start from it

    // The factor of a GPU model (1 when not configured).
    [[nodiscard]] double modelWeight(const QString &gpuModel) const {
        return gpuModelWeights.value(gpuModel, 1.0);
    }
};

struct ControllerConfigResult {
    std::optional<ControllerConfig> config; // set only when errors is empty
    QList<Error> errors;                    // each names its key (field) and line/column
    ControllerConfig read;                  // what could be read, also with errors
};

// Parses and validates the file text. Every problem is reported (not only the first):
// unknown keys, wrong types, bad values, missing required keys, referenced files
// (kubeconfig, TLS certificate and key) that cannot be read. fileName anchors
// relative paths and is not opened.
[[nodiscard]] ControllerConfigResult parseControllerConfig(const QByteArray &text, const QString &fileName);
// Reads the file and parses it; an unreadable file is one Io error.
[[nodiscard]] ControllerConfigResult loadControllerConfig(const QString &path);
// "FILE:LINE:COL: key: message" for people.
[[nodiscard]] QString formatConfigError(const QString &fileName, const Error &error);

} // namespace gq
