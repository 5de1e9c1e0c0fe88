#include "widgets/queues/queueyamldialog.h"

#include "core/kube/kubeclient.h"
#include "services/queues/kueuewrite.h"
#include "models/quotas/objectyaml.h"
#include "widgets/editor/yamleditor.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gq {

QueueYamlDialog::QueueYamlDialog(std::shared_ptr<KubeClient> client, const KubeResource &resource,
                                 const QString &ns, const QString &name, QWidget *parent)
    : QDialog(parent)
    , m_client(std::move(client))
    , m_resource(resource)
    , m_ns(ns)
    , m_name(name)
    , m_headline(new QLabel(this))
    , m_editor(new YamlEditor(this))
    , m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("queueYamlDialog"));
    m_editor->setObjectName(QStringLiteral("queueYamlEditor"));
    m_status->setObjectName(QStringLiteral("queueYamlStatus"));
    m_status->setWordWrap(true);
    m_editor->setValidator([resource](const QString &text) { return kueueTextProblems(resource, text); });
    // Kueue's quantities are written as the admin wrote them; no canonical rewrite.
    m_editor->setCanonicalizer([](const QString &text) { return Result<QString>(text); });
    setWindowTitle(tr("Edit %1 %2").arg(resource.kind, name));
    m_headline->setText(resource.namespaced ? tr("%1 %2/%3").arg(resource.kind, ns, name)
                                            : tr("%1 %2").arg(resource.kind, name));
    QFont f = m_headline->font();
    f.setBold(true);
    m_headline->setFont(f);

    auto *buttons = new QDialogButtonBox(this);
    m_apply = buttons->addButton(tr("Apply…"), QDialogButtonBox::ActionRole);
    m_apply->setObjectName(QStringLiteral("queueYamlApply"));
    buttons->addButton(QDialogButtonBox::Close);
    connect(m_apply, &QPushButton::clicked, this, &QueueYamlDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_editor, &YamlEditor::validationFinished, this, &QueueYamlDialog::updateControls);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &QueueYamlDialog::updateControls);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 620);

    m_status->setText(tr("Reading %1…").arg(name));
    updateControls();
    if (!m_client) {
        onLoaded(Error::make(Error::Kind::Config, tr("Not connected to a cluster.")));
        return;
    }
    m_jobs.watch(m_client->get(m_resource, m_ns, m_name),
                 [this](const Result<QJsonObject> &result) { onLoaded(result); });
}

QString QueueYamlDialog::statusText() const {
    return m_status->text();
}

void QueueYamlDialog::onLoaded(const Result<QJsonObject> &result) {
    if (result) {
        m_base = *result;
        m_baseYaml = editableYaml(m_base);
        m_editor->setYaml(m_baseYaml);
        m_status->clear();
    } else {
        m_status->setText(tr("Cannot read %1: %2").arg(m_name, result.error().message));
    }
    updateControls();
    emit loaded();
}

void QueueYamlDialog::updateControls() {
    m_apply->setEnabled(!m_base.isEmpty() && !m_flow && m_editor->isChanged() && !m_editor->hasErrors());
}

void QueueYamlDialog::apply() {
    if (m_base.isEmpty() || m_flow)
        return;
    const QList<Error> errors = m_editor->validateNow();
    if (!errors.isEmpty()) {
        const Error &e = errors.first();
        m_status->setText(tr("Line %1: %2: %3").arg(e.line).arg(e.field, e.message));
        updateControls();
        return;
    }
    ApplyFlow::Request req;
    req.resource = m_resource;
    req.audit = m_auditSink;
    req.ns = m_ns;
    req.base = m_base;
    req.baseYaml = m_baseYaml;
    req.mineYaml = m_editor->yaml();
    if (const AuditHead head = m_auditHead ? m_auditHead() : AuditHead{}; head.count > 0)
        req.auditHead = head;
    auto *flow = new ApplyFlow(m_client, this, this);
    m_flow = flow;
    connect(flow, &ApplyFlow::progress, m_status, &QLabel::setText);
    connect(flow, &ApplyFlow::failed, this, [this, flow](const Error &error) {
        flow->deleteLater();
        m_flow.clear();
        QString text = tr("Apply failed: %1").arg(error.message);
        if (!error.field.isEmpty())
            text += QLatin1String(" (") + error.field + QLatin1Char(')');
        if (error.line > 0)
            text += tr(" at line %1").arg(error.line);
        m_status->setText(text);
        updateControls();
    });
    connect(flow, &ApplyFlow::cancelled, this, [this, flow] {
        flow->deleteLater();
        m_flow.clear();
        m_status->setText(tr("Apply cancelled; your edit is kept."));
        updateControls();
    });
    connect(flow, &ApplyFlow::applied, this, [this, flow](const QJsonObject &after) {
        flow->deleteLater();
        m_flow.clear();
        m_base = after;
        m_baseYaml = editableYaml(after);
        m_editor->setYaml(m_baseYaml);
        emit applied(m_ns, m_resource.kind + u'/' + m_name);
        m_status->setText(tr("Applied %1 %2").arg(m_resource.kind, m_name));
        emit statusMessage(m_status->text());
        updateControls();
    });
    connect(flow, &ApplyFlow::conflictResolved, this,
            [this, flow](ConflictDialog::Resolution res, const QString &text, const QJsonObject &server) {
                flow->deleteLater();
                m_flow.clear();
                if (res != ConflictDialog::Resolution::Cancelled) {
                    // What the view chose, now based on the server's version: Apply sends it.
                    m_base = server;
                    m_baseYaml = editableYaml(server);
                    m_editor->replaceAll(text);
                    m_status->setText(tr("The text now holds the resolution; Apply writes it."));
                } else {
                    m_status->setText(tr("The object changed on the server; your edit is kept."));
                }
                updateControls();
            });
    flow->start(req);
    updateControls();
}

} // namespace gq
