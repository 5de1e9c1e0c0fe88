#include "widgets/livegpus/livegpupage.h"

#include "core/domain/clock.h"
#include "services/livegpus/gpumonitor.h"
#include "widgets/livegpus/livegpudelegates.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/charts/usagechart.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace gq {

using namespace gq::metrics;

namespace {
constexpr int kSparklineSeconds = 15 * 60;
constexpr int kChartSeconds = 60 * 60;
constexpr int kHistoryStepSeconds = 30;
constexpr int kChartBuckets = 12; // five minutes each

QTableView *makeTable(QWidget *parent, const QString &name) {
    auto *t = new QTableView(parent);
    t->setObjectName(name);
    t->setSortingEnabled(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->horizontalHeader()->setHighlightSections(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return t;
}
} // namespace

LiveGpuPage::LiveGpuPage(GpuMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_model(new LiveGpuModel(this))
    , m_tableProxy(new LiveGpuFilterModel(this))
    , m_tileProxy(new LiveGpuFilterModel(this))
    , m_idleModel(new IdleGpuModel(this))
    , m_summary(new QLabel(this))
    , m_status(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_tableButton(new QToolButton(this))
    , m_tilesButton(new QToolButton(this))
    , m_tabs(new QTabWidget(this))
    , m_views(new QStackedWidget(this))
    , m_table(makeTable(m_views, QStringLiteral("liveGpuTable")))
    , m_tiles(new QListView(m_views))
    , m_chart(new UsageChart(this))
    , m_idleHeader(new QLabel(this))
    , m_idleTable(makeTable(this, QStringLiteral("idleGpuTable")))
    , m_historyTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("liveGpuPage"));
    m_summary->setObjectName(QStringLiteral("liveGpuSummary"));
    m_status->setObjectName(QStringLiteral("liveGpuStatus"));
    m_filter->setObjectName(QStringLiteral("liveGpuFilter"));
    m_tableButton->setObjectName(QStringLiteral("liveGpuTableButton"));
    m_tilesButton->setObjectName(QStringLiteral("liveGpuTilesButton"));
    m_tabs->setObjectName(QStringLiteral("liveGpuTabs"));
    m_tiles->setObjectName(QStringLiteral("liveGpuTiles"));
    m_chart->setObjectName(QStringLiteral("namespaceUtilizationChart"));
    m_idleHeader->setObjectName(QStringLiteral("idleGpuHeader"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_status->setWordWrap(true);
    m_idleHeader->setWordWrap(true);
    m_filter->setClearButtonEnabled(true);
    buildGpuTable();
    buildTileView();
    buildChartSplitter();
    QWidget *idle = buildIdleTab();
    layOutPage(idle);
    connectMonitor();
    retranslate();
    updateSummary();
}

// The table of GPUs, its columns as wide as their widest likely text.
void LiveGpuPage::buildGpuTable() {
    m_tableProxy->setSourceModel(m_model);
    m_tileProxy->setSourceModel(m_model);
    m_tileProxy->setHideMigParents(true);
    m_table->setModel(m_tableProxy);
    m_table->setItemDelegateForColumn(LiveGpuModel::HistoryColumn, new SparklineDelegate(m_table));
    m_table->sortByColumn(LiveGpuModel::NodeColumn, Qt::AscendingOrder);
    QHeaderView *h = m_table->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    const QFontMetrics fm = m_table->fontMetrics();
    auto width = [&](int column, const QString &sample) {
        m_table->setColumnWidth(
            column,
            std::max(fm.horizontalAdvance(sample) + 24,
                     fm.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + 28));
    };
    width(LiveGpuModel::NodeColumn, QStringLiteral("gpu-node-000"));
    width(LiveGpuModel::IndexColumn, QStringLiteral("00"));
    width(LiveGpuModel::ModelColumn, QStringLiteral("NVIDIA A100-SXM4-80GB"));
    width(LiveGpuModel::MigColumn, QStringLiteral("3g.40gb #0"));
    width(LiveGpuModel::UtilColumn, QStringLiteral("100 %"));
    width(LiveGpuModel::MemoryColumn, QStringLiteral("00.0 / 80.0 GiB"));
    width(LiveGpuModel::PowerColumn, QStringLiteral("000 W"));
    width(LiveGpuModel::TempColumn, QStringLiteral("00 °C"));
    width(LiveGpuModel::HolderColumn, QStringLiteral("team-vision/train-resnet-7"));
    width(LiveGpuModel::UserColumn, QStringLiteral("alice.example"));
    width(LiveGpuModel::SharedColumn, QStringLiteral("shared ×4"));
}

// The tiles, and the table/tiles buttons and the filter that serve both views.
void LiveGpuPage::buildTileView() {
    m_tiles->setModel(m_tileProxy);
    m_tiles->setItemDelegate(new GpuTileDelegate(m_tiles));
    m_tiles->setViewMode(QListView::IconMode);
    m_tiles->setResizeMode(QListView::Adjust);
    m_tiles->setMovement(QListView::Static);
    m_tiles->setUniformItemSizes(true);
    m_tiles->setSpacing(2);
    m_tiles->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tiles->setGridSize(GpuTileDelegate::tileSize(m_tiles->font()) + QSize(4, 4));
    m_views->addWidget(m_table);
    m_views->addWidget(m_tiles);

    for (QToolButton *b : {m_tableButton, m_tilesButton}) {
        b->setCheckable(true);
        b->setAutoExclusive(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    }
    m_tableButton->setChecked(true);
    // clicked, not toggled: a restored view (setTileView) is no change to save.
    connect(m_tableButton, &QToolButton::clicked, this, [this] {
        setTileView(false);
        emit layoutChanged();
    });
    connect(m_tilesButton, &QToolButton::clicked, this, [this] {
        setTileView(true);
        emit layoutChanged();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_tableProxy->setText(text.trimmed());
        m_tileProxy->setText(text.trimmed());
    });
}

// The table or tiles above the namespaces' utilization chart.
void LiveGpuPage::buildChartSplitter() {
    m_splitter = new QSplitter(Qt::Vertical, m_tabs);
    m_splitter->setObjectName(QStringLiteral("liveGpuSplitter"));
    m_splitter->addWidget(m_views);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);
    m_chart->setMinimumHeight(180);
    connect(m_splitter, &QSplitter::splitterMoved, this, &LiveGpuPage::layoutChanged);
}

// The idle GPUs tab: a header and the table of idle holders, most waste first.
QWidget *LiveGpuPage::buildIdleTab() {
    auto *idle = new QWidget(m_tabs);
    auto *il = new QVBoxLayout(idle);
    il->addWidget(m_idleHeader);
    il->addWidget(m_idleTable, 1);
    m_idleTable->setModel(m_idleModel);
    auto *idleSort = new QSortFilterProxyModel(this);
    idleSort->setSourceModel(m_idleModel);
    idleSort->setSortRole(IdleGpuModel::SortRole);
    m_idleTable->setModel(idleSort);
    m_idleTable->sortByColumn(IdleGpuModel::WasteColumn, Qt::DescendingOrder);
    m_idleTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_idleTable->horizontalHeader()->setSectionResizeMode(IdleGpuModel::PodColumn, QHeaderView::Stretch);
    // One click on the namespace (drawn as a link), or a double click anywhere in the row.
    connect(m_idleTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const QString ns = index.data(IdleGpuModel::NamespaceRole).toString();
        if (index.column() == IdleGpuModel::NamespaceColumn && !ns.isEmpty())
            emit namespaceActivated(ns);
    });
    connect(m_idleTable, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const QString ns = index.data(IdleGpuModel::NamespaceRole).toString();
        if (index.column() != IdleGpuModel::NamespaceColumn && !ns.isEmpty())
            emit namespaceActivated(ns);
    });
    m_idleTable->setMouseTracking(true);
    return idle;
}

void LiveGpuPage::layOutPage(QWidget *idle) {
    auto *top = new QHBoxLayout;
    // Both give way in a narrow window (the summary wraps, the filter shrinks), so this
    // page never makes the main window wider than the screen beside the namespace list.
    top->addWidget(m_summary, 2);
    top->addWidget(m_filter, 1);
    top->addWidget(m_tableButton);
    top->addWidget(m_tilesButton);

    m_tabs->addTab(m_splitter, QString());
    m_tabs->addTab(idle, QString());
    m_tabs->setDocumentMode(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);
    m_status->hide();
}

void LiveGpuPage::connectMonitor() {
    connect(m_monitor, &GpuMonitor::snapshotAvailable, this, &LiveGpuPage::onSnapshot);
    connect(m_monitor, &GpuMonitor::historyAvailable, this, &LiveGpuPage::onHistory);
    connect(m_monitor, &GpuMonitor::idleAvailable, this, &LiveGpuPage::onIdle);
    connect(m_monitor, &GpuMonitor::failed, this, &LiveGpuPage::onFailed);
    connect(m_monitor, &GpuMonitor::recordedIdleFailed, this, [this](const Error &e) {
        m_recordedError = e.message;
        updateIdleHeader();
    });
    connect(m_monitor, &GpuMonitor::rangeNotes, this, [this](const QStringList &notes) {
        m_rangeNotes = notes;
        updateStatus();
    });
    connect(m_monitor, &GpuMonitor::usersAvailable, m_model, &LiveGpuModel::setUsers);
    m_historyTimer->setInterval(60000);
    connect(m_historyTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refreshHistory();
    });
    m_historyTimer->start();
}

LiveGpuPage::~LiveGpuPage() = default;

void LiveGpuPage::setConnection(ClusterConnection *) {}

// The page is about the whole cluster; the namespace list's selection does not filter it.
void LiveGpuPage::setNamespace(const QString &) {}

void LiveGpuPage::setIdleOptions(const IdleOptions &options) {
    m_idleOptions = options;
    m_model->setIdleThreshold(options.thresholdPct);
    updateSummary();
    updateIdleHeader();
}

void LiveGpuPage::setHistoryInterval(int seconds) {
    m_historyTimer->setInterval(std::max(5, seconds) * 1000);
}

void LiveGpuPage::setTileView(bool tiles) {
    m_views->setCurrentWidget(tiles ? static_cast<QWidget *>(m_tiles) : m_table);
    (tiles ? m_tilesButton : m_tableButton)->setChecked(true);
}

bool LiveGpuPage::tileView() const {
    return m_views->currentWidget() == m_tiles;
}

QByteArray LiveGpuPage::splitterState() const {
    return m_splitter->saveState();
}

void LiveGpuPage::restoreSplitterState(const QByteArray &state) {
    if (!state.isEmpty())
        m_splitter->restoreState(state);
}

bool LiveGpuPage::keepsHistory() const {
    return m_monitor->keepsHistory();
}

void LiveGpuPage::setDatabaseUrl(const QString &url, const QString &password) {
    if (url == m_dbUrl && password == m_dbPassword)
        return;
    m_dbUrl = url;
    m_dbPassword = password;
    m_recordedError.clear();
    if (!keepsHistory()) { // the list came from the previous database (Prometheus' stays)
        m_idleKnown = false;
        m_idleModel->setIdle({});
    }
    if (m_monitor->isConfigured() && isVisible())
        refreshHistory();
    else
        updateIdleHeader();
}

void LiveGpuPage::refreshHistory() {
    if (!keepsHistory()) {
        if (m_monitor->isConfigured() && !m_dbUrl.isEmpty())
            m_monitor->findRecordedIdle(m_idleOptions, m_dbUrl, m_dbPassword);
        updateIdleHeader();
        m_chart->setPlaceholder(
            tr("The utilization history needs Prometheus: exporters scraped directly keep no history."));
        return;
    }
    m_monitor->fetchHistory(kChartSeconds, kHistoryStepSeconds);
    m_monitor->findIdle(m_idleOptions);
}

void LiveGpuPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_monitor->isConfigured())
        refreshHistory();
}

