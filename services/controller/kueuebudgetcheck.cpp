#include "services/controller/kueuebudgetcheck.h"

#include "core/kube/kubeclient.h"
#include "services/controller/kueueworkload.h"
#include "core/usage/usagestore.h"

#include <QJsonDocument>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcKueueCheck, "gq.controller.kueue")

namespace gq {

namespace {

KubeResource kueueResource(const QString &version, const QString &plural, const QString &kind,
                           bool namespaced) {
    return KubeResource{kueuecheck::kGroup, version, plural, kind, namespaced};
}

} // namespace

QString KueueCheckReport::line() const {
    if (!kueueServed)
        return QStringLiteral("kueue admission check: kueue.x-k8s.io not served");
    return QStringLiteral(
               "kueue admission check (%1): checks [%2], %3 activated, %4 decided (%5 ready, %6 held)%7")
        .arg(apiVersion, checks.join(QStringLiteral(", ")))
        .arg(activated)
        .arg(decided)
        .arg(ready)
        .arg(held)
        .arg(errors.isEmpty() ? QString() : QStringLiteral("; errors: ") + errors.join(QStringLiteral("; ")));
}

KueueBudgetCheck::KueueBudgetCheck(UsageStore &store, std::shared_ptr<KubeClient> client, Options options,
                                   QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_client(std::move(client))
    , m_opt(std::move(options)) {}

KueueBudgetCheck::~KueueBudgetCheck() = default;

bool KueueBudgetCheck::tick(qint64 now) {
    if (m_running)
        return false;
    m_running = true;
    m_now = now;
    m_report = KueueCheckReport{};
    m_outstanding = 0;
    KubeRequest request;
    request.path = QStringLiteral("/apis/") + kueuecheck::kGroup;
    m_jobs.watch(m_client->send(request), [this](const Result<KubeResponse> &r) { onGroup(r); });
    return true;
}

void KueueBudgetCheck::onGroup(const Result<KubeResponse> &r) {
    if (!r) {
        if (r.error().kind != Error::Kind::NotFound)
            m_report.errors << QStringLiteral("discovery: %1").arg(r.error().message);
        finish();
        return;
    }
    m_version = kueuecheck::pickVersion(r->json());
    if (m_version.isEmpty()) {
        finish();
        return;
    }
    m_report.kueueServed = true;
    m_report.apiVersion = kueuecheck::kGroup + QLatin1Char('/') + m_version;
    m_jobs.watch(m_client->list(kueueResource(m_version, QStringLiteral("admissionchecks"),
                                              QStringLiteral("AdmissionCheck"), false),
                                QString()),
                 [this](const Result<ObjectList> &list) { onChecks(list); });
}

void KueueBudgetCheck::onChecks(const Result<ObjectList> &r) {
    if (!r) {
        m_report.errors << QStringLiteral("admissionchecks: %1").arg(r.error().message);
        finish();
        return;
    }
    m_report.checks = kueuecheck::ourChecks(r->items);
    if (m_report.checks.isEmpty()) {
        finish();
        return;
    }
    const KubeResource checks =
        kueueResource(m_version, QStringLiteral("admissionchecks"), QStringLiteral("AdmissionCheck"), false);
    for (const QJsonObject &ac : r->items) {
        const QString name =
            ac.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (m_report.checks.contains(name) && !kueuecheck::isActive(ac)) {
            ++m_report.activated;
            apply(checks, QString(), name, kueuecheck::activePatch(m_report.apiVersion, name, m_now));
        }
    }
    ++m_outstanding; // the workloads' list
    m_jobs.watch(m_client->list(
                     kueueResource(m_version, QStringLiteral("workloads"), QStringLiteral("Workload"), true),
                     QString()),
                 [this](const Result<ObjectList> &list) { onWorkloads(list); });
}

void KueueBudgetCheck::onWorkloads(const Result<ObjectList> &r) {
    if (!r) {
        m_report.errors << QStringLiteral("workloads: %1").arg(r.error().message);
        settle();
        return;
    }
    const KubeResource workloads =
        kueueResource(m_version, QStringLiteral("workloads"), QStringLiteral("Workload"), true);
    for (const QJsonObject &wl : r->items) {
        const kueuecheck::WorkloadAsk ask = kueuecheck::readWorkload(wl, m_opt.userLabel, m_store.weights());
        for (const QString &check : std::as_const(m_report.checks)) {
            if (!kueuecheck::needsDecision(ask, check))
                continue;
            kueuecheck::Verdict v = kueuecheck::noGpus();
            if (ask.gpus > 0) {
                const Result<Decision> d = m_store.check(ask.user, ask.ns, ask.request(), m_now);
                if (!d) {
                    m_report.errors << QStringLiteral("%1/%2: %3").arg(ask.ns, ask.name, d.error().message);
                    continue;
                }
                v = kueuecheck::verdict(ask, *d, m_opt.userLabel);
            }
            ++m_report.decided;
            const kueuecheck::CheckState old = ask.checks.value(check);
            if (old.state == v.state && old.message == v.message)
                continue; // held as before: nothing to write
            (v.state == kueuecheck::kReady ? m_report.ready : m_report.held)++;
            qCInfo(lcKueueCheck).noquote() << QStringLiteral("workload %1/%2 check %3: %4 (%5)")
                                                  .arg(ask.ns, ask.name, check, v.state, v.message);
            apply(workloads, ask.ns, ask.name,
                  kueuecheck::checkStatePatch(m_report.apiVersion, ask, check, v, m_now));
        }
    }
    settle();
}

void KueueBudgetCheck::apply(const KubeResource &resource, const QString &ns, const QString &name,
                             const QJsonObject &body) {
    KubeRequest request;
    request.method = HttpMethod::Patch;
    request.path = resource.path(ns, name, QStringLiteral("status"));
    request.query = {{QStringLiteral("fieldManager"), kueuecheck::kFieldManager},
                     {QStringLiteral("force"), QStringLiteral("true")}};
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    request.contentType = "application/apply-patch+yaml";
    ++m_outstanding;
    m_jobs.watch(m_client->send(request), [this, what = request.path](const Result<KubeResponse> &r) {
        if (!r)
            m_report.errors << QStringLiteral("%1: %2").arg(what, r.error().message);
        settle();
    });
}

void KueueBudgetCheck::settle() {
    if (--m_outstanding <= 0)
        finish();
}

void KueueBudgetCheck::finish() {
    m_running = false;
    const KueueCheckReport report = m_report;
    emit finished(report);
}

} // namespace gq
