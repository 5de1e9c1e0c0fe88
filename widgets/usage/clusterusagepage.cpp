#include "widgets/usage/clusterusagepage.h"

#include "core/domain/clock.h"
#include "models/usage/usagechartmodel.h"
#include "services/cluster/clusterconnection.h"
#include "services/usage/usagechartservice.h"
#include "widgets/charts/usagechart.h"
#include "widgets/usage/usagechartpanel.h"
#include "widgets/usage/usagerangebar.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace gq {

namespace {
QTableView *rankingView(QAbstractItemModel *model, const QString &name, QWidget *parent) {
    auto *v = new QTableView(parent);
    v->setObjectName(name);
    v->setModel(model);
    v->verticalHeader()->hide();
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setEditTriggers(QAbstractItemView::NoEditTriggers);
    v->setAlternatingRowColors(true);
    v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    return v;
}
// Namespaces with use in the range, also when the chart groups them into queues.
qsizetype namespaceCount(const UsageChartModel &model) {
    QStringList subjects;
    for (const auto &t : model.data().totals)
        subjects << t.first;
    return model.namespacesOf(subjects).size();
}
} // namespace

ClusterUsagePage::ClusterUsagePage(UsageChartService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new UsageChartModel(QStringLiteral("cluster"), this))
    , m_range(new UsageRangeBar(this))
    , m_groupBy(new QComboBox(this))
    , m_usage(new UsageChartPanel(m_model, this))
    , m_allocation(new UsageChartPanel(m_model, this))
    , m_totals(new QLabel(this))
    , m_subjectsHeading(new QLabel(tr("Namespaces"), this))
    , m_users(rankingView(m_model->users(), QStringLiteral("topUsersTable"), this))
    , m_namespaces(rankingView(m_model->subjects(), QStringLiteral("namespaceTotalsTable"), this)) {
    setObjectName(QStringLiteral("clusterUsagePage"));
    m_model->setService(service);
    m_range->setPreset(RangePreset::Last7Days);
    m_usage->setObjectName(QStringLiteral("clusterUsageChart"));
    m_usage->setTitle(tr("GPU-hours by namespace"));
    m_allocation->setObjectName(QStringLiteral("allocationChart"));
    m_allocation->setTitle(tr("GPUs allocated (average per bucket) vs GPU quota"));
    m_allocation->setMinimumHeight(230);
    m_allocation->setMaximumHeight(280);
    m_allocation->setDecorate([this](StackedChart &c) { decorateAllocation(c); });
    m_totals->setObjectName(QStringLiteral("usageTotals"));
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setWordWrap(true); // it shares its row with "Group by" and must not widen the page

    auto *charts = new QWidget(this);
    auto *chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(m_usage, 3);
    chartsLayout->addWidget(m_allocation, 1);

    auto *tables = new QSplitter(Qt::Vertical, this);
    auto *usersBox = new QWidget(tables);
    auto *usersLayout = new QVBoxLayout(usersBox);
    usersLayout->setContentsMargins(0, 0, 0, 0);
    usersLayout->addWidget(new QLabel(tr("Top users"), usersBox));
    usersLayout->addWidget(m_users);
    auto *nsBox = new QWidget(tables);
    auto *nsLayout = new QVBoxLayout(nsBox);
    nsLayout->setContentsMargins(0, 0, 0, 0);
    m_subjectsHeading->setObjectName(QStringLiteral("subjectTotalsHeading"));
    nsLayout->addWidget(m_subjectsHeading);
    nsLayout->addWidget(m_namespaces);
    tables->addWidget(usersBox);
    tables->addWidget(nsBox);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(charts);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 380});
    split->setChildrenCollapsible(false);

    m_groupBy->setObjectName(QStringLiteral("clusterUsageGroupBy"));
    m_groupBy->addItem(tr("Namespace"), QStringLiteral("namespace"));
    m_groupBy->addItem(tr("ClusterQueue"), QStringLiteral("clusterqueue"));
    m_groupBy->addItem(tr("LocalQueue"), QStringLiteral("localqueue"));
    m_groupBy->setToolTip(tr("Kueue queues: each namespace's GPU-hours go to its LocalQueue and that "
                             "queue's ClusterQueue (a namespace with several LocalQueues to all of them "
                             "jointly; one without any to \"(no queue)\")"));
    // Beside the totals, not the range bar: the page must fit a 1200-pixel window.
    auto *totalsRow = new QHBoxLayout;
    totalsRow->addWidget(m_totals, 1);
    auto *groupLabel = new QLabel(tr("&Group by"), this);
    groupLabel->setBuddy(m_groupBy);
    totalsRow->addWidget(groupLabel);
    totalsRow->addWidget(m_groupBy);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_range);
    layout->addLayout(totalsRow);
    layout->addWidget(split, 1);

    connect(m_range, &UsageRangeBar::changed, this, &ClusterUsagePage::reload);
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, &ClusterUsagePage::applyGrouping);
    connect(m_model, &UsageChartModel::loaded, this, &ClusterUsagePage::onLoaded);
    connect(service, &UsageChartService::opened, this, &ClusterUsagePage::reload);
    connect(m_usage, &UsageChartPanel::statusMessage, this, &ClusterUsagePage::statusMessage);
    connect(m_allocation, &UsageChartPanel::statusMessage, this, &ClusterUsagePage::statusMessage);
    connect(m_users, &QTableView::activated, this,
            [this](const QModelIndex &i) { emit userActivated(m_model->users()->subjectAt(i.row())); });
    connect(m_namespaces, &QTableView::activated, this, [this](const QModelIndex &i) {
        if (m_groupBy->currentIndex() == 0)
            emit namespaceActivated(m_model->subjects()->subjectAt(i.row()));
    });
    m_users->setToolTip(tr("Double-click a user for their usage across namespaces"));
    m_namespaces->setToolTip(tr("Double-click a namespace for its usage by user"));
    // Usage grows while pods run: read again now and then (a no-op while hidden).
    auto *refresh = new QTimer(this);
    refresh->setInterval(60000);
    connect(refresh, &QTimer::timeout, this, [this] {
        if (isVisible())
            reload();
    });
    refresh->start();
    if (service->isOpen())
        reload();
}

