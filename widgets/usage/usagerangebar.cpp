#include "widgets/usage/usagerangebar.h"

#include "core/domain/clock.h"

#include <QComboBox>
#include <QCompleter>
#include <QDateEdit>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

namespace gq {

UsageRangeBar::UsageRangeBar(QWidget *parent)
    : QWidget(parent)
    , m_preset(new QComboBox(this))
    , m_period(new QComboBox(this))
    , m_zoneBox(new QComboBox(this))
    , m_from(new QDateEdit(this))
    , m_to(new QDateEdit(this))
    , m_zoneNote(new QLabel(this))
    , m_zoneId(QString::fromUtf8(QTimeZone::systemTimeZoneId())) {
    m_preset->setObjectName(QStringLiteral("rangePreset"));
    m_period->setObjectName(QStringLiteral("rangePeriod"));
    m_zoneBox->setObjectName(QStringLiteral("rangeZone"));
    m_from->setObjectName(QStringLiteral("rangeFrom"));
    m_to->setObjectName(QStringLiteral("rangeTo"));
    m_preset->addItem(tr("Today"), int(RangePreset::Today));
    m_preset->addItem(tr("Last 7 days"), int(RangePreset::Last7Days));
    m_preset->addItem(tr("This month"), int(RangePreset::ThisMonth));
    m_preset->addItem(tr("Last month"), int(RangePreset::LastMonth));
    m_preset->addItem(tr("Last 90 days"), int(RangePreset::Last90Days));
    m_preset->addItem(tr("Custom range"), int(RangePreset::Custom));
    m_period->addItem(tr("per hour"), int(Period::Hour));
    m_period->addItem(tr("per day"), int(Period::Day));
    m_period->addItem(tr("per ISO week"), int(Period::Week));
    m_period->addItem(tr("per month"), int(Period::Month));
    m_period->setToolTip(tr("The length of one bar"));

    // Every IANA zone the system knows, typed or picked; the bucket calendar follows it.
    m_zoneBox->setEditable(true);
    m_zoneBox->setInsertPolicy(QComboBox::NoInsert);
    m_zoneBox->setMinimumContentsLength(16);
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zoneBox->addItem(QString::fromUtf8(id));
    m_zoneBox->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_zoneBox->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_zoneBox->completer()->setFilterMode(Qt::MatchContains);
    m_zoneBox->setCurrentText(m_zoneId);
    m_zoneBox->setToolTip(tr("Time zone of the buckets (IANA name): where a day, week or month starts"));
    m_zoneNote->setObjectName(QStringLiteral("rangeZoneNote"));

    const QDate today = QDate::currentDate();
    for (QDateEdit *e : {m_from, m_to}) {
        e->setCalendarPopup(true);
        e->setDate(today);
        e->setVisible(false);
        connect(e, &QDateEdit::dateChanged, this, [this] {
            if (preset() == RangePreset::Custom)
                emit changed();
        });
    }
    m_from->setDate(today.addDays(-13));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Range:"), this));
    layout->addWidget(m_preset);
    layout->addWidget(m_from);
    layout->addWidget(m_to);
    layout->addWidget(m_period);
    layout->addSpacing(12);
    layout->addWidget(new QLabel(tr("Buckets in:"), this));
    layout->addWidget(m_zoneBox);
    layout->addWidget(m_zoneNote);
    layout->addStretch(1);

    setPeriod(Period::Hour);
    setZone(m_zoneId);
    connect(m_preset, &QComboBox::activated, this, [this] {
        const bool custom = preset() == RangePreset::Custom;
        m_from->setVisible(custom);
        m_to->setVisible(custom);
        {
            const QSignalBlocker block(m_period);
            if (!custom)
                setPeriod(defaultPeriod(preset()));
        }
        emit changed();
    });
    connect(m_period, &QComboBox::activated, this, &UsageRangeBar::changed);
    connect(m_zoneBox, &QComboBox::activated, this, &UsageRangeBar::onZoneEdited);
    connect(m_zoneBox->lineEdit(), &QLineEdit::editingFinished, this, &UsageRangeBar::onZoneEdited);
}

void UsageRangeBar::onZoneEdited() {
    const QString id = m_zoneBox->currentText().trimmed();
    if (id == m_zoneId)
        return;
    if (!setZone(id)) {
        m_zoneNote->setText(tr("unknown time zone \"%1\"").arg(id));
        return;
    }
    emit changed();
}

void UsageRangeBar::applyZone(const QString &id) {
    if (id != m_zoneId && setZone(id))
        emit changed();
}

RangePreset UsageRangeBar::preset() const {
    return RangePreset(m_preset->currentData().toInt());
}

Period UsageRangeBar::period() const {
    return Period(m_period->currentData().toInt());
}

TimeRange UsageRangeBar::range(qint64 now) const {
    const auto tz = parseZone(m_zoneId);
    const QTimeZone zone = tz ? *tz : QTimeZone::utc();
    if (preset() == RangePreset::Custom) {
        QDate first = m_from->date(), last = m_to->date();
        if (last < first)
            std::swap(first, last);
        return dayRange(first, last, zone);
    }
    return presetRange(preset(), now, zone);
}

ChartQuery UsageRangeBar::query(ChartQuery::Kind kind, const QString &subject, qint64 now) const {
    ChartQuery q;
    q.kind = kind;
    q.subject = subject;
    q.period = period();
    q.zone = m_zoneId;
    q.now = now;
    q.range = range(now);
    // Hours over a long range would be thousands of thin bars: days at least.
    if (q.period == Period::Hour && q.range.seconds() > 4 * 86400)
        q.period = Period::Day;
    return q;
}

void UsageRangeBar::setPreset(RangePreset p) {
    m_preset->setCurrentIndex(m_preset->findData(int(p)));
    const bool custom = p == RangePreset::Custom;
    m_from->setVisible(custom);
    m_to->setVisible(custom);
    if (!custom)
        setPeriod(defaultPeriod(p));
}

void UsageRangeBar::setPeriod(Period p) {
    m_period->setCurrentIndex(m_period->findData(int(p)));
}

bool UsageRangeBar::setZone(const QString &id) {
    if (!parseZone(id))
        return false;
    m_zoneId = id;
    const QSignalBlocker block(m_zoneBox);
    m_zoneBox->setCurrentText(id);
    const QTimeZone tz(id.toUtf8());
    const int offset = tz.offsetFromUtc(Clock::system().nowUtc());
    m_zoneNote->setText(tr("UTC%1%2:%3")
                            .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                            .arg(std::abs(offset) / 3600, 2, 10, QLatin1Char('0'))
                            .arg(std::abs(offset) % 3600 / 60, 2, 10, QLatin1Char('0')));
    return true;
}

void UsageRangeBar::setCustomDays(const QDate &first, const QDate &last) {
    {
        const QSignalBlocker a(m_from), b(m_to);
        m_from->setDate(first);
        m_to->setDate(last);
    }
    setPreset(RangePreset::Custom);
}

} // namespace gq
