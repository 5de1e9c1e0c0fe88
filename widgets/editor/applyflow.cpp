#include "widgets/editor/applyflow.h"

#include "widgets/editor/applyconfirmdialog.h"
#include "core/kube/kubeclient.h"
#include "models/quotas/objectyaml.h"

#include <QWidget>

namespace gq {

ApplyFlow::ApplyFlow(std::shared_ptr<KubeClient> client, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_writer(new QuotaWriter(std::move(client), this))
    , m_dialogParent(dialogParent) {
    connect(m_writer, &QuotaWriter::stateChanged, this, &ApplyFlow::onStateChanged);
}

QString ApplyFlow::kindName(Kind kind) {
    return kind == Kind::ResourceQuota ? QStringLiteral("ResourceQuota") : QStringLiteral("LimitRange");
}

QString ApplyFlow::describe() const {
    if (m_req.resource)
        return m_resource.kind + QLatin1Char(' ') +
               (m_resource.namespaced ? m_req.ns + QLatin1Char('/') : QString()) + m_writer->name();
    return kindName(m_req.kind) + QLatin1Char(' ') + m_req.ns + QLatin1Char('/') + m_writer->name();
}

QString ApplyFlow::editable(const QJsonObject &object) const {
    return editableYaml(object, m_req.resource ? QString() : kindName(m_req.kind));
}

void ApplyFlow::start(const Request &request) {
    m_req = request;
    m_running = true;
    QuotaWriter::Request w;
    // QuotaWriter knows its own kinds by their static descriptions' addresses.
    if (request.resource) {
        m_resource = *request.resource;
        w.resource = &m_resource;
    } else {
        w.resource = request.kind == Kind::ResourceQuota ? &KubeResource::resourceQuotas()
                                                         : &KubeResource::limitRanges();
    }
    w.ns = request.ns;
    w.base = request.base;
    w.mineYaml = request.mineYaml;
    w.auditHead = request.auditHead;
    m_writer->setAuditSink(request.audit);
    m_writer->setAuditNote({});
    m_writer->start(w);
}

void ApplyFlow::onStateChanged(QuotaWriter::State state) {
    switch (state) {
    case QuotaWriter::State::DryRunning: emit progress(tr("Checking with the server (dry run)...")); break;
    case QuotaWriter::State::AwaitingConfirmation: askConfirmation(m_writer->preview()); break;
    case QuotaWriter::State::Applying: emit progress(tr("Applying...")); break;
    case QuotaWriter::State::FetchingTheirs:
        emit progress(tr("The object changed on the server; fetching the current version..."));
        break;
    case QuotaWriter::State::Applied: {
        m_running = false;
        const QJsonObject &after = m_writer->result();
        emit applied(after);
        break;
    }
    case QuotaWriter::State::Conflict: showConflict(m_writer->conflict()); break;
    case QuotaWriter::State::Failed:
        m_running = false;
        emit failed(m_writer->error());
        break;
    case QuotaWriter::State::Cancelled:
        m_running = false;
        emit cancelled();
        break;
    case QuotaWriter::State::Idle:
    case QuotaWriter::State::Validated: break;
    }
}

void ApplyFlow::askConfirmation(const QuotaWriter::Preview &preview) {
    auto *dialog = new ApplyConfirmDialog(m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectDescription(describe());
    dialog->setTexts(m_req.baseYaml, editable(preview.dryRunResult));
    dialog->setChanges(preview.diffText);
    dialog->setWarnings(m_req.extraWarnings);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_writer->setAuditNote(dialog->note());
        m_writer->confirm();
    });
    connect(dialog, &QDialog::rejected, m_writer, &QuotaWriter::cancel);
    emit progress(tr("Waiting for confirmation"));
    dialog->open();
}

// The three versions as the user edits them: the editor's texts and the server's now.
void ApplyFlow::showConflict(const QuotaWriter::ConflictView &conflict) {
    const QJsonObject server = conflict.theirs;
    auto *dialog = openConflict(m_dialogParent, describe(),
                                tr("The server rejected the write with 409 Conflict: the object was "
                                   "changed by someone else after you started editing."),
                                m_req.baseYaml, m_req.mineYaml, editable(server));
    connect(dialog, &ConflictDialog::resolved, this,
            [this, server](ConflictDialog::Resolution res, const QString &text) {
                m_running = false;
                emit conflictResolved(res, text, server);
            });
}

ConflictDialog *ApplyFlow::openConflict(QWidget *parent, const QString &description, const QString &reason,
                                        const QString &base, const QString &mine, const QString &server) {
    auto *dialog = new ConflictDialog(parent);
    dialog->setObjectName(QStringLiteral("conflictDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectDescription(description, reason);
    dialog->setVersions(base, mine, server);
    dialog->open();
    return dialog;
}

} // namespace gq