void ClusterUsagePage::setConnection(ClusterConnection *connection) {
    if (m_connection == connection)
        return;
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = connection;
    m_gpuQuota.clear();
    if (!connection)
        return;
    connect(connection, &ClusterConnection::namespacesReset, this, [this](const NamespaceRows &rows) {
        m_gpuQuota.clear();
        for (const NamespaceSummary &s : rows.rows)
            m_gpuQuota.insert(s.name, s.gpu);
        m_allocation->redraw();
        onLoaded();
    });
    connect(connection, &ClusterConnection::namespaceUpdated, this,
            [this](const NamespaceSummary &s) { m_gpuQuota.insert(s.name, s.gpu); });
    connect(connection, &ClusterConnection::namespaceRemoved, this,
            [this](const QString &name) { m_gpuQuota.remove(name); });
}

double ClusterUsagePage::quotaGpus() const {
    double hard = 0;
    for (const UsageBar &b : m_gpuQuota)
        if (b.hard)
            hard += b.hard->toDouble();
    return hard;
}

void ClusterUsagePage::setQueues(const kueue::QueueAttribution &queues) {
    m_queues = queues;
    if (m_groupBy->currentIndex() != 0)
        applyGrouping();
}

void ClusterUsagePage::applyGrouping() {
    const std::optional<kueue::QueueLevel> level =
        kueue::parseQueueLevel(m_groupBy->currentData().toString());
    if (!level) {
        m_usage->setTitle(tr("GPU-hours by namespace"));
        m_subjectsHeading->setText(tr("Namespaces"));
        m_namespaces->setToolTip(tr("Double-click a namespace for its usage by user"));
        m_model->setRegroup({});
    } else {
        const bool cq = *level == kueue::QueueLevel::ClusterQueue;
        m_usage->setTitle(cq ? tr("GPU-hours by Kueue ClusterQueue") : tr("GPU-hours by Kueue LocalQueue"));
        m_subjectsHeading->setText(cq ? tr("ClusterQueues") : tr("LocalQueues"));
        // A queue row opens nothing: only a namespace has a usage tab.
        m_namespaces->setToolTip(tr("GPU-hours of each queue's namespaces; group by Namespace to open one"));
        m_model->setRegroup(
            [queues = m_queues, l = *level](const QString &ns) { return queues.subjectOf(ns, l); },
            cq ? tr("ClusterQueue") : tr("LocalQueue"));
    }
    m_usage->redraw();
    onLoaded();
}

void ClusterUsagePage::reload() {
    m_model->request(m_range->query(ChartQuery::Kind::Cluster, QString(), Clock::system().nowSecs()));
}

void ClusterUsagePage::decorateAllocation(StackedChart &c) const {
    // Average GPUs held per bucket: its GPU-hours over its hours (up to now for the
    // bucket that is still running, nothing for the future).
    const ChartData &data = m_model->data();
    StackedChart::Line held{tr("GPUs allocated"), QColor(0x2f, 0x6f, 0xbd), {}, false};
    for (size_t b = 0; b < data.buckets.size(); ++b) {
        const TimeRange &r = data.buckets[b];
        const qint64 seconds = std::min(r.end, std::max(r.start, data.query.now)) - r.start;
        held.values << (seconds > 0 ? data.bucketTotal(b) * 3600.0 / double(seconds) : 0.0);
    }
    c.bands.clear();
    c.lines = {held};
    if (const double quota = quotaGpus(); quota > 0)
        c.lines << StackedChart::Line{tr("GPU quota (all namespaces)"), QColor(0xc6, 0x28, 0x28),
                                      QList<double>(held.values.size(), quota), true};
    c.valueTitle = tr("GPUs");
    c.unit = tr("GPUs");
}

void ClusterUsagePage::onLoaded() {
    const ChartData &d = m_model->data();
    const QLocale locale;
    QString quota;
    if (const double q = quotaGpus(); q > 0)
        quota = tr(" of %1 in quotas").arg(locale.toString(q, 'f', 0));
    m_totals->setText(tr("<b>%1 GPU-h</b> in the range &middot; %2 namespaces &middot; %3 users &middot; "
                         "GPUs allocated now: <b>%4</b>%5")
                          .arg(locale.toString(d.total(), 'f', 1))
                          .arg(namespaceCount(*m_model))
                          .arg(d.topUsers.size())
                          .arg(locale.toString(d.runningGpusNow, 'f', 1), quota));
}

void ClusterUsagePage::setPreferences(const PagePreferences &preferences) {
    m_range->applyZone(preferences.zone());
}

} // namespace gq
