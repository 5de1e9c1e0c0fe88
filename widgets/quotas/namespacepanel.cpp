#include "widgets/quotas/namespacepanel.h"

#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/usagebardelegate.h"

#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

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
    m_view->setTextElideMode(Qt::ElideMiddle); // team-...-2026: both ends tell teams apart
    // Rows come and go and change in bursts (watch events): one measurement per burst,
    // not one scan of every row per event.
    m_measureTimer = new QTimer(this);
    m_measureTimer->setSingleShot(true);
    m_measureTimer->setInterval(150);
    connect(m_measureTimer, &QTimer::timeout, this, &NamespacePanel::measureTexts);
    const auto measureSoon = [this] {
        if (!m_measureTimer->isActive())
            m_measureTimer->start();
    };
    connect(m_model, &NamespaceListModel::queuesShownChanged, this, &NamespacePanel::measureTexts);
    connect(m_model, &QAbstractItemModel::modelReset, this, measureSoon);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, measureSoon);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, measureSoon);
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [measureSoon](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                if (roles.isEmpty() || roles.contains(Qt::DisplayRole))
                    measureSoon();
            });
    applyColumnLayout();

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

    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &NamespacePanel::updateCount);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &NamespacePanel::showContextMenu);

    // Over the viewport, below the header, so the columns stay visible.
    m_empty = new QLabel(m_view->viewport());
    m_empty->setObjectName(QStringLiteral("namespaceEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setTextFormat(Qt::RichText);
    m_empty->hide();
    connect(m_empty, &QLabel::linkActivated, m_filter, [this] {
        m_filter->clear();
        m_filter->setFocus(Qt::OtherFocusReason);
    });
    m_view->viewport()->installEventFilter(this);

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
    QString empty;
    if (shown == 0 && total > 0)
        empty = tr("No namespace matches \u201c%1\u201d.").arg(m_proxy->nameFilter().toHtmlEscaped()) +
                QLatin1String("<br><a href=\"clear\">") + tr("Clear the filter") + QLatin1String("</a>");
    else if (total == 0)
        empty = m_emptyMessage.toHtmlEscaped();
    m_empty->setText(empty);
    m_empty->setVisible(!empty.isEmpty());
    if (!empty.isEmpty())
        placeEmptyLabel();
}

void NamespacePanel::setEmptyMessage(const QString &text) {
    if (text == m_emptyMessage)
        return;
    m_emptyMessage = text;
    updateCount();
}

void NamespacePanel::showContextMenu(const QPoint &pos) {
    const QModelIndex at = m_view->indexAt(pos);
    if (!at.isValid())
        return;
    // Right-clicking outside the selection acts on the clicked row, as file managers do.
    if (!m_view->selectionModel()->isRowSelected(at.row(), at.parent()))
        m_view->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    const QStringList names = selectedNamespaces();
    bool anyWithoutQuota = false;
    bool anyTerminating = false;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows(NamespaceListModel::StatusColumn)) {
        const int badges = i.data(NamespaceListModel::BadgesRole).toInt();
        anyWithoutQuota |= bool(badges & NamespaceListModel::NoQuotaBadge);
        anyTerminating |= bool(badges & NamespaceListModel::TerminatingBadge);
    }
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    QAction *create =
        menu.addAction(anyWithoutQuota ? tr("Create quota from template...") : tr("Apply a template..."));
    create->setObjectName(QStringLiteral("namespaceTemplateAction"));
    connect(create, &QAction::triggered, this, &NamespacePanel::templateRequested);
    // The API server refuses new objects in a namespace being deleted.
    create->setEnabled(!anyTerminating);
    if (anyTerminating)
        create->setToolTip(NamespaceListModel::terminatingReason());
    if (names.size() == 1) {
        QAction *boost = menu.addAction(tr("Boost…"));
        boost->setObjectName(QStringLiteral("namespaceBoostAction"));
        boost->setEnabled(!anyTerminating);
        if (anyTerminating)
            boost->setToolTip(NamespaceListModel::terminatingReason());
        connect(boost, &QAction::triggered, this, [this, ns = names.first()] { emit boostRequested(ns); });
        QAction *plan = menu.addAction(tr("Plan a fine-tune…"));
        plan->setObjectName(QStringLiteral("namespacePlanAction"));
        connect(plan, &QAction::triggered, this, [this, ns = names.first()] { emit planRequested(ns); });
    }
    QAction *copy = menu.addAction(names.size() > 1 ? tr("Copy names") : tr("Copy name"));
    connect(copy, &QAction::triggered, this,
            [names] { QGuiApplication::clipboard()->setText(names.join(QLatin1Char('\n'))); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void NamespacePanel::placeEmptyLabel() {
    const QRect r = m_view->viewport()->rect();
    m_empty->setGeometry(r.adjusted(12, 12, -12, -12).intersected(QRect(r.x(), r.y() + 12, r.width(), 96)));
}

bool NamespacePanel::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        placeEmptyLabel();
        updateQueueColumn();
    }
    return QWidget::eventFilter(watched, event);
}

// The name takes whatever the bars and badges leave, so the list never needs a
// horizontal scroll bar; the fixed columns are sized from the font, not pixels, so
// they fit in any language and DPI. The view's minimum width keeps the splitter
// from squeezing it below that.
void NamespacePanel::applyColumnLayout() {
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NamespaceListModel::NameColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(48);

    const QFontMetrics fm(m_view->font());
    const QFontMetrics hfm(header->font());
    QStyle *style = header->style();
    // The title needs room for the sort arrow next to it.
    const int arrow = style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header) +
                      2 * style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    auto fit = [&](int column, int content) {
        const int title =
            hfm.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + arrow;
        const int w = std::max(content, title);
        header->resizeSection(column, w);
        return w;
    };
    // Bars: 4 px inset and 4 px text margin on each side (see UsageBarDelegate).
    const int barPad = 16;
    int fixed = 0;
    fixed +=
        fit(NamespaceListModel::GpuColumn, fm.horizontalAdvance(m_liveGpus ? QStringLiteral("888 / 888 · 88%")
                                                                           : QStringLiteral("888 / 888")) +
                                               barPad);
    fixed += fit(NamespaceListModel::CpuColumn, fm.horizontalAdvance(QStringLiteral("888.8 / 888")) + barPad);
    fixed += fit(NamespaceListModel::MemoryColumn,
                 fm.horizontalAdvance(QStringLiteral("88.8 / 88.8 Ti")) + barPad);
    fixed += fit(NamespaceListModel::StatusColumn, UsageBarDelegate::statusWidth(m_view->font()) + 8);

    // The stretching name column only gives way down to the header's minimum section
    // size before a scroll bar would appear; nameMin is that plus room for the
    // vertical scroll bar, so the panel never needs a horizontal one.
    const int scroll = style->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_view);
    const int nameMin = std::max(fm.averageCharWidth() * 10, header->minimumSectionSize() + scroll);
    m_view->setMinimumWidth(fixed + nameMin + 2 * m_view->frameWidth());
    m_fixedWidth = fixed;
    m_nameMinWidth = nameMin;
    measureTexts();
}