void LiveGpuPage::changeEvent(QEvent *event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void LiveGpuPage::retranslate() {
    m_filter->setPlaceholderText(tr("Filter by node, model, namespace or pod"));
    // As wide as its placeholder when there is room, never a reason for a wider window.
    m_filter->setMaximumWidth(m_filter->fontMetrics().horizontalAdvance(m_filter->placeholderText()) + 48);
    m_filter->setMinimumWidth(m_filter->fontMetrics().averageCharWidth() * 14);
    m_tableButton->setText(tr("Table"));
    m_tilesButton->setText(tr("Tiles"));
    m_tableButton->setToolTip(tr("One row per GPU and MIG instance"));
    m_tilesButton->setToolTip(tr("One tile per GPU, coloured by utilization; an orange frame marks an "
                                 "allocated GPU under the idle threshold"));
    m_tabs->setTabText(0, tr("GPUs"));
    m_chart->setTitle(tr("Mean GPU utilization by namespace, last hour"));
    updateIdleHeader();
}

void LiveGpuPage::onSnapshot(const GpuSnapshot &snap) {
    m_model->setSnapshot(snap);
    m_lastOkMs = snap.takenAtMs;
    m_error.clear();
    m_sourceWarnings = snap.warnings;
    updateStatus();
    if (!keepsHistory()) {
        m_rangeNotes.clear();
        m_chart->setPlaceholder(
            tr("The utilization history needs Prometheus: exporters scraped directly keep no history."));
    }
    updateSummary();
    updateIdleHeader();
}

// One line under the summary: a failure (red) wins; else what the source said beside
// its answers (amber): the snapshot's warnings (malformed lines, exporters that did not
// answer, Prometheus' warnings) and Prometheus' warnings and infos on the history and
// idle queries.
void LiveGpuPage::updateStatus() {
    if (!m_error.isEmpty()) {
        const QString when =
            m_lastOkMs ? tr(" Showing the readings of %1.")
                             .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_lastOkMs).time(),
                                                     QLocale::ShortFormat))
                       : QString();
        m_status->setText(tr("Could not read the GPU metrics: %1. Retrying automatically.").arg(m_error) +
                          when);
        m_status->setToolTip(m_errorDetail);
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_status->show();
        return;
    }
    QStringList parts;
    if (!m_sourceWarnings.isEmpty())
        parts << tr("The source reported: %1").arg(m_sourceWarnings.join(QStringLiteral("; ")));
    if (!m_rangeNotes.isEmpty())
        parts << tr("Prometheus said about the history: %1").arg(m_rangeNotes.join(QStringLiteral("; ")));
    if (parts.isEmpty()) {
        m_status->hide();
        return;
    }
    m_status->setText(parts.join(QStringLiteral(" ")));
    m_status->setStyleSheet(QStringLiteral("color: #8d6e00;"));
    m_status->setToolTip((m_sourceWarnings + m_rangeNotes).join(QLatin1Char('\n')));
    m_status->show();
}

