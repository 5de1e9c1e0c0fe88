#pragma once

#include "core/domain/result.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

namespace gq {

// Identifies the object an unsaved edit belongs to. An empty name is a new object.
struct DraftKey {
    QString context;
    QString ns;
    QString kind; // "ResourceQuota", "LimitRange"
    QString name;

    // Stable file name derived from all four parts (a hash, so any characters work).
    [[nodiscard]] QString fileName() const;
    friend bool operator==(const DraftKey &, const DraftKey &) = default;
};

struct Draft {
    DraftKey key;
    QString text;            // the unsaved editor text
    QString baseText;        // what the edit started from, for a later three-way merge
    QString resourceVersion; // the server version the edit started from
    QDateTime savedAt;       // UTC
};

// Keeps unsaved YAML so that a crash, a closed window or a failed apply never loses
// it. One JSON file per DraftKey, written all or nothing (writeFileAtomically) into
// <AppDataLocation>/drafts. scheduleSave() debounces typing; flush() (also run on
// destruction and application quit) writes anything pending immediately.
class DraftStore final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DraftStore)
public:
    // An empty directory means QStandardPaths::AppDataLocation + "/drafts".
    explicit DraftStore(QObject *parent = nullptr, const QString &directory = {});
    ~DraftStore() override;

    [[nodiscard]] QString directory() const { return m_dir; }

    Result<void> save(const Draft &draft);
    void scheduleSave(const Draft &draft);
    void flush();

    [[nodiscard]] bool hasDraft(const DraftKey &key) const;
    // The stored draft, if any; a pending (debounced) one wins over the file.
    [[nodiscard]] std::optional<Draft> draft(const DraftKey &key) const;
    // Returns the draft and forgets it (file removed, pending save cancelled).
    std::optional<Draft> takeDraft(const DraftKey &key);
    Result<void> discard(const DraftKey &key);
    [[nodiscard]] QList<Draft> allDrafts() const;

    void setDebounceInterval(int ms) { m_timer.setInterval(ms); }
    [[nodiscard]] int debounceInterval() const { return m_timer.interval(); }

signals:
    void saved(const gq::DraftKey &key);
    void saveFailed(const gq::DraftKey &key, const gq::Error &error);

private:
    [[nodiscard]] QString pathFor(const DraftKey &key) const;

    QString m_dir;
    QTimer m_timer;
    QHash<QString, Draft> m_pending; // by file name
};

} // namespace gq

Q_DECLARE_METATYPE(gq::DraftKey)
