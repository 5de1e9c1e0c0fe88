#include "widgets/usage/userusagedialog.h"

#include "core/domain/clock.h"
#include "models/usage/rankingmodel.h"
#include "models/usage/usagechartmodel.h"
#include "widgets/usage/usagechartpanel.h"
#include "widgets/usage/usagerangebar.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

UserUsageDialog::UserUsageDialog(UsageChartService *service, const QString &user, QWidget *parent)
    : QDialog(parent)
    , m_model(new UsageChartModel(QStringLiteral("user"), this))
    , m_range(new UsageRangeBar(this))
    , m_panel(new UsageChartPanel(m_model, this))
    , m_budget(new QLabel(this))
    , m_table(new QTableView(this))
    , m_user(user) {
    setObjectName(QStringLiteral("userUsageDialog"));
    setWindowTitle(tr("Usage of %1").arg(user));
    resize(1100, 600);
    m_model->setService(service);
    m_range->setPreset(RangePreset::Today);
    m_panel->setTitle(tr("GPU-hours of %1 by namespace").arg(user));
    m_panel->setDecorate([this](StackedChart &c) { addBudgetLines(c, m_model->data()); });
    m_budget->setObjectName(QStringLiteral("userBudgetLabel"));
    m_table->setModel(m_model->subjects());
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_panel);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_range);
    layout->addWidget(m_budget);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    connect(m_range, &UsageRangeBar::changed, this, &UserUsageDialog::reload);
    connect(m_model, &UsageChartModel::loaded, this, [this] {
        QStringList parts;
        for (const Decision &b : m_model->data().budgets)
            parts << RankingModel::budgetText(b);
        m_budget->setText(parts.isEmpty()
                              ? tr("%1 has no GPU-hour budget.").arg(m_user)
                              : tr("Budget of %1: %2").arg(m_user, parts.join(QStringLiteral("; "))));
    });
    reload();
}

void UserUsageDialog::reload() {
    m_model->request(m_range->query(ChartQuery::Kind::User, m_user, Clock::system().nowSecs()));
}

} // namespace gq
