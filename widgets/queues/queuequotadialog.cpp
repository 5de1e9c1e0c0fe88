#include "widgets/queues/queuequotadialog.h"

#include "core/kube/kubeclient.h"
#include "models/quotas/objectyaml.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gq {

namespace {

constexpr int kMaxGpus = 1000000;

QJsonObject resourceEntry(const QJsonObject &queue, const QString &flavor, const QString &resource) {
    const QJsonArray groups =
        queue.value(QLatin1String("spec")).toObject().value(QLatin1String("resourceGroups")).toArray();
    for (const QJsonValue &g : groups)
        for (const QJsonValue &f : g.toObject().value(QLatin1String("flavors")).toArray()) {
            if (f.toObject().value(QLatin1String("name")).toString() != flavor)
                continue;
            for (const QJsonValue &r : f.toObject().value(QLatin1String("resources")).toArray())
                if (r.toObject().value(QLatin1String("name")).toString() == resource)
                    return r.toObject();
        }
    return {};
}

QString valueText(const QJsonValue &v) {
    return v.isDouble() ? QString::number(v.toDouble(), 'g', 17) : v.toString();
}

} // namespace

QueueQuotaDialog::QueueQuotaDialog(std::shared_ptr<KubeClient> client, const KubeResource &resource,
                                   QWidget *parent)
    : QDialog(parent)
    , m_client(std::move(client))
    , m_resource(resource)
    , m_headline(new QLabel(this))
    , m_field(new QComboBox(this))
    , m_current(new QLabel(this))
    , m_value(new QSpinBox(this))
    , m_unset(new QCheckBox(this))
    , m_error(new QLabel(this))
    , m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("queueQuotaDialog"));
    m_field->setObjectName(QStringLiteral("queueQuotaField"));
    m_current->setObjectName(QStringLiteral("queueQuotaCurrent"));
    m_value->setObjectName(QStringLiteral("queueQuotaValue"));
    m_unset->setObjectName(QStringLiteral("queueQuotaUnset"));
    m_error->setObjectName(QStringLiteral("queueQuotaError"));
    m_status->setObjectName(QStringLiteral("queueQuotaStatus"));
    m_headline->setWordWrap(true);
    QFont f = m_headline->font();
    f.setBold(true);
    m_headline->setFont(f);
    m_value->setRange(0, kMaxGpus);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b3261e; }"));
    m_status->setWordWrap(true);
    for (int i = 0; i < 3; ++i)
        m_field->addItem(QString(), i);

    auto *buttons = new QDialogButtonBox(this);
    m_review = buttons->addButton(QString(), QDialogButtonBox::AcceptRole);
    m_review->setObjectName(QStringLiteral("queueQuotaReview"));
    m_review->setDefault(true);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QueueQuotaDialog::review);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->setObjectName(QStringLiteral("queueQuotaForm"));
    for (QWidget *w : {static_cast<QWidget *>(m_field), static_cast<QWidget *>(m_current),
                       static_cast<QWidget *>(m_value)}) {
        auto *label = new QLabel(this);
        m_formLabels.append(label);
        form->addRow(label, w);
    }
    form->addRow(QString(), m_unset);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_field, &QComboBox::currentIndexChanged, this, &QueueQuotaDialog::showCurrent);
    connect(m_value, &QSpinBox::valueChanged, this, &QueueQuotaDialog::revalidate);
    connect(m_unset, &QCheckBox::toggled, this, [this](bool unset) {
        m_value->setEnabled(!unset);
        revalidate();
    });
    retranslate();
    resize(560, sizeHint().height());
}

void QueueQuotaDialog::setTarget(const QString &clusterQueue, const QString &flavor,
                                 const QString &gpuResource, kueue::QuotaField field) {
    m_queue = clusterQueue;
    m_flavor = flavor;
    m_gpuResource = gpuResource;
    m_field->setCurrentIndex(int(field));
    retranslate();
    reload();
}

kueue::QuotaField QueueQuotaDialog::field() const {
    return kueue::QuotaField(m_field->currentIndex() < 0 ? 0 : m_field->currentIndex());
}

QString QueueQuotaDialog::errorText() const {
    return m_error->text();
}

QString QueueQuotaDialog::currentText() const {
    return m_current->text();
}

void QueueQuotaDialog::reload() {
    m_object = {};
    m_readError.reset();
    m_review->setEnabled(false);
    m_status->setText(tr("Reading %1…").arg(m_queue));
    const std::shared_ptr<KubeClient> client = m_client;
    if (!client) {
        onLoaded(Error::make(Error::Kind::Config, tr("Not connected to a cluster.")));
        return;
    }
    m_jobs.watch(client->get(m_resource, {}, m_queue),
                 [this](const Result<QJsonObject> &result) { onLoaded(result); });
}

void QueueQuotaDialog::onLoaded(const Result<QJsonObject> &result) {
    if (result) {
        m_object = *result;
        m_status->clear();
    } else {
        m_readError = result.error();
        m_status->setText(tr("Cannot read the ClusterQueue: %1").arg(result.error().message));
    }
    showCurrent();
    emit loaded();
}

