#pragma once

#include "core/kube/managedfields.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gq {

// The enforcer's memory of clamps that another owner of the quota keeps undoing (Argo CD,
// Flux, Helm re-apply spec.hard on every sync; metadata.managedFields names them). The
// clamp is written again at most after a back-off that doubles per revert seen (first
// revert: at once, as an admin's edit always was; then 1 min, 2 min, ... at most 1 h), per
// quota, so the controller does not fight the GitOps tool every tick; the revert is
// reported once (one ClampEvent Reverted: one alert, one audit entry) per episode, which
// ends when the clamp is lifted or the quota carries no clamp any more.
class ClampBackoff final {
public:
    struct Verdict {
        bool write = true;                              // write the clamp again now
        bool report = false;                            // first sight of this episode: alert + audit
        std::optional<managedfields::FieldOwner> owner; // who undid it
        int reverts = 0;
        qint64 nextAttempt = 0;
    };

    // `quota` as read, planned as a clamp with an "admin edit" of GPU keys `changedKeys`
    // (values differing from the recorded clamp). A revert when one of them is owned by
    // another manager than ours; otherwise an admin's one-off edit (write, no report).
    Verdict judge(const QJsonObject &quota, const QStringList &changedKeys, qint64 now);
    // Our clamp write for `quota` ("ns/name") succeeded: a later revert counts again.
    void wrote(const QString &quotaKey);
    // The clamp was lifted or is gone: the episode ends.
    void forget(const QString &quotaKey) { m_state.remove(quotaKey); }
    [[nodiscard]] bool isBackingOff(const QString &quotaKey, qint64 now) const;
    // The wait after revert number `n` (1, 2, ...): 0, 60 s, 120 s, ... at most 3600 s.
    [[nodiscard]] static qint64 delay(int n);
    [[nodiscard]] static QString keyOf(const QJsonObject &quota);

private:
    struct State {
        int reverts = 0;
        bool wroteSinceRevert = true;
        qint64 nextAttempt = 0;
        bool reported = false;
    };
    QHash<QString, State> m_state;
};

} // namespace gq
