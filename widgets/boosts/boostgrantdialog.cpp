#include "widgets/boosts/boostgrantdialog.h"

#include "core/usage/boosts.h"
#include "core/domain/clock.h"
#include "services/cluster/clusterconnection.h"
#include "core/quotas/gpuquotakeys.h"
#include "widgets/boosts/queueboosttarget.h"
#include "core/usage/timewindow.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStackedWidget>
#include <QTimeEdit>
#include <QTimeZone>
#include <QVBoxLayout>

namespace gq {

namespace {
QWidget *row(QWidget *parent, std::initializer_list<QWidget *> widgets, bool stretch = true) {
    auto *w = new QWidget(parent);
    auto *l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    for (QWidget *x : widgets)
        l->addWidget(x);
    if (stretch)
        l->addStretch(1);
    return w;
}

QString hardValue(const QJsonObject &quota, const QString &resource) {
    return quota.value(QLatin1String("spec"))
        .toObject()
        .value(QLatin1String("hard"))
        .toObject()
        .value(resource)
        .toString();
}
} // namespace

BoostGrantDialog::BoostGrantDialog(ClusterConnection *session, const Clock &clock, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_clock(clock)
    , m_quotaKind(new QRadioButton(tr("Namespace quota"), this))
    , m_budgetKind(new QRadioButton(tr("GPU-hour budget"), this))
    , m_queueKind(new QRadioButton(tr("Kueue queue"), this))
    , m_queueTarget(new QueueBoostTarget(this))
    , m_targetStack(new QStackedWidget(this))
    , m_namespace(new QComboBox(this))
    , m_quota(new QComboBox(this))
    , m_resource(new QComboBox(this))
    , m_budgetScope(new QComboBox(this))
    , m_budgetSubject(new QLineEdit(this))
    , m_changeStack(new QStackedWidget(this))
    , m_addMode(new QRadioButton(tr("Add"), this))
    , m_setMode(new QRadioButton(tr("Set to"), this))
    , m_add(new QLineEdit(QStringLiteral("+4"), this))
    , m_set(new QLineEdit(this))
    , m_hours(new QDoubleSpinBox(this))
    , m_startNow(new QRadioButton(tr("Now"), this))
    , m_startAt(new QRadioButton(tr("At"), this))
    , m_start(new QDateTimeEdit(this))
    , m_endAfter(new QRadioButton(tr("After"), this))
    , m_endAt(new QRadioButton(tr("At"), this))
    , m_duration(new QLineEdit(QStringLiteral("3d"), this))
    , m_end(new QDateTimeEdit(this))
    , m_recur(new QGroupBox(tr("Repeat in a window"), this))
    , m_recurKind(new QComboBox(this))
    , m_windowFrom(new QTimeEdit(QTime(20, 0), this))
    , m_windowTo(new QTimeEdit(QTime(8, 0), this))
    , m_zone(new QComboBox(this))
    , m_recurUntil(new QDateTimeEdit(this))
    , m_note(new QPlainTextEdit(this))
    , m_preview(new QLabel(this))
    , m_previewWhen(new QLabel(this))
    , m_why(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setObjectNames();
    buildTargetPages();
    buildChangeRows();
    buildStartAndEnd();
    buildRecurrenceBox();
    layOutDialog();
    connectEditors();
    fillNamespaces();
}

void BoostGrantDialog::setObjectNames() {
    setObjectName(QStringLiteral("boostGrantDialog"));
    setWindowTitle(tr("Grant a boost"));
    m_quotaKind->setObjectName(QStringLiteral("boostKindQuota"));
    m_budgetKind->setObjectName(QStringLiteral("boostKindBudget"));
    m_queueKind->setObjectName(QStringLiteral("boostKindQueue"));
    m_namespace->setObjectName(QStringLiteral("boostNamespace"));
    m_quota->setObjectName(QStringLiteral("boostQuota"));
    m_resource->setObjectName(QStringLiteral("boostResource"));
    m_budgetScope->setObjectName(QStringLiteral("boostBudgetScope"));
    m_budgetSubject->setObjectName(QStringLiteral("boostBudgetSubject"));
    m_addMode->setObjectName(QStringLiteral("boostAddMode"));
    m_setMode->setObjectName(QStringLiteral("boostSetMode"));
    m_add->setObjectName(QStringLiteral("boostAdd"));
    m_set->setObjectName(QStringLiteral("boostSet"));
    m_hours->setObjectName(QStringLiteral("boostHours"));
    m_startNow->setObjectName(QStringLiteral("boostStartNow"));
    m_startAt->setObjectName(QStringLiteral("boostStartAt"));
    m_start->setObjectName(QStringLiteral("boostStart"));
    m_endAfter->setObjectName(QStringLiteral("boostEndAfter"));
    m_endAt->setObjectName(QStringLiteral("boostEndAt"));
    m_duration->setObjectName(QStringLiteral("boostDuration"));
    m_end->setObjectName(QStringLiteral("boostEnd"));
    m_recur->setObjectName(QStringLiteral("boostRecur"));
    m_recurKind->setObjectName(QStringLiteral("boostRecurKind"));
    m_zone->setObjectName(QStringLiteral("boostZone"));
    m_recurUntil->setObjectName(QStringLiteral("boostRecurUntil"));
    m_note->setObjectName(QStringLiteral("boostNote"));
    m_preview->setObjectName(QStringLiteral("boostPreview"));
    m_previewWhen->setObjectName(QStringLiteral("boostPreviewWhen"));
    m_why->setObjectName(QStringLiteral("boostWhyDisabled"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("boostOkButton"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Grant boost"));
}

void BoostGrantDialog::buildTargetPages() {
    auto *kinds = new QButtonGroup(this);
    kinds->addButton(m_quotaKind);
    kinds->addButton(m_budgetKind);
    kinds->addButton(m_queueKind);
    m_quotaKind->setChecked(true);
    m_namespace->setMinimumContentsLength(16);
    m_quota->setMinimumContentsLength(12);
    m_resource->setMinimumContentsLength(22);
    auto *quotaPage = new QWidget(m_targetStack);
    auto *qf = new QFormLayout(quotaPage);
    qf->setContentsMargins(0, 0, 0, 0);
    qf->addRow(tr("Namespace:"), m_namespace);
    qf->addRow(tr("ResourceQuota:"), m_quota);
    qf->addRow(tr("Resource:"), m_resource);
    m_budgetScope->addItem(tr("User"), int(BudgetScope::User));
    m_budgetScope->addItem(tr("Namespace"), int(BudgetScope::Namespace));
    m_budgetSubject->setPlaceholderText(tr("user or namespace name"));
    auto *budgetPage = new QWidget(m_targetStack);
    auto *bf = new QFormLayout(budgetPage);
    bf->setContentsMargins(0, 0, 0, 0);
    bf->addRow(tr("Budget of:"), row(budgetPage, {m_budgetScope, m_budgetSubject}, false));
    m_targetStack->addWidget(quotaPage);
    m_targetStack->addWidget(budgetPage);
    m_targetStack->addWidget(m_queueTarget);
}

void BoostGrantDialog::buildChangeRows() {
    auto *modes = new QButtonGroup(this);
    modes->addButton(m_addMode);
    modes->addButton(m_setMode);
    m_addMode->setChecked(true);
    m_add->setMaximumWidth(110);
    m_set->setMaximumWidth(110);
    m_add->setPlaceholderText(tr("e.g. +4"));
    m_set->setPlaceholderText(tr("e.g. 16"));
    m_hours->setRange(0, 1e6);
    m_hours->setDecimals(1);
    m_hours->setValue(100);
    m_hours->setSuffix(tr(" GPU-h"));
    m_changeStack->addWidget(row(this, {m_addMode, m_add, m_setMode, m_set}));
    m_changeStack->addWidget(row(this, {m_hours}));
}

void BoostGrantDialog::buildStartAndEnd() {
    const QDateTime now = QDateTime::fromSecsSinceEpoch(m_clock.nowSecs());
    for (QDateTimeEdit *e : {m_start, m_end, m_recurUntil}) {
        e->setCalendarPopup(true);
        e->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    m_start->setDateTime(now.addSecs(3600));
    m_end->setDateTime(now.addDays(3));
    m_recurUntil->setDateTime(now.addDays(14));
    auto *starts = new QButtonGroup(this);
    starts->addButton(m_startNow);
    starts->addButton(m_startAt);
    m_startNow->setChecked(true);
    auto *ends = new QButtonGroup(this);
    ends->addButton(m_endAfter);
    ends->addButton(m_endAt);
    m_endAfter->setChecked(true);
    m_duration->setMaximumWidth(110);
    m_duration->setPlaceholderText(tr("4h, 2d, 1h30m"));
}

void BoostGrantDialog::buildRecurrenceBox() {
    m_recur->setCheckable(true);
    m_recur->setChecked(false);
    m_recurKind->addItem(tr("Nightly"), QStringLiteral("nightly"));
    m_recurKind->addItem(tr("Weekends"), QStringLiteral("weekends"));
    m_recurKind->addItem(tr("Weekdays"), QStringLiteral("weekdays"));
    for (QTimeEdit *t : {m_windowFrom, m_windowTo})
        t->setDisplayFormat(QStringLiteral("HH:mm"));
    m_zone->setEditable(true);
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromLatin1(id));
    m_zone->setCurrentText(QString::fromLatin1(QTimeZone::systemTimeZoneId()));
    m_zone->setMinimumContentsLength(14);
    auto *rf = new QFormLayout(m_recur);
    rf->addRow(tr("Every:"), m_recurKind);
    rf->addRow(tr("Window:"), row(m_recur, {m_windowFrom, new QLabel(QStringLiteral("\u2013"), m_recur),
                                            m_windowTo, new QLabel(tr("zone"), m_recur), m_zone}));
    rf->addRow(tr("Until:"), m_recurUntil);
}

void BoostGrantDialog::layOutDialog() {
    m_note->setPlaceholderText(tr("Why? At least %1 characters; goes into the audit log, e.g. "
                                  "\"paper deadline on Friday\"")
                                   .arg(kBoostMinNoteLength));
    m_note->setTabChangesFocus(true);
    m_note->setFixedHeight(m_note->fontMetrics().lineSpacing() * 3 + 14);

    // The preview: what the quota is before, during and after, in large type.
    auto *previewBox = new QGroupBox(tr("Preview"), this);
    QFont big = m_preview->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_preview->setFont(big);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_previewWhen->setWordWrap(true);
    auto *pv = new QVBoxLayout(previewBox);
    pv->addWidget(m_preview);
    pv->addWidget(m_previewWhen);
    m_why->setWordWrap(true);
    m_why->setStyleSheet(QStringLiteral("color: #b03a2e;"));

    auto *form = new QFormLayout;
    form->addRow(tr("Boost:"), row(this, {m_quotaKind, m_queueKind, m_budgetKind}));
    form->addRow(QString(), m_targetStack);
    form->addRow(tr("Change:"), m_changeStack);
    form->addRow(tr("Starts:"), row(this, {m_startNow, m_startAt, m_start}));
    form->addRow(tr("Ends:"), row(this, {m_endAfter, m_duration, m_endAt, m_end}));
    form->addRow(m_recur);
    form->addRow(tr("Note:"), m_note);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_why, 1);
    bottom->addWidget(m_buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(previewBox);
    layout->addLayout(bottom);
    setMinimumWidth(640);
}

void BoostGrantDialog::connectEditors() {
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_plan)
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QRadioButton *kind : {m_quotaKind, m_queueKind, m_budgetKind})
        connect(kind, &QRadioButton::toggled, this, [this](bool on) {
            if (on)
                kindChanged();
        });
    connect(m_queueTarget, &QueueBoostTarget::changed, this, &BoostGrantDialog::replan);
    connect(m_namespace, &QComboBox::currentTextChanged, this, &BoostGrantDialog::fillQuotas);
    connect(m_quota, &QComboBox::currentTextChanged, this, &BoostGrantDialog::fillResources);
    connect(m_resource, &QComboBox::currentTextChanged, this, &BoostGrantDialog::replan);
    for (QRadioButton *b : {m_addMode, m_setMode, m_startNow, m_startAt, m_endAfter, m_endAt})
        connect(b, &QRadioButton::toggled, this, &BoostGrantDialog::replan);
    for (QLineEdit *e : {m_add, m_set, m_duration, m_budgetSubject})
        connect(e, &QLineEdit::textChanged, this, &BoostGrantDialog::replan);
    connect(m_addMode, &QRadioButton::toggled, this, [this](bool add) {
        m_add->setEnabled(add);
        m_set->setEnabled(!add);
    });
    m_set->setEnabled(false);
    connect(m_budgetScope, &QComboBox::currentIndexChanged, this, &BoostGrantDialog::replan);
    connect(m_hours, &QDoubleSpinBox::valueChanged, this, &BoostGrantDialog::replan);
    for (QDateTimeEdit *e : {m_start, m_end, m_recurUntil})
        connect(e, &QDateTimeEdit::dateTimeChanged, this, &BoostGrantDialog::replan);
    for (QTimeEdit *t : {m_windowFrom, m_windowTo})
        connect(t, &QTimeEdit::timeChanged, this, &BoostGrantDialog::replan);
    connect(m_recur, &QGroupBox::toggled, this, &BoostGrantDialog::replan);
    connect(m_recurKind, &QComboBox::currentIndexChanged, this, &BoostGrantDialog::replan);
    connect(m_zone, &QComboBox::currentTextChanged, this, &BoostGrantDialog::replan);
    connect(m_note, &QPlainTextEdit::textChanged, this, &BoostGrantDialog::replan);
}

void BoostGrantDialog::setQuotaTarget(const QString &ns, const QString &quota, const QString &resource) {
    m_quotaKind->setChecked(true);
    m_namespace->setCurrentText(ns);
    if (!quota.isEmpty())
        m_quota->setCurrentText(quota);
    if (!resource.isEmpty())
        m_resource->setCurrentText(resource);
    replan();
}

void BoostGrantDialog::kindChanged() {
    const bool budget = m_budgetKind->isChecked(), queue = m_queueKind->isChecked();
    m_targetStack->setCurrentIndex(budget ? 1 : queue ? 2 : 0);
    m_changeStack->setCurrentIndex(budget ? 1 : 0);
    m_recur->setEnabled(!budget); // budget boosts do not recur
    if (budget)
        m_recur->setChecked(false);
    // A queue boost adds to the field (`--add N`), like the CLI's.
    if (queue)
        m_addMode->setChecked(true);
    m_setMode->setEnabled(!queue);
    if (queue && m_session)
        m_queueTarget->load(m_session->client());
    replan();
}

void BoostGrantDialog::setQueueTarget(const QString &clusterQueue, const QString &flavor,
                                      const QString &resource, const QString &field) {
    m_queueKind->setChecked(true);
    m_queueTarget->select(clusterQueue, flavor, resource, field);
    replan();
}

void BoostGrantDialog::setBudgetTarget(BudgetScope scope, const QString &subject) {
    m_budgetKind->setChecked(true);
    m_budgetScope->setCurrentIndex(m_budgetScope->findData(int(scope)));
    m_budgetSubject->setText(subject);
    replan();
}

// Only namespaces with a quota can be boosted here (a budget boost names its subject).
void BoostGrantDialog::fillNamespaces() {
    m_namespace->clear();
    if (!m_session)
        return;
    for (const QString &ns : m_session->namespaceNames())
        if (!m_session->quotasIn(ns).isEmpty())
            m_namespace->addItem(ns);
}

void BoostGrantDialog::fillQuotas() {
    const QString keep = m_quota->currentText();
    m_quota->clear();
    if (m_session)
        for (const StoredObject &o : m_session->quotasIn(m_namespace->currentText()))
            m_quota->addItem(o.name);
    if (m_quota->findText(keep) >= 0)
        m_quota->setCurrentText(keep);
    fillResources();
}

void BoostGrantDialog::fillResources() {
    const QString keep = m_resource->currentText();
    m_resource->clear();
    if (m_session)
        if (auto q = m_session->quota(m_namespace->currentText(), m_quota->currentText()))
            for (const QString &r : q->object.value(QLatin1String("spec"))
                                        .toObject()
                                        .value(QLatin1String("hard"))
                                        .toObject()
                                        .keys())
                m_resource->addItem(r);
    // GPUs are what people boost: the GPU entry (a DRA class's key where the quota counts
    // GPUs by DRA) first unless one was asked for.
    QStringList keys;
    for (int i = 0; i < m_resource->count(); ++i)
        keys << m_resource->itemText(i);
    const int gpu = m_resource->findText(gpukeys::stepKey(keys));
    if (m_resource->findText(keep) >= 0)
        m_resource->setCurrentText(keep);
    else if (gpu >= 0)
        m_resource->setCurrentIndex(gpu);
    replan();
}

BoostWhen BoostGrantDialog::when(QString *problem) const {
    BoostWhen w;
    if (m_startAt->isChecked())
        w.start = m_start->dateTime().toSecsSinceEpoch();
    if (m_recur->isChecked()) {
        const QString window = m_windowFrom->time().toString(QStringLiteral("HH:mm")) + QLatin1Char('-') +
                               m_windowTo->time().toString(QStringLiteral("HH:mm"));
        auto r = BoostRecurrence::make(m_recurKind->currentData().toString(), window,
                                       m_zone->currentText().trimmed(),
                                       m_recurUntil->dateTime().toSecsSinceEpoch());
        if (!r)
            *problem =
                r.error().field == QLatin1String("tz")
                    ? tr("Zone: \"%1\" is not a time zone (e.g. Europe/Berlin)").arg(m_zone->currentText())
                    : r.error().message;
        else
            w.recurrence = *r;
        return w;
    }
    if (m_endAfter->isChecked()) {
        auto d = parseDuration(m_duration->text().trimmed(), QStringLiteral("for"));
        if (!d || *d <= 0)
            *problem =
                tr("Ends after: \"%1\" is not a duration (e.g. 4h, 2d, 1h30m)").arg(m_duration->text());
        else
            w.duration = *d;
    } else {
        w.end = m_end->dateTime().toSecsSinceEpoch();
    }
    return w;
}

QString BoostGrantDialog::timeText(qint64 t) const {
    return QDateTime::fromSecsSinceEpoch(t).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

// When the planned boost applies and how it ends, under the preview of its values.
QString BoostGrantDialog::whenText(const BoostPlan &plan, qint64 now) const {
    const Boost &b = plan.boost;
    const QString when =
        b.recurrence.recurs()
            ? tr("First window %1 to %2, then every window until %3.")
                  .arg(timeText(b.start), timeText(b.expiry), timeText(b.recurrence.until))
            : tr("%1 from %2 until %3, then back to %4.")
                  .arg(plan.during.toString(), b.start <= now ? tr("now") : timeText(b.start),
                       timeText(b.expiry), plan.after.toString());
    return when + QLatin1Char(' ') +
           tr("Only this boost's delta is taken back, so changes others make meanwhile stay.");
}

void BoostGrantDialog::replan() {
    m_plan.reset();
    m_start->setEnabled(m_startAt->isChecked());
    const bool recur = m_recur->isChecked();
    for (QWidget *w : {static_cast<QWidget *>(m_endAfter), static_cast<QWidget *>(m_endAt)})
        w->setEnabled(!recur);
    m_duration->setEnabled(!recur && m_endAfter->isChecked());
    m_end->setEnabled(!recur && m_endAt->isChecked());
    const qint64 now = m_clock.nowSecs();
    QString problem;
    const BoostWhen w = when(&problem);
    const QString note = m_note->toPlainText();

    if (m_queueKind->isChecked()) {
        replanQueue(w, problem, now);
    } else if (m_quotaKind->isChecked()) {
        const QString ns = m_namespace->currentText();
        QList<QJsonObject> quotas;
        if (m_session)
            for (const StoredObject &o : m_session->quotasIn(ns))
                quotas << o.object;
        // Before anything is typed, the preview already shows the value today.
        const auto current = m_session ? m_session->quota(ns, m_quota->currentText()) : std::nullopt;
        const QString value = current ? hardValue(current->object, m_resource->currentText()) : QString();
        m_preview->setText(m_resource->currentText().isEmpty()
                               ? tr("No quota entry selected")
                               : tr("%1: %2").arg(m_resource->currentText(), value));
        m_previewWhen->clear();
        if (problem.isEmpty()) {
            QuotaGrantRequest req;
            req.ns = ns;
            req.quota = m_quota->currentText();
            req.resource = m_resource->currentText();
            (m_addMode->isChecked() ? req.add : req.set) =
                (m_addMode->isChecked() ? m_add : m_set)->text().trimmed();
            req.when = w;
            req.note = note;
            req.actor = m_actor;
            // The planner checks the note first; the preview is worth showing before it.
            const bool noteOk = bool(checkBoostNote(note));
            if (!noteOk)
                req.note = QString(kBoostMinNoteLength, QLatin1Char('x'));
            auto plan = planQuotaBoost(req, quotas, now);
            if (!noteOk)
                problem = QStringLiteral("note");
            if (plan) {
                m_preview->setText(tr("%1:  %2 \u2192 %3 \u2192 %4")
                                       .arg(req.resource, plan->before.toString(), plan->during.toString(),
                                            plan->after.toString()));
                const Boost &b = plan->boost;
                m_previewWhen->setText(whenText(*plan, now));
                if (problem.isEmpty())
                    m_plan = b;
            } else {
                showPlanError(plan.error());
                return;
            }
        }
    } else {
        BudgetGrantRequest req;
        req.scope = BudgetScope(m_budgetScope->currentData().toInt());
        req.subject = m_budgetSubject->text().trimmed();
        req.hours = m_hours->value();
        req.when = w;
        req.note = note;
        req.actor = m_actor;
        m_preview->setText(tr("+%1 GPU-hours").arg(m_hours->value()));
        m_previewWhen->clear();
        if (problem.isEmpty()) {
            const bool noteOk = bool(checkBoostNote(note));
            if (!noteOk)
                req.note = QString(kBoostMinNoteLength, QLatin1Char('x'));
            auto b = planBudgetBoost(req, now);
            if (!b) {
                showPlanError(b.error());
                return;
            }
            m_previewWhen->setText(tr("Counts towards the budget of %1 from %2 until %3.")
                                       .arg(b->target.subject,
                                            b->start <= now ? tr("now") : timeText(b->start),
                                            timeText(b->expiry)));
            if (noteOk)
                m_plan = *b;
            else
                problem = QStringLiteral("note");
        }
    }
    if (problem == QLatin1String("note"))
        problem = tr("Write a note of at least %1 characters saying why (%2 so far).")
                      .arg(kBoostMinNoteLength)
                      .arg(note.trimmed().size());
    m_why->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_plan.has_value());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(problem);
}

void BoostGrantDialog::replanQueue(const BoostWhen &w, QString &problem, qint64 now) {
    QueueGrantRequest req = m_queueTarget->request();
    m_preview->setText(req.flavor.isEmpty() ? tr("No ClusterQueue flavor selected")
                                            : tr("%1 %2 %3").arg(req.clusterQueue, req.flavor, req.field));
    m_previewWhen->setText(m_queueTarget->status());
    if (!problem.isEmpty() || req.flavor.isEmpty()) {
        if (problem.isEmpty())
            problem = m_queueTarget->status().isEmpty() ? tr("Choose a ClusterQueue flavor.")
                                                        : m_queueTarget->status();
        return;
    }
    req.add = m_add->text().trimmed();
    req.when = w;
    req.note = m_note->toPlainText();
    req.actor = m_actor;
    const bool noteOk = bool(checkBoostNote(req.note));
    if (!noteOk)
        req.note = QString(kBoostMinNoteLength, QLatin1Char('x'));
    auto plan = planQueueBoost(req, m_queueTarget->queue(), now);
    if (!plan) {
        problem = plan.error().field == QLatin1String("note") ? QStringLiteral("note") : plan.error().message;
        return;
    }
    const Boost &b = plan->boost;
    m_preview->setText(tr("%1 %2 %3:  %4 \u2192 %5 \u2192 %6")
                           .arg(req.clusterQueue, req.flavor, req.field, plan->before.toString(),
                                plan->during.toString(), plan->after.toString()));
    m_previewWhen->setText(whenText(*plan, now));
    if (!noteOk)
        problem = QStringLiteral("note");
    else
        m_plan = b;
}

void BoostGrantDialog::showPlanError(const Error &e) {
    QString text = e.message;
    if (e.field == QLatin1String("note"))
        text = tr("Write a note of at least %1 characters saying why (%2 so far).")
                   .arg(kBoostMinNoteLength)
                   .arg(m_note->toPlainText().trimmed().size());
    else if (e.field == QLatin1String("subject") || e.field == QLatin1String("budget"))
        text = tr("Say whose budget: a user or namespace name.");
    m_why->setText(text);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(text);
}

QString BoostGrantDialog::reason() const {
    return m_plan ? QString() : m_why->text();
}

} // namespace gq
