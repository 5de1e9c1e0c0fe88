#include "widgets/usage/namespaceusagepage.h"

#include "core/domain/clock.h"
#include "models/usage/rankingmodel.h"
#include "models/usage/usagechartmodel.h"
#include "widgets/usage/usagechartpanel.h"
#include "services/usage/usagechartservice.h"
#include "widgets/usage/usagerangebar.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

NamespaceUsagePage::NamespaceUsagePage(UsageChartService *service, QWidget *parent)
    : QWidget(parent)
    , m_model(new UsageChartModel(QStringLiteral("namespace"), this))
    , m_range(new UsageRangeBar(this))
    , m_panel(new UsageChartPanel(m_model, this))
    , m_budget(new QLabel(this))
    , m_budgetPeriod(new QPushButton(tr("Budget period"), this))
    , m_users(new QTableView(this)) {
    setObjectName(QStringLiteral("namespaceUsagePage"));
    m_model->setService(service);
    m_range->setPreset(RangePreset::Today);
    m_panel->setObjectName(QStringLiteral("namespaceUsageChart"));
    m_panel->setDecorate([this](StackedChart &c) {
        addBudgetLines(c, m_model->data());
        // Offered while the chart shows another range than the budget's current period.
        const auto view = budgetView(m_model->data());
        m_budgetPeriod->setEnabled(view && view->range != m_model->data().query.range);
    });
    m_budget->setObjectName(QStringLiteral("namespaceBudgetLabel"));
    m_budget->setWordWrap(true);
    m_budgetPeriod->setObjectName(QStringLiteral("budgetPeriodButton"));
    m_budgetPeriod->setToolTip(tr("Show the current period of the namespace's budget, with its line"));
    m_budgetPeriod->setEnabled(false);
    m_users->setObjectName(QStringLiteral("namespaceUsersTable"));
    m_users->setModel(m_model->subjects());
    m_users->verticalHeader()->hide();
    m_users->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_users->setAlternatingRowColors(true);
    m_users->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_users->horizontalHeader()->setStretchLastSection(true);
    m_users->setToolTip(tr("Double-click a user for their usage across namespaces"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_range, 1);
    top->addWidget(m_budgetPeriod);
    // Chart above the table: the tab shares the window with the namespace list, so
    // both get its full width.
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_panel);
    split->addWidget(m_users);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 200});
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_budget);
    layout->addWidget(split, 1);

    connect(m_range, &UsageRangeBar::changed, this, &NamespaceUsagePage::reload);
    connect(m_budgetPeriod, &QPushButton::clicked, this, &NamespaceUsagePage::showBudgetPeriod);
    connect(m_model, &UsageChartModel::loaded, this, &NamespaceUsagePage::onLoaded);
    connect(service, &UsageChartService::opened, this, &NamespaceUsagePage::reload);
    connect(m_panel, &UsageChartPanel::statusMessage, this, &NamespaceUsagePage::statusMessage);
    connect(m_users, &QTableView::activated, this,
            [this](const QModelIndex &i) { emit userActivated(m_model->subjects()->subjectAt(i.row())); });
}

void NamespaceUsagePage::setNamespace(const QString &ns) {
    if (ns == m_ns)
        return;
    m_ns = ns;
    // A hidden tab reads when it is shown: switching namespaces must not queue reads
    // for a chart nobody looks at.
    if (isVisible())
        reload();
    else
        m_stale = true;
}

void NamespaceUsagePage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_stale)
        reload();
}

void NamespaceUsagePage::reload() {
    m_stale = false;
    if (m_ns.isEmpty())
        return;
    m_panel->setTitle(tr("GPU-hours in %1 by user").arg(m_ns));
    m_model->request(m_range->query(ChartQuery::Kind::Namespace, m_ns, Clock::system().nowSecs()));
}

void NamespaceUsagePage::showBudgetPeriod() {
    const auto view = budgetView(m_model->data());
    if (!view)
        return;
    // The budget's own calendar, so that the range is exactly its period.
    m_range->setZone(m_model->data().budgets.first().budget.tz);
    const auto tz = parseZone(m_range->zone());
    const QTimeZone zone = tz ? *tz : QTimeZone::utc();
    const QDate first = QDateTime::fromSecsSinceEpoch(view->range.start, zone).date();
    const QDate last = QDateTime::fromSecsSinceEpoch(view->range.end - 1, zone).date();
    if (m_model->data().budgets.first().budget.period == Period::Day)
        m_range->setPreset(RangePreset::Today);
    else
        m_range->setCustomDays(first, last);
    m_range->setPeriod(view->period);
    reload();
}

void NamespaceUsagePage::onLoaded() {
    const ChartData &d = m_model->data();
    QStringList parts;
    for (const Decision &b : d.budgets)
        parts << RankingModel::budgetText(b);
    bool over = false;
    for (const Decision &b : d.budgets)
        over = over || b.overLimit();
    m_budget->setStyleSheet(over ? QStringLiteral("color: #c62828;") : QString());
    m_budget->setText(parts.isEmpty()
                          ? tr("%1 has no GPU-hour budget.").arg(d.query.subject)
                          : tr("Budget of %1: %2").arg(d.query.subject, parts.join(QStringLiteral("; "))));
}

void NamespaceUsagePage::setPreferences(const PagePreferences &preferences) {
    m_range->applyZone(preferences.zone());
}

} // namespace gq
