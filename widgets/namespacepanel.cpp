#include "widgets/namespacepanel.h"

#include "models/namespacelistmodel.h"
#include "widgets/usagebardelegate.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

namespace gq {

NamespacePanel::NamespacePanel(NamespaceListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new NamespaceFilterModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_count(new QLabel(this)) {
    m_proxy->setSourceModel(model);

    m_filter->setObjectName(QStringLiteral("namespaceFilter"));
    m_filter->setPlaceholderText(tr("Filter namespaces (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &NamespaceFilterModel::setNameFilter);
    connect(m_filter, &QLineEdit::textChanged, this, &NamespacePanel::updateCount);

    m_view->setObjectName(QStringLiteral("namespaceView"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true); // 20,000 rows: no per-row size queries
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NamespaceListModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAllColumnsShowFocus(true);
    auto *delegate = new UsageBarDelegate(NamespaceListModel::RatioRole, m_view);
    delegate->setBadgeColumn(NamespaceListModel::StatusColumn, NamespaceListModel::BadgesRole);
    m_view->setItemDelegate(delegate);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(true);
    header->resizeSection(NamespaceListModel::NameColumn, 170);
    for (int c :
         {NamespaceListModel::GpuColumn, NamespaceListModel::CpuColumn, NamespaceListModel::MemoryColumn})
        header->resizeSection(c, 115);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const QString ns = current.data(NamespaceListModel::NameRole).toString();
                if (ns == m_current)
                    return;
                m_current = ns;
                emit currentNamespaceChanged(ns);
            });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &NamespacePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &NamespacePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &NamespacePanel::updateCount);

    m_count->setObjectName(QStringLiteral("namespaceCount"));
    m_count->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_count);
    updateCount();
}

void NamespacePanel::updateCount() {
    const int shown = m_proxy->rowCount();
    const int total = m_model->rowCount();
    m_count->setText(shown == total ? tr("%n namespace(s)", nullptr, total)
                                    : tr("%1 of %n namespace(s)", nullptr, total).arg(shown));
}

QString NamespacePanel::currentNamespace() const {
    return m_current;
}

QStringList NamespacePanel::selectedNamespaces() const {
    QStringList out;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        out << i.data(NamespaceListModel::NameRole).toString();
    out.sort();
    return out;
}

bool NamespacePanel::selectNamespace(const QString &ns) {
    const int row = m_model->rowOf(ns);
    if (row < 0)
        return false;
    const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!idx.isValid())
        return false;
    m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
    m_view->scrollTo(idx);
    return true;
}

void NamespacePanel::focusFilter() {
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

QByteArray NamespacePanel::headerState() const {
    return m_view->header()->saveState();
}

void NamespacePanel::restoreHeaderState(const QByteArray &state) {
    if (!state.isEmpty())
        m_view->header()->restoreState(state);
}

} // namespace gq
