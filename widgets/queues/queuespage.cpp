#include "widgets/queues/queuespage.h"

#include "core/domain/clock.h"
#include "services/cluster/clusterconnection.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"
#include "models/queues/queuemodels.h"
#include "widgets/queues/queuequotadialog.h"
#include "widgets/queues/queueyamldialog.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace gq {

namespace {
constexpr int kRefreshMs = 15000;
}

QueuesPage::QueuesPage(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QueueTreeModel(this))
    , m_workloads(new WorkloadListModel(this))
    , m_treeView(new QTreeView(this))
    , m_workloadView(new QTableView(this))
    , m_status(new QLabel(this))
    , m_workloadsTitle(new QLabel(this))
    , m_refreshButton(new QPushButton(this))
    , m_editQuotaButton(new QPushButton(this))
    , m_editYamlButton(new QPushButton(this))
    , m_timer(new QTimer(this)) {
    setObjectName(QStringLiteral("queuesPage"));
    m_treeView->setObjectName(QStringLiteral("queueTree"));
    m_workloadView->setObjectName(QStringLiteral("workloadTable"));
    m_status->setObjectName(QStringLiteral("queuesStatus"));
    m_refreshButton->setObjectName(QStringLiteral("queuesRefresh"));
    m_editQuotaButton->setObjectName(QStringLiteral("queuesEditQuota"));
    m_editYamlButton->setObjectName(QStringLiteral("queuesEditYaml"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_treeView->setModel(m_tree);
    m_treeView->setAlternatingRowColors(true);
    m_treeView->setUniformRowHeights(true);
    m_treeView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_treeView->header()->setStretchLastSection(false);
    m_treeView->header()->setSectionResizeMode(QueueTreeModel::NameColumn, QHeaderView::Stretch);
    m_workloadView->setModel(m_workloads);
    m_workloadView->setAlternatingRowColors(true);
    m_workloadView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_workloadView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_workloadView->setWordWrap(false);
    m_workloadView->verticalHeader()->hide();
    m_workloadView->horizontalHeader()->setStretchLastSection(true);

    // The edit buttons on a row of their own: beside the status line they would widen the
    // window's minimum width (it must fit 1200 px).
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_refreshButton);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_editQuotaButton);
    buttons->addWidget(m_editYamlButton);
    buttons->addStretch(1);
    auto *top = new QVBoxLayout;
    top->addLayout(statusRow);
    top->addLayout(buttons);
    auto *lower = new QWidget(this);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_workloadsTitle);
    lowerLayout->addWidget(m_workloadView);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_treeView);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &QueuesPage::refresh);
    connect(m_refreshButton, &QPushButton::clicked, this, &QueuesPage::refresh);
    connect(m_treeView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &QueuesPage::updateActions);
    connect(m_editQuotaButton, &QPushButton::clicked, this,
            [this] { editQuota(m_treeView->currentIndex()); });
    connect(m_editYamlButton, &QPushButton::clicked, this, [this] { editYaml(m_treeView->currentIndex()); });
    connect(m_treeView, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        if (!editQuota(index))
            editYaml(index);
    });
    retranslate();
}

QueuesPage::~QueuesPage() = default;

void QueuesPage::setConnection(ClusterConnection *connection) {
    if (connection && connection == m_connection)
        return; // the window tells every page on a namespace change; a new context syncs (refresh)
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = connection;
    m_jobs.cancel();
    m_loading = false;
    m_snapshot.reset();
    m_error.reset();
    m_reviewJobs.cancel();
    m_canEdit.reset();
    m_localQueueAccess.clear();
    m_denyReason.clear();
    m_tree->setSnapshot({});
    m_workloads->setSnapshot({}, {}, 0);
    if (m_connection)
        connect(m_connection, &ClusterConnection::synced, this, [this] {
            if (isVisible())
                refresh();
        });
    if (isVisible())
        refresh();
    retranslate();
}

void QueuesPage::setNamespace(const QString &ns) {
    Q_UNUSED(ns) // the page shows the whole cluster's queues; LocalQueues name their namespaces
}

void QueuesPage::refresh() {
    const std::shared_ptr<KubeClient> client = m_connection ? m_connection->client() : nullptr;
    if (!client) {
        retranslate();
        return;
    }
    m_loading = true;
    m_jobs.cancel();
    m_jobs.run([client] { return kueue::readSnapshot(*client); },
               [this](const Result<kueue::Snapshot> &result) { showResult(result); });
    checkPermissions(client);
    for (auto it = m_localQueueAccess.cbegin(); it != m_localQueueAccess.cend(); ++it)
        checkLocalQueueAccess(it.key()); // the answer shown stays until the new one comes
    retranslate();
}

std::optional<bool> QueuesPage::canEditLocalQueues(const QString &ns) const {
    return m_localQueueAccess.value(ns).allowed;
}

