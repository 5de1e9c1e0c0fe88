#include "widgets/boosts/queueboosttarget.h"

#include "core/kube/kubeclient.h"
#include "core/kueue/kueuemodel.h"
#include "core/kueue/kueuereader.h"

#include <QComboBox>
#include <QFormLayout>

namespace gq {

namespace {
Result<QList<QJsonObject>> readClusterQueues(const std::shared_ptr<KubeClient> &client) {
    auto version = kueue::detectVersion(*client);
    if (!version)
        return version.error();
    auto list = client->list(kueue::resource(QStringLiteral("clusterqueues"), *version), QString());
    list.waitForFinished();
    auto r = list.result();
    if (!r)
        return r.error();
    return r->items;
}

QString nameOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}
} // namespace

QueueBoostTarget::QueueBoostTarget(QWidget *parent)
    : QWidget(parent)
    , m_queue(new QComboBox(this))
    , m_flavor(new QComboBox(this))
    , m_resource(new QComboBox(this))
    , m_field(new QComboBox(this)) {
    m_queue->setObjectName(QStringLiteral("boostClusterQueue"));
    m_flavor->setObjectName(QStringLiteral("boostFlavor"));
    m_resource->setObjectName(QStringLiteral("boostQueueResource"));
    m_field->setObjectName(QStringLiteral("boostQueueField"));
    m_queue->setMinimumContentsLength(16);
    m_resource->setMinimumContentsLength(16);
    m_field->addItem(tr("nominalQuota"), QStringLiteral("nominalQuota"));
    m_field->addItem(tr("borrowingLimit"), QStringLiteral("borrowingLimit"));
    m_field->setToolTip(tr("nominalQuota: the queue's own GPUs; borrowingLimit: how many more it may "
                           "borrow from its cohort"));
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("ClusterQueue:"), m_queue);
    form->addRow(tr("Flavor:"), m_flavor);
    form->addRow(tr("Resource:"), m_resource);
    form->addRow(tr("Field:"), m_field);
    connect(m_queue, &QComboBox::currentTextChanged, this, &QueueBoostTarget::fillFlavors);
    connect(m_flavor, &QComboBox::currentTextChanged, this, &QueueBoostTarget::fillResources);
    connect(m_resource, &QComboBox::currentTextChanged, this, &QueueBoostTarget::changed);
    connect(m_field, &QComboBox::currentIndexChanged, this, &QueueBoostTarget::changed);
    m_status = tr("No cluster connection to read Kueue's ClusterQueues from.");
}

void QueueBoostTarget::load(std::shared_ptr<KubeClient> client) {
    if (m_loaded || !client)
        return;
    m_loaded = true;
    m_status = tr("Reading Kueue's ClusterQueues…");
    emit changed();
    m_jobs.run([client] { return readClusterQueues(client); },
               [this](const Result<QList<QJsonObject>> &r) {
                   if (!r) {
                       m_loaded = false;
                       m_status = tr("Cannot read Kueue's ClusterQueues: %1").arg(r.error().message);
                       emit changed();
                       return;
                   }
                   const QString keep = m_queue->currentText();
                   setQueues(*r);
                   if (!keep.isEmpty())
                       select(keep);
               });
}

void QueueBoostTarget::setQueues(const QList<QJsonObject> &queues) {
    m_queues = queues;
    m_status = queues.isEmpty() ? tr("The cluster has no Kueue ClusterQueue.") : QString();
    const QSignalBlocker block(m_queue);
    m_queue->clear();
    for (const QJsonObject &q : queues)
        m_queue->addItem(nameOf(q));
    fillFlavors();
}

void QueueBoostTarget::select(const QString &clusterQueue, const QString &flavor, const QString &resource,
                              const QString &field) {
    if (!clusterQueue.isEmpty())
        m_queue->setCurrentText(clusterQueue);
    if (!flavor.isEmpty())
        m_flavor->setCurrentText(flavor);
    if (!resource.isEmpty())
        m_resource->setCurrentText(resource);
    if (const int i = m_field->findData(field); i >= 0)
        m_field->setCurrentIndex(i);
}

QJsonObject QueueBoostTarget::queue() const {
    for (const QJsonObject &q : m_queues)
        if (nameOf(q) == m_queue->currentText())
            return q;
    return {};
}

void QueueBoostTarget::fillFlavors() {
    const QString keep = m_flavor->currentText();
    {
        const QSignalBlocker block(m_flavor);
        m_flavor->clear();
        if (auto cq = kueue::parseClusterQueue(queue()))
            m_flavor->addItems(cq->flavorNames());
        if (m_flavor->findText(keep) >= 0)
            m_flavor->setCurrentText(keep);
    }
    fillResources();
}

void QueueBoostTarget::fillResources() {
    const QString keep = m_resource->currentText();
    {
        const QSignalBlocker block(m_resource);
        m_resource->clear();
        if (auto cq = kueue::parseClusterQueue(queue()))
            if (const kueue::FlavorQuotas *f = cq->flavor(m_flavor->currentText()))
                for (const kueue::ResourceLimits &r : f->resources)
                    m_resource->addItem(r.name);
        // GPUs are what people boost.
        int pick = m_resource->findText(keep);
        for (int i = 0; pick < 0 && i < m_resource->count(); ++i)
            if (kueue::isGpuResource(m_resource->itemText(i)))
                pick = i;
        if (pick >= 0)
            m_resource->setCurrentIndex(pick);
    }
    emit changed();
}

QueueGrantRequest QueueBoostTarget::request() const {
    QueueGrantRequest r;
    r.clusterQueue = m_queue->currentText();
    r.flavor = m_flavor->currentText();
    r.resource = m_resource->currentText();
    r.field = m_field->currentData().toString();
    return r;
}

} // namespace gq
