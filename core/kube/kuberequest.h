#pragma once

#include "core/net/httprequest.h" // HttpMethod, methodName()

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

namespace gq {

// Value types exchanged with KubeClient. HTTP status, transport outcome and the
// decoded API Status are kept apart: a failure is a gq::Error (kind from the Status
// reason / HTTP code / curl error), a success is a KubeResponse.

// One API resource kind we talk to.
struct KubeResource {
    QString group;   // "" for the core group
    QString version; // "v1"
    QString plural;  // "resourcequotas"
    QString kind;    // "ResourceQuota"
    bool namespaced = true;

    // "/api/v1/namespaces/NS/resourcequotas[/NAME[/SUB]]"; an empty ns on a namespaced
    // resource gives the all-namespaces collection path.
    [[nodiscard]] QString path(const QString &ns = {}, const QString &name = {},
                               const QString &subresource = {}) const;
    [[nodiscard]] QString apiVersion() const; // "v1", "authorization.k8s.io/v1"

    static const KubeResource &namespaces();
    static const KubeResource &resourceQuotas();
    static const KubeResource &limitRanges();
    static const KubeResource &pods();
    static const KubeResource &events();
    static const KubeResource &configMaps();
    // By plural, kind or common short name ("quota", "limits", "ns", "po", "ev").
    static const KubeResource *find(const QString &nameOrKind);
};

struct KubeRequest {
    HttpMethod method = HttpMethod::Get;
    QString path; // absolute API path, "/api/v1/namespaces"
    QList<QPair<QString, QString>> query;
    QByteArray body;
    QByteArray contentType;   // default "application/json" when a body is set
    int timeoutMs = -1;       // total deadline; -1: the client's default; 0: none (watch)
    int maxAttempts = -1;     // -1: the client's default retry policy
    qint64 maxBodyBytes = -1; // -1: the client's maxResponseBytes; 0: no limit
    bool retrySafe = false;   // a POST that changes nothing (access reviews): retried like a GET

    [[nodiscard]] bool isIdempotent() const {
        return retrySafe || method == HttpMethod::Get || method == HttpMethod::Head;
    }
    // "GET /api/v1/namespaces" (no query: it may carry continue tokens), for messages.
    [[nodiscard]] QString describe() const;
};

struct KubeResponse {
    int httpStatus = 0;
    QByteArray body;
    QByteArray contentType;
    long httpVersion = 0; // 2 for HTTP/2, 1 for HTTP/1.x
    int attempts = 1;     // how many tries it took (retries included)

    [[nodiscard]] QJsonObject json() const; // empty object if the body is not a JSON object
};

struct ListOptions {
    QString labelSelector;
    QString fieldSelector;
    int limit = 500;         // page size; 0: no pagination
    QString resourceVersion; // "" most recent; "0" any cached
    QString continueToken;   // for listPage()
};

struct WriteOptions {
    bool dryRun = false;                               // dryRun=All: validated and admitted, not persisted
    QString fieldManager = QStringLiteral("gpuquota"); // managedfields::kOurManager
};

struct ObjectList {
    QList<QJsonObject> items;
    QString resourceVersion; // of the list, to start a watch from
    QString continueToken;   // listPage(): non-empty when more pages follow
    int pages = 0;
    QString kind;       // "ResourceQuotaList"
    QString apiVersion; // "v1"

    // A v1 List document like kubectl prints: items carry kind and apiVersion.
    [[nodiscard]] QJsonObject toListJson(const KubeResource &resource) const;
};

struct AccessReview {
    bool allowed = false;
    bool denied = false;
    QString reason;
    QString evaluationError;
};

struct UserIdentity {
    QString username;
    QString uid;
    QStringList groups;
    // userInfo.extra, e.g. a real API server's authentication.kubernetes.io/credential-id.
    QMap<QString, QStringList> extra;
};

struct WatchEvent {
    enum class Type { Added, Modified, Deleted, Bookmark };
    Type type = Type::Added;
    QJsonObject object;
    QString resourceVersion; // object's metadata.resourceVersion
};

struct WatchOptions {
    QString resourceVersion; // start after this RV ("" or "0": synthetic ADDED for all first)
    QString labelSelector;
    QString fieldSelector;
    bool allowBookmarks = true;
    int timeoutSeconds = 300; // server-side stream lifetime; the watch resumes after it
    bool resume = true;       // on stream end or transport error, re-watch from the last RV
};

} // namespace gq
