#include "widgets/auditpage.h"

#include "models/auditmodel.h"

#include <QCheckBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

AuditPage::AuditPage(AuditModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_details(new QPlainTextEdit(this))
    , m_onlyThis(new QCheckBox(tr("Only the selected namespace"), this))
    , m_empty(new QLabel(m_view->viewport())) {
    m_proxy->setSourceModel(model);
    m_proxy->setFilterKeyColumn(AuditModel::NamespaceColumn);
    m_view->setObjectName(QStringLiteral("auditView"));
    m_view->setModel(m_proxy);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->resizeSection(AuditModel::WhenColumn, 170);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_details->setObjectName(QStringLiteral("auditDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select an entry to see what changed."));
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_onlyThis->setObjectName(QStringLiteral("auditOnlyNamespace"));
    m_onlyThis->setChecked(true);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_onlyThis);
    layout->addWidget(split, 1);

    connect(m_onlyThis, &QCheckBox::toggled, this, &AuditPage::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditPage::showSelected);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &AuditPage::showSelected);

    // An empty table says why, over its viewport so the headers stay.
    m_empty->setObjectName(QStringLiteral("auditEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_view->viewport()->installEventFilter(this);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &AuditPage::updateEmpty);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &AuditPage::updateEmpty);
    updateEmpty();
}

void AuditPage::updateEmpty() {
    const bool empty = m_proxy->rowCount() == 0;
    if (empty) {
        const bool narrowed = m_onlyThis->isChecked() && !m_ns.isEmpty();
        m_empty->setText(narrowed
                             ? tr("No changes to %1 recorded yet.\nEvery change applied from this console "
                                  "is listed here with who made it and why.")
                                   .arg(m_ns)
                             : tr("No changes recorded yet.\nEvery change applied from this console is "
                                  "listed here with who made it and why."));
        m_empty->setGeometry(m_view->viewport()->rect().adjusted(12, 12, -12, -12));
    }
    m_empty->setVisible(empty);
}

bool AuditPage::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        m_empty->setGeometry(m_view->viewport()->rect().adjusted(12, 12, -12, -12));
    return QWidget::eventFilter(watched, event);
}

void AuditPage::setNamespace(const QString &ns) {
    m_ns = ns;
    applyFilter();
}

void AuditPage::applyFilter() {
    if (m_onlyThis->isChecked() && !m_ns.isEmpty())
        m_proxy->setFilterRegularExpression(
            QRegularExpression(QLatin1Char('^') + QRegularExpression::escape(m_ns) + QLatin1Char('$')));
    else
        m_proxy->setFilterRegularExpression(QRegularExpression());
    showSelected();
    updateEmpty();
}

void AuditPage::showSelected() {
    const QModelIndex idx = m_view->selectionModel()->currentIndex();
    if (!idx.isValid()) {
        m_details->clear();
        return;
    }
    const AuditRow &row = m_model->at(m_proxy->mapToSource(idx).row());
    QString text = row.diff;
    if (!row.note.isEmpty())
        text = tr("Note: %1").arg(row.note) + QLatin1String("\n\n") + text;
    m_details->setPlainText(text);
}

} // namespace gq
