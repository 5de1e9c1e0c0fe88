#include "services/controller/auditheadpublisher.h"

#include "services/audit/auditheads.h"
#include "core/usage/auditlog.h"
#include "core/kube/kubeclient.h"
#include "core/usage/usagestore.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAuditHead, "gq.controller.audithead")

namespace gq {

AuditHeadPublisher::AuditHeadPublisher(std::shared_ptr<KubeClient> client, QString ns,
                                       std::function<UsageStore *()> store, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_ns(std::move(ns))
    , m_store(std::move(store)) {
    connect(&m_timer, &QTimer::timeout, this, &AuditHeadPublisher::publish);
}

void AuditHeadPublisher::start(int intervalMs) {
    m_timer.start(intervalMs);
    publish();
}

void AuditHeadPublisher::stop() {
    m_timer.stop();
}

void AuditHeadPublisher::publish() {
    UsageStore *store = m_store();
    if (!store || m_inFlight)
        return;
    const Result<AuditHead> head = AuditLog(*store).head();
    if (!head) {
        qCWarning(lcAuditHead) << "reading the audit head:" << head.error().message;
        return;
    }
    if (head->count == 0 || (head->count == m_last.count && head->hash == m_last.hash))
        return;
    write(*head, false);
}

void AuditHeadPublisher::write(const AuditHead &head, bool create) {
    m_inFlight = true;
    auto future = create
                      ? m_client->create(KubeResource::configMaps(), m_ns, auditheads::configMap(m_ns, head))
                      : m_client->mergePatch(KubeResource::configMaps(), m_ns, auditheads::kConfigMapName,
                                             auditheads::dataPatch(head));
    m_jobs.watch(future, [this, head, create](const Result<QJsonObject> &r) {
        m_inFlight = false;
        if (!r && r.error().kind == Error::Kind::NotFound && !create) {
            write(head, true);
            return;
        }
        if (!r) {
            qCWarning(lcAuditHead).noquote()
                << QStringLiteral("publishing the audit head to ConfigMap %1/%2: %3")
                       .arg(m_ns, auditheads::kConfigMapName, r.error().message);
            return;
        }
        m_last = head;
        Q_EMIT published(head);
    });
}

} // namespace gq