void NamespacePanel::measureTexts() {
    // The longest by characters stands for the widest: one measurement, not one a row.
    QString name, queue;
    const bool queues = m_model->hasQueues();
    for (int r = 0, n = m_model->rowCount(); r < n; ++r) {
        const QModelIndex i = m_model->index(r, NamespaceListModel::NameColumn);
        if (const QString s = i.data(NamespaceListModel::NameRole).toString(); s.size() > name.size())
            name = s;
        if (queues)
            if (const QString q = i.siblingAtColumn(NamespaceListModel::QueueColumn).data().toString();
                q.size() > queue.size())
                queue = q;
    }
    const QFontMetrics fm(m_view->font());
    const int cap = fm.averageCharWidth() * 28;
    const int pad = fm.averageCharWidth() * 2;
    m_nameWidth = std::min(fm.horizontalAdvance(name) + pad, cap);
    const QString title = m_model->headerData(NamespaceListModel::QueueColumn, Qt::Horizontal).toString();
    m_queueWidth =
        std::max(std::min(fm.horizontalAdvance(queue) + pad, cap), fm.horizontalAdvance(title) + pad);
    m_view->header()->resizeSection(NamespaceListModel::QueueColumn, m_queueWidth);
    updateQueueColumn();
}

// The queue column shows only where it fits beside the other columns with the names at
// full length: a list of clipped names with queues beside them tells less than the
// names alone.
void NamespacePanel::updateQueueColumn() {
    const int need = m_fixedWidth + std::max(m_nameMinWidth, m_nameWidth) + m_queueWidth;
    const bool fits = m_view->viewport()->width() >= need;
    m_view->setColumnHidden(NamespaceListModel::QueueColumn, !m_model->hasQueues() || !fits);
}

void NamespacePanel::setLiveGpusShown(bool shown) {
    if (shown == m_liveGpus)
        return;
    m_liveGpus = shown;
    applyColumnLayout();
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

void NamespacePanel::selectFirstNamespace() {
    const int rows = m_proxy->rowCount();
    if (rows == 0)
        return;
    QModelIndex pick = m_proxy->index(0, 0);
    for (int r = 0; r < rows; ++r) {
        const QModelIndex idx = m_proxy->index(r, NamespaceListModel::StatusColumn);
        if (!(idx.data(NamespaceListModel::BadgesRole).toInt() & NamespaceListModel::NoQuotaBadge)) {
            pick = idx.siblingAtColumn(0);
            break;
        }
    }
    m_view->selectionModel()->setCurrentIndex(pick, QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
    m_view->scrollTo(pick);
}

void NamespacePanel::focusFilter() {
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

QByteArray NamespacePanel::headerState() const {
    return m_view->header()->saveState();
}

void NamespacePanel::restoreHeaderState(const QByteArray &state) {
    if (state.isEmpty())
        return;
    QHeaderView *header = m_view->header();
    // Keep what the user chose (sort column and order, widths of the fixed columns)
    // but not resize modes from an older layout: the name column always stretches.
    header->restoreState(state);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NamespaceListModel::NameColumn, QHeaderView::Stretch);
}

} // namespace gq
