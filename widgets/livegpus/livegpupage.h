#pragma once

#include "core/metrics/idle.h"
#include "widgets/common/page.h"
#include "core/domain/result.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QListView;
class QSplitter;
class QTimer;
class QToolButton;

namespace gq {

class GpuMonitor;
class IdleGpuModel;
class LiveGpuFilterModel;
class LiveGpuModel;
class UsageChart;

// The Live GPU page: what every GPU is doing now, from the context's metrics source
// (Prometheus, dcgm-exporter endpoints or the exporter pods found through the cluster,
// through GpuMonitor). A sortable, filterable table with a 15-minute sparkline per GPU,
// or a tile per GPU coloured by utilization (node, index, model, utilization, memory,
// power, temperature, holder and user); a summary line (busy / allocated but idle / free
// / shared); the mean utilization per namespace over the last hour; and, on its own tab,
// the idle GPUs with the GPU-hours they wasted, where one click on a namespace opens it.
// The monitor refreshes on its own timer; history and idle detection are asked for
// while the page is visible. Nothing here waits: failures, and what Prometheus adds to
// its answers (warnings, infos), show in words in the status line; the next tick retries.
class LiveGpuPage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit LiveGpuPage(GpuMonitor *monitor, QWidget *parent = nullptr);
    ~LiveGpuPage() override;

    void setConnection(ClusterConnection *connection) override;
    void setNamespace(const QString &ns) override;

    // Idle: utilization under thresholdPct for at least minIdleMs (the Preferences'
    // values; the rest of the options is filled in by the monitor).
    void setIdleOptions(const metrics::IdleOptions &options);
    // How often history and the idle list are asked for (the snapshot follows the monitor).
    void setHistoryInterval(int seconds);
    void setTileView(bool tiles);
    [[nodiscard]] bool tileView() const;
    // The table/tiles splitter with the namespace chart, for the settings.
    [[nodiscard]] QByteArray splitterState() const;
    void restoreSplitterState(const QByteArray &state);
    // The usage database of the current context: without Prometheus, the idle list
    // shows the spans the controller recorded there (empty url: none).
    void setDatabaseUrl(const QString &url, const QString &password = {});
    // Asks for history and idle GPUs now (when the source keeps history, or the idle
    // spans recorded in the usage database when it does not).
    void refreshHistory();

    [[nodiscard]] LiveGpuModel *model() const { return m_model; }
    [[nodiscard]] IdleGpuModel *idleModel() const { return m_idleModel; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QString statusText() const;

signals:
    // A namespace of the idle list was clicked (or its row double-clicked): show that
    // namespace and its quota.
    void namespaceActivated(const QString &ns);
    // The user moved the splitter or switched between table and tiles (to be saved).
    void layoutChanged();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    // The constructor's parts, in the order it runs them.
    void buildGpuTable();
    void buildTileView();
    void buildChartSplitter();
    QWidget *buildIdleTab();
    void layOutPage(QWidget *idle);
    void connectMonitor();
    void retranslate();
    void onSnapshot(const metrics::GpuSnapshot &snapshot);
    void onHistory(const QList<metrics::GpuTimeline> &history);
    void onIdle(const QList<metrics::IdleGpu> &idle);
    void onFailed(const Error &error);
    void updateSummary();
    void updateIdleHeader();
    void updateStatus();
    [[nodiscard]] bool keepsHistory() const;

    GpuMonitor *m_monitor;
    LiveGpuModel *m_model;
    LiveGpuFilterModel *m_tableProxy;
    LiveGpuFilterModel *m_tileProxy;
    IdleGpuModel *m_idleModel;
    QLabel *m_summary;
    QLabel *m_status;
    QLineEdit *m_filter;
    QToolButton *m_tableButton;
    QToolButton *m_tilesButton;
    QTabWidget *m_tabs;
    QSplitter *m_splitter = nullptr;
    QStackedWidget *m_views;
    QTableView *m_table;
    QListView *m_tiles;
    UsageChart *m_chart;
    QLabel *m_idleHeader;
    QTableView *m_idleTable;
    QTimer *m_historyTimer;
    metrics::IdleOptions m_idleOptions;
    QString m_error;
    QString m_errorDetail;
    QStringList m_sourceWarnings; // the latest snapshot's
    QStringList m_rangeNotes;     // Prometheus' notes on history and idle detection
    qint64 m_lastOkMs = 0;
    bool m_idleKnown = false;
    QString m_dbUrl, m_dbPassword;
    QString m_recordedError; // reading the recorded idle spans failed
};

} // namespace gq