// Namespaced, as RBAC grants a team its own LocalQueue with a Role in its namespace.
void QueuesPage::checkLocalQueueAccess(const QString &ns) {
    const std::shared_ptr<KubeClient> client = m_connection ? m_connection->client() : nullptr;
    if (!client || ns.isEmpty())
        return;
    if (!m_localQueueAccess.contains(ns))
        m_localQueueAccess.insert(ns, {});
    m_reviewJobs.watch(client->canI(QStringLiteral("update"), QStringLiteral("localqueues"), ns,
                                    QString::fromUtf16(kueue::kGroup)),
                       [this, ns](const Result<AccessReview> &review) {
                           LocalQueueAccess &a = m_localQueueAccess[ns];
                           a.allowed = review && review->allowed;
                           a.reason = review ? review->reason : review.error().message;
                           updateActions();
                           emit permissionsKnown();
                       });
}

QString QueuesPage::localQueueReason(const QString &ns) const {
    const LocalQueueAccess a = m_localQueueAccess.value(ns);
    if (!a.allowed)
        return tr("Checking whether you may edit the LocalQueues of %1…").arg(ns);
    return a.reason.isEmpty()
               ? tr("Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied "
                    "update localqueues.kueue.x-k8s.io there).")
                     .arg(ns)
               : tr("Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied "
                    "update localqueues.kueue.x-k8s.io there: %2).")
                     .arg(ns, a.reason);
}

bool QueuesPage::mayEditYaml(const QModelIndex &index) const {
    if (!m_snapshot)
        return false;
    if (index.data(QueueTreeModel::KindRole).toString() == QLatin1String("localqueue"))
        return canEditLocalQueues(index.data(QueueTreeModel::ObjectNameRole).toString().section(u'/', 0, 0))
            .value_or(false);
    return m_canEdit.value_or(false);
}

// As the quota pages ask before they offer an edit; a failed review leaves editing off.
void QueuesPage::checkPermissions(const std::shared_ptr<KubeClient> &client) {
    m_reviewJobs.watch(client->canI(QStringLiteral("update"), QStringLiteral("clusterqueues"), {},
                                    QString::fromUtf16(kueue::kGroup)),
                       [this](const Result<AccessReview> &review) {
                           m_canEdit = review && review->allowed;
                           m_denyReason = review ? review->reason : review.error().message;
                           updateActions();
                           retranslate();
                           emit permissionsKnown();
                       });
}

QString QueuesPage::readOnlyReason() const {
    if (!m_canEdit)
        return tr("Checking whether you may edit Kueue's queues…");
    return m_denyReason.isEmpty()
               ? tr("Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied "
                    "update clusterqueues.kueue.x-k8s.io).")
               : tr("Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied "
                    "update clusterqueues.kueue.x-k8s.io: %1).")
                     .arg(m_denyReason);
}

void QueuesPage::updateActions() {
    const QModelIndex index = m_treeView->currentIndex().siblingAtColumn(QueueTreeModel::NameColumn);
    const QString kind = index.data(QueueTreeModel::KindRole).toString();
    const bool allowed = m_canEdit.value_or(false) && m_snapshot;
    const bool localQueue = kind == QLatin1String("localqueue");
    const QString lqNs =
        localQueue ? index.data(QueueTreeModel::ObjectNameRole).toString().section(u'/', 0, 0) : QString();
    if (localQueue && !m_localQueueAccess.contains(lqNs))
        checkLocalQueueAccess(lqNs);
    const bool yamlAllowed = mayEditYaml(index);
    m_editQuotaButton->setEnabled(allowed && kind == QLatin1String("flavor"));
    m_editYamlButton->setEnabled(yamlAllowed && !kind.isEmpty());
    const QString why = allowed ? QString() : readOnlyReason();
    const QString yamlWhy = yamlAllowed ? QString() : localQueue ? localQueueReason(lqNs) : readOnlyReason();
    m_editQuotaButton->setToolTip(why.isEmpty()
                                      ? tr("Edit the selected flavor's GPU nominal quota, borrowing "
                                           "or lending limit (or double-click a number)")
                                      : why);
    m_editYamlButton->setToolTip(yamlWhy.isEmpty() ? tr("Edit the selected Cohort, ClusterQueue, "
                                                        "ResourceFlavor or LocalQueue as YAML")
                                                   : yamlWhy);
}

