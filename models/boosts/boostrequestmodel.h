#pragma once

#include "services/boosts/boostservice.h"

#include <QAbstractTableModel>
#include <QList>
#include <QTimeZone>

namespace gq {

// The boost requests as the Boosts page lists them, pending first (the service's
// order): who asked, for which budget, how much until when and why, the requester's
// budget now ("2.5 GPU-h left of 8 today", as the Budgets page says it) and, once
// decided, by whom and why. Times are shown in `zone` (the machine's by default).
class BoostRequestModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StateColumn,
        RequesterColumn,
        BudgetColumn,
        AskedColumn,
        UsageColumn,
        NoteColumn,
        DecisionColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1, // qint64
        StateRole,                 // int: BoostRequest::State
    };

    explicit BoostRequestModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRequests(const QList<BoostRequestRow> &rows);
    void setTimeZone(const QTimeZone &zone);
    [[nodiscard]] const BoostRequestRow &at(int row) const { return m_rows.at(row); }
    [[nodiscard]] int rowOf(qint64 id) const;
    [[nodiscard]] int pendingCount() const;

    [[nodiscard]] static QString stateText(BoostRequest::State state);
    // "user alice", "namespace team-nlp".
    [[nodiscard]] static QString budgetText(const BoostRequest &r);
    // "2.5 GPU-h left of 8 today; 5.5 used", or "no budget applies".
    [[nodiscard]] static QString usageText(const BoostRequestRow &row);

private:
    [[nodiscard]] QString timeText(qint64 t) const;
    [[nodiscard]] QVariant display(const BoostRequestRow &row, int column) const;
    QList<BoostRequestRow> m_rows;
    QTimeZone m_zone = QTimeZone::systemTimeZone();
};

} // namespace gq