void LiveGpuPage::onHistory(const QList<GpuTimeline> &history) {
    const qint64 now = Clock::system().nowMSecs();
    m_model->setHistory(history, now - kSparklineSeconds * 1000);
    const StackedChart chart =
        namespaceUtilizationChart(history, now - kChartSeconds * 1000, now, kChartBuckets, 8);
    m_chart->setChart(chart);
    m_chart->setPlaceholder(
        chart.lines.isEmpty() ? tr("No GPU was allocated to a namespace in the last hour.") : QString());
}

void LiveGpuPage::onIdle(const QList<IdleGpu> &idle) {
    m_idleModel->setIdle(idle);
    m_idleKnown = true;
    m_recordedError.clear();
    updateIdleHeader();
}

void LiveGpuPage::onFailed(const Error &error) {
    if (error.kind == Error::Kind::Config && !m_monitor->isConfigured())
        return; // the window shows how to configure a source instead of this page
    m_error = error.message;
    m_errorDetail = error.toString();
    updateStatus();
}

QString LiveGpuPage::summaryText() const {
    return m_summary->text();
}

QString LiveGpuPage::statusText() const {
    return m_status->isVisibleTo(this) ? m_status->text() : QString();
}

void LiveGpuPage::updateSummary() {
    const LiveGpuSummary s = m_model->summary();
    if (s.total() == 0) {
        m_summary->setText(m_monitor->isConfigured() ? tr("Waiting for the first GPU readings…")
                                                     : tr("No metrics source."));
        return;
    }
    auto chip = [](const QString &color, const QString &text) {
        return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
            .arg(color, text.toHtmlEscaped());
    };
    QStringList parts{chip(GpuTileDelegate::utilColor(70).name(), tr("%n busy", nullptr, s.busy)),
                      chip(QStringLiteral("#e65100"), tr("%n allocated but idle", nullptr, s.allocatedIdle)),
                      chip(QStringLiteral("#bdbdbd"), tr("%n free", nullptr, s.free)),
                      tr("%n shared", nullptr, s.shared).toHtmlEscaped()};
    if (s.noReading)
        parts << tr("%n without a reading", nullptr, s.noReading).toHtmlEscaped();
    m_summary->setText(
        QStringLiteral("<b>%1</b> &nbsp; ").arg(tr("GPUs: %1").arg(s.total()).toHtmlEscaped()) +
        parts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    m_summary->setToolTip(
        tr("Idle: allocated and under %1 % utilization now. A MIG instance counts as one GPU.")
            .arg(QLocale().toString(m_idleOptions.thresholdPct)));
}

void LiveGpuPage::updateIdleHeader() {
    const int n = m_idleModel->rowCount();
    m_tabs->setTabText(1, m_idleKnown && n > 0 ? tr("Idle GPUs (%1)").arg(n) : tr("Idle GPUs"));
    const QString idleNow =
        n == 0 ? tr("None right now.")
               : tr("Idle now: %1, with %2 GPU-hours wasted so far. Click a namespace to open its quota.")
                     .arg(n)
                     .arg(QLocale().toString(m_idleModel->totalWaste(), 'f', 2));
    QString rule = tr("Allocated GPUs under %1 % utilization for at least %2 (set in Preferences).")
                       .arg(QLocale().toString(m_idleOptions.thresholdPct),
                            IdleGpuModel::durationText(m_idleOptions.minIdleMs));
    if (m_monitor->isConfigured() && !keepsHistory()) {
        if (m_dbUrl.isEmpty()) {
            m_idleHeader->setText(
                rule + QLatin1Char(' ') +
                tr("Idle detection needs Prometheus: exporters scraped directly keep no history."));
            return;
        }
        // What the controller's idle recorder wrote: its own threshold applies.
        rule = tr("Spans the controller recorded in the usage database, lasting at least %1 (the "
                  "controller's threshold applies; utilization is not recorded).")
                   .arg(IdleGpuModel::durationText(m_idleOptions.minIdleMs));
        if (!m_recordedError.isEmpty()) {
            m_idleHeader->setText(rule + QLatin1Char(' ') +
                                  tr("Could not read them: %1").arg(m_recordedError));
            return;
        }
    }
    m_idleHeader->setText(m_idleKnown ? rule + QLatin1Char(' ') + idleNow : rule);
}

} // namespace gq
