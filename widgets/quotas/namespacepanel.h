#pragma once

#include <QWidget>

class QLineEdit;
class QTreeView;
class QLabel;
class QTimer;
class QItemSelection;

namespace gq {

class NamespaceListModel;
class NamespaceFilterModel;

// The left side of the window: filter-as-you-type over the namespace list, sortable
// columns with usage bars and badges. Says which namespace is current and which
// are selected (several, for batch template application).
class NamespacePanel final : public QWidget {
    Q_OBJECT
public:
    explicit NamespacePanel(NamespaceListModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QString currentNamespace() const;
    [[nodiscard]] QStringList selectedNamespaces() const;
    // Selects and scrolls to ns if it is in the list; returns whether it was.
    bool selectNamespace(const QString &ns);
    // With nothing remembered: the first listed namespace that has a quota (a new
    // user lands on a table, not on kube-system's empty page), else the first one.
    void selectFirstNamespace();

    void focusFilter();
    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

    [[nodiscard]] QTreeView *view() const { return m_view; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filter; }
    [[nodiscard]] NamespaceFilterModel *proxy() const { return m_proxy; }
    // What the empty list says when there are no namespaces at all (e.g. while
    // connecting); an empty filter result says so on its own.
    void setEmptyMessage(const QString &text);

    // The GPU column makes room for the live utilization the cells then show.
    void setLiveGpusShown(bool shown);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void currentNamespaceChanged(const QString &ns);
    // The user asked (context menu) to create quotas from a template for the
    // selected namespaces.
    void templateRequested();
    // The user asked (context menu) to grant a boost in this namespace.
    void boostRequested(const QString &ns);
    // The user asked (context menu) to plan a fine-tune in this namespace.
    void planRequested(const QString &ns);

private:
    void updateCount();
    void applyColumnLayout();
    bool m_liveGpus = false; // the GPU cells add live utilization ("6 / 14 · 37%")
    void placeEmptyLabel();
    // The Kueue column shows where Kueue runs and the list has room for it beside the
    // columns the minimum width is made for (it never adds a horizontal scroll bar).
    void updateQueueColumn();
    // The widest name and queue text of the list now (the longest by characters,
    // capped), measured when rows come and go rather than on every resize.
    void measureTexts();
    int m_fixedWidth = 0;   // the bar and status columns
    int m_nameMinWidth = 0; // the name column's minimum (room for the vertical scroll bar)
    int m_queueWidth = 0;   // the queue column's width, from its longest text
    int m_nameWidth = 0;    // room the longest name needs
    QTimer *m_measureTimer = nullptr;
    void showContextMenu(const QPoint &pos);

    NamespaceListModel *m_model;
    NamespaceFilterModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_view;
    QLabel *m_count;
    QLabel *m_empty;
    QString m_current;
    QString m_emptyMessage;
};

} // namespace gq
