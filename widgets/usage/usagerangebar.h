#pragma once

#include "core/usage/usagecharts.h"

#include <QWidget>

class QComboBox;
class QDateEdit;
class QLabel;

namespace gq {

// The range of a usage view: a preset (today, 7 days, this month, last month, 90
// days, custom dates), the bucket (hour, day, ISO week, month) and the IANA zone the
// buckets follow, shown and editable. changed() after any of them changes.
class UsageRangeBar final : public QWidget {
    Q_OBJECT
public:
    explicit UsageRangeBar(QWidget *parent = nullptr);

    [[nodiscard]] RangePreset preset() const;
    [[nodiscard]] Period period() const;
    [[nodiscard]] QString zone() const { return m_zoneId; }
    // The range at `now` in the bar's zone.
    [[nodiscard]] TimeRange range(qint64 now) const;
    // A query of `kind` for `subject` over the bar's range at `now`.
    [[nodiscard]] ChartQuery query(ChartQuery::Kind kind, const QString &subject, qint64 now) const;

    void setPreset(RangePreset preset);
    void setPeriod(Period period);
    // False (and nothing changes) for an unknown IANA id.
    bool setZone(const QString &id);
    // setZone(), then changed() when the zone is another one (the Preferences' zone).
    void applyZone(const QString &id);
    // A custom range of whole local days (inclusive).
    void setCustomDays(const QDate &first, const QDate &last);

signals:
    void changed();

private:
    void onZoneEdited();
    QComboBox *m_preset;
    QComboBox *m_period;
    QComboBox *m_zoneBox;
    QDateEdit *m_from;
    QDateEdit *m_to;
    QLabel *m_zoneNote;
    QString m_zoneId;
};

} // namespace gq