// The value the server holds for the chosen field, which the editor starts from.
void QueueQuotaDialog::showCurrent() {
    if (m_object.isEmpty()) {
        m_current->setText(QStringLiteral("–"));
        m_review->setEnabled(false);
        return;
    }
    const QJsonValue v = resourceEntry(m_object, m_flavor, m_gpuResource).value(kueue::fieldName(field()));
    const bool limit = field() != kueue::QuotaField::NominalQuota;
    m_unset->setVisible(limit);
    const QSignalBlocker blockValue(m_value);
    const QSignalBlocker blockUnset(m_unset);
    if (v.isUndefined()) {
        m_current->setText(limit ? tr("not set (no limit)") : tr("not set"));
        m_unset->setChecked(limit);
        m_value->setValue(0);
    } else {
        m_current->setText(valueText(v));
        m_unset->setChecked(false);
        auto q = Quantity::parse(valueText(v), kueue::fieldName(field()));
        m_value->setValue(q ? int(std::clamp<qint64>(q->value(), 0, kMaxGpus)) : 0);
    }
    m_value->setEnabled(!m_unset->isChecked());
    revalidate();
}

Result<QJsonObject> QueueQuotaDialog::edited() const {
    const bool unset = field() != kueue::QuotaField::NominalQuota && m_unset->isChecked();
    const std::optional<Quantity> value =
        unset ? std::nullopt : std::optional<Quantity>(Quantity::fromInt(m_value->value()));
    return kueue::withQuota(m_object, m_flavor, m_gpuResource, field(), value);
}

void QueueQuotaDialog::revalidate() {
    if (m_object.isEmpty()) {
        m_error->clear();
        return;
    }
    const Result<QJsonObject> changed = edited();
    if (changed)
        m_error->clear();
    else if (changed.error().field.isEmpty())
        m_error->setText(changed.error().message);
    else
        m_error->setText(tr("%1: %2").arg(changed.error().field, changed.error().message));
    m_review->setEnabled(changed && !m_flow);
}

void QueueQuotaDialog::review() {
    const Result<QJsonObject> changed = edited();
    if (!changed || m_flow)
        return;
    startFlow(m_object, editableYaml(*changed));
}

void QueueQuotaDialog::startFlow(const QJsonObject &base, const QString &mineYaml) {
    ApplyFlow::Request req;
    req.resource = m_resource;
    req.audit = m_auditSink;
    req.base = base;
    req.baseYaml = editableYaml(base);
    req.mineYaml = mineYaml;
    if (const AuditHead head = m_auditHead ? m_auditHead() : AuditHead{}; head.count > 0)
        req.auditHead = head;
    auto *flow = new ApplyFlow(m_client, this, this);
    m_flow = flow;
    m_review->setEnabled(false);
    connect(flow, &ApplyFlow::progress, m_status, &QLabel::setText);
    connect(flow, &ApplyFlow::failed, this, [this, flow](const Error &error) {
        flow->deleteLater();
        m_flow.clear();
        QString text = tr("Apply failed: %1").arg(error.message);
        if (!error.field.isEmpty())
            text += QLatin1String(" (") + error.field + QLatin1Char(')');
        m_status->setText(text);
        revalidate();
    });
    connect(flow, &ApplyFlow::cancelled, this, [this, flow] {
        flow->deleteLater();
        m_flow.clear();
        m_status->setText(tr("Apply cancelled; nothing was written."));
        revalidate();
    });
    connect(flow, &ApplyFlow::applied, this, [this, flow](const QJsonObject &after) {
        flow->deleteLater();
        m_object = after;
        emit applied({}, m_resource.kind + u'/' + m_queue);
        emit statusMessage(tr("Applied ClusterQueue %1").arg(m_queue));
        accept();
    });
    connect(flow, &ApplyFlow::conflictResolved, this,
            [this, flow](ConflictDialog::Resolution res, const QString &text, const QJsonObject &server) {
                flow->deleteLater();
                onConflictResolved(res, text, server);
            });
    flow->start(req);
}

// A merged or overwriting text goes through the whole protocol again, now based on the
// server's version; anything else shows the queue as it is now.
void QueueQuotaDialog::onConflictResolved(ConflictDialog::Resolution resolution, const QString &text,
                                          const QJsonObject &server) {
    m_flow.clear();
    if (resolution == ConflictDialog::Resolution::Rebased ||
        resolution == ConflictDialog::Resolution::Overwrite) {
        m_object = server;
        startFlow(server, text);
        return;
    }
    m_status->setText(tr("The ClusterQueue changed on the server; it is shown as it is now."));
    onLoaded(server);
}

void QueueQuotaDialog::retranslate() {
    setWindowTitle(tr("Edit GPU quota"));
    m_headline->setText(tr("ClusterQueue %1 · flavor %2 · %3").arg(m_queue, m_flavor, m_gpuResource));
    m_field->setItemText(0, tr("Nominal quota (nominalQuota)"));
    m_field->setItemText(1, tr("Borrowing limit (borrowingLimit)"));
    m_field->setItemText(2, tr("Lending limit (lendingLimit)"));
    m_unset->setText(tr("No limit (remove the field)"));
    m_review->setText(tr("Review and apply…"));
    m_value->setSuffix(tr(" GPUs"));
    const QStringList labels{tr("Field:"), tr("On the server now:"), tr("New value:")};
    for (int i = 0; i < m_formLabels.size() && i < labels.size(); ++i)
        m_formLabels.at(i)->setText(labels.at(i));
}

void QueueQuotaDialog::changeEvent(QEvent *event) {
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace gq