QDialog *QueuesPage::editQuota(const QModelIndex &at) {
    const QModelIndex index = at.siblingAtColumn(QueueTreeModel::NameColumn);
    const std::shared_ptr<KubeClient> client = m_connection ? m_connection->client() : nullptr;
    if (!client || !m_snapshot || !m_canEdit.value_or(false) ||
        index.data(QueueTreeModel::KindRole).toString() != QLatin1String("flavor"))
        return nullptr;
    kueue::QuotaField field = kueue::QuotaField::NominalQuota;
    if (at.column() == QueueTreeModel::BorrowingLimitColumn)
        field = kueue::QuotaField::BorrowingLimit;
    else if (at.column() == QueueTreeModel::LendingLimitColumn)
        field = kueue::QuotaField::LendingLimit;
    auto *dialog = new QueueQuotaDialog(
        client, kueue::resource(QStringLiteral("clusterqueues"), m_snapshot->apiVersion), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAuditHeadSource(m_auditHead);
    dialog->setAuditSink(m_auditSink);
    connect(dialog, &QueueQuotaDialog::applied, this, &QueuesPage::applied);
    connect(dialog, &QueueQuotaDialog::applied, this, &QueuesPage::refresh);
    connect(dialog, &QueueQuotaDialog::statusMessage, this, &QueuesPage::statusMessage);
    dialog->setTarget(index.parent().data(QueueTreeModel::ObjectNameRole).toString(),
                      index.data(QueueTreeModel::ObjectNameRole).toString(),
                      index.data(QueueTreeModel::ResourceRole).toString(), field);
    dialog->open();
    return dialog;
}

QDialog *QueuesPage::editYaml(const QModelIndex &at) {
    const QModelIndex index = at.siblingAtColumn(QueueTreeModel::NameColumn);
    const std::shared_ptr<KubeClient> client = m_connection ? m_connection->client() : nullptr;
    if (!client || !mayEditYaml(index))
        return nullptr;
    static const QHash<QString, QString> plurals{
        {QStringLiteral("cohort"), QStringLiteral("cohorts")},
        {QStringLiteral("clusterqueue"), QStringLiteral("clusterqueues")},
        {QStringLiteral("flavor"), QStringLiteral("resourceflavors")},
        {QStringLiteral("localqueue"), QStringLiteral("localqueues")}};
    const QString plural = plurals.value(index.data(QueueTreeModel::KindRole).toString());
    if (plural.isEmpty())
        return nullptr;
    QString name = index.data(QueueTreeModel::ObjectNameRole).toString();
    QString ns;
    if (plural == QLatin1String("localqueues")) {
        ns = name.section(u'/', 0, 0);
        name = name.section(u'/', 1);
    }
    auto *dialog =
        new QueueYamlDialog(client, kueue::resource(plural, m_snapshot->apiVersion), ns, name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAuditHeadSource(m_auditHead);
    dialog->setAuditSink(m_auditSink);
    connect(dialog, &QueueYamlDialog::applied, this, &QueuesPage::applied);
    connect(dialog, &QueueYamlDialog::applied, this, &QueuesPage::refresh);
    connect(dialog, &QueueYamlDialog::statusMessage, this, &QueuesPage::statusMessage);
    dialog->open();
    return dialog;
}

void QueuesPage::showResult(const Result<kueue::Snapshot> &result) {
    m_loading = false;
    if (result) {
        m_snapshot = *result;
        m_error.reset();
        m_tree->setSnapshot(*result);
        m_workloads->setSnapshot(*result, {}, Clock::system().nowMSecs());
        m_treeView->expandAll();
        for (int c = 1; c < QueueTreeModel::ColumnCount; ++c)
            m_treeView->resizeColumnToContents(c);
        m_workloadView->resizeColumnsToContents();
    } else {
        m_error = result.error();
    }
    retranslate();
    emit done();
}

QString QueuesPage::statusText() const {
    return m_status->text();
}

void QueuesPage::retranslate() {
    m_refreshButton->setText(tr("Refresh"));
    m_workloadsTitle->setText(tr("Workloads: pending in the order Kueue tries them, then admitted"));
    m_editQuotaButton->setText(tr("Edit GPU quota…"));
    m_editYamlButton->setText(tr("Edit YAML…"));
    updateActions();
    QString text;
    if (!m_connection || !m_connection->client())
        text = tr("Not connected.");
    else if (m_error && m_error->kind == Error::Kind::NotFound)
        text = tr("Kueue is not installed on this cluster (no kueue.x-k8s.io API).");
    else if (m_error)
        text = tr("Cannot read Kueue's queues: %1").arg(m_error->message);
    else if (m_snapshot && m_canEdit.value_or(false))
        text = tr("Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n", nullptr,
                  int(m_snapshot->clusterQueues.size()))
                   .arg(m_snapshot->apiVersion);
    else if (m_snapshot)
        text = tr("Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n · read-only", nullptr,
                  int(m_snapshot->clusterQueues.size()))
                   .arg(m_snapshot->apiVersion);
    else
        text = tr("Reading Kueue's queues…");
    if (m_loading && m_snapshot)
        text += tr(" · refreshing…");
    m_status->setText(text);
}

void QueuesPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    m_timer->start();
    refresh();
}

void QueuesPage::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    m_timer->stop();
}

void QueuesPage::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        m_tree->retranslate();
        m_workloads->retranslate();
        retranslate();
    }
}

} // namespace gq
