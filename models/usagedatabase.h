#pragma once

#include "core/error.h"
#include "models/auditmodel.h"

#include <QObject>
#include <QSet>
#include <QThread>

namespace gq {

// The usage database (SQLite or PostgreSQL) on a thread of its own, because Qt SQL
// connections belong to the thread that opened them and queries must never stall
// the window. Every call is asynchronous; answers come back as signals on the
// thread that owns this object.
class UsageDatabase final : public QObject {
    Q_OBJECT
public:
    explicit UsageDatabase(QObject *parent = nullptr);
    ~UsageDatabase() override;

    // "sqlite:///abs/path.db", "postgresql://..."; opened() or failed() follows.
    void open(const QString &url);
    [[nodiscard]] bool isOpen() const { return m_open; }
    [[nodiscard]] QString url() const { return m_url; }

    // target "ns/Kind/name"; action e.g. "quota.apply"; before/after as YAML.
    void appendAudit(const QString &actor, const QString &action, const QString &target,
                     const QString &before, const QString &after, const QString &note);
    void loadAudit(int limit = 1000);
    // Namespaces whose GPU-hour budget (namespace scope) is spent in the current period.
    void checkBudgets();

    // Pure: what the Audit tab shows for an entry (the spec diff when both sides
    // parse as the same kind, else the texts).
    static AuditRow rowFromEntry(qint64 at, const QString &actor, const QString &action,
                                 const QString &target, const QString &before, const QString &after,
                                 const QString &note);

signals:
    void opened();
    void failed(const gq::Error &error);
    void auditLoaded(const QList<gq::AuditRow> &rows);
    void auditAppended(const gq::AuditRow &row);
    void overBudgetChanged(const QSet<QString> &namespaces);

private:
    class Worker;
    QThread m_thread;
    Worker *m_worker = nullptr;
    QString m_url;
    bool m_open = false;
};

} // namespace gq
