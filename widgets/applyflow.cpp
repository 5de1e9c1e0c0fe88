#include "widgets/applyflow.h"

#include "core/kubeclient.h"
#include "core/limitrangespec.h"
#include "core/quotaspec.h"
#include "core/specdiff.h"
#include "core/validation.h"
#include "models/futurecall.h"
#include "models/objectyaml.h"
#include "widgets/applyconfirmdialog.h"

#include <QWidget>

namespace gq {

namespace {
// Decodes and validates the edited text; the Error carries the line of the first
// problem so the editor can point at it.
Result<QJsonObject> prepare(ApplyFlow::Kind kind, const QString &yaml, const QString &baseYaml,
                            QString *diffText) {
    const QByteArray bytes = yaml.toUtf8();
    auto firstProblem = [](const QList<Error> &problems) {
        Error e = problems.first();
        if (problems.size() > 1)
            e.causes.clear();
        return e;
    };
    if (kind == ApplyFlow::Kind::ResourceQuota) {
        auto spec = QuotaSpec::fromYaml(bytes);
        if (!spec)
            return spec.error();
        const QList<Error> problems = validateQuota(*spec);
        if (!problems.isEmpty())
            return firstProblem(problems);
        if (auto base = QuotaSpec::fromYaml(baseYaml.toUtf8()))
            *diffText = diffQuota(*base, *spec).toText();
        else
            *diffText = diffQuota(QuotaSpec(), *spec).toText();
        return spec->toJson();
    }
    auto spec = LimitRangeSpec::fromYaml(bytes);
    if (!spec)
        return spec.error();
    const QList<Error> problems = validateLimitRange(*spec);
    if (!problems.isEmpty())
        return firstProblem(problems);
    if (auto base = LimitRangeSpec::fromYaml(baseYaml.toUtf8()))
        *diffText = diffLimitRange(*base, *spec).toText();
    else
        *diffText = diffLimitRange(LimitRangeSpec(), *spec).toText();
    return spec->toJson();
}

QString nameOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}
} // namespace

ApplyFlow::ApplyFlow(std::shared_ptr<KubeClient> client, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_dialogParent(dialogParent) {}

QString ApplyFlow::kindName(Kind kind) {
    return kind == Kind::ResourceQuota ? QStringLiteral("ResourceQuota") : QStringLiteral("LimitRange");
}

const KubeResource &ApplyFlow::resource() const {
    return m_req.kind == Kind::ResourceQuota ? KubeResource::resourceQuotas() : KubeResource::limitRanges();
}

QString ApplyFlow::describe() const {
    return kindName(m_req.kind) + QLatin1Char(' ') + m_req.ns + QLatin1Char('/') + m_name;
}

void ApplyFlow::fail(const Error &error) {
    m_running = false;
    emit failed(error);
}

void ApplyFlow::start(const Request &request) {
    m_req = request;
    m_running = true;
    auto prepared = prepare(m_req.kind, m_req.mineYaml, m_req.baseYaml, &m_diffText);
    if (!prepared) {
        fail(prepared.error());
        return;
    }
    m_payload = *prepared;
    QJsonObject meta = m_payload.value(QLatin1String("metadata")).toObject();
    const QString baseName = nameOf(m_req.base);
    m_name = meta.value(QLatin1String("name")).toString();
    if (!baseName.isEmpty() && m_name != baseName) {
        Error e = Error::make(Error::Kind::Invalid,
                              tr("The name cannot change from \"%1\" to \"%2\"; create a new object instead.")
                                  .arg(baseName, m_name),
                              QStringLiteral("metadata.name"));
        fail(e);
        return;
    }
    const QString metaNs = meta.value(QLatin1String("namespace")).toString();
    if (!metaNs.isEmpty() && metaNs != m_req.ns) {
        fail(Error::make(
            Error::Kind::Invalid,
            tr("The object names namespace \"%1\" but is being applied to \"%2\".").arg(metaNs, m_req.ns),
            QStringLiteral("metadata.namespace")));
        return;
    }
    meta.insert(QLatin1String("namespace"), m_req.ns);
    if (!m_req.base.isEmpty())
        meta.insert(QLatin1String("resourceVersion"), resourceVersionOf(m_req.base));
    m_payload.insert(QLatin1String("metadata"), meta);
    runDryRun();
}

void ApplyFlow::runDryRun() {
    emit progress(tr("Checking with the server (dry run)..."));
    WriteOptions opts;
    opts.dryRun = true;
    auto future = m_req.base.isEmpty() ? m_client->create(resource(), m_req.ns, m_payload, opts)
                                       : m_client->replace(resource(), m_req.ns, m_payload, opts);
    whenReady(future, this, [this](const Result<QJsonObject> &r) {
        if (!r) {
            if (r.error().kind == Error::Kind::Conflict)
                handleConflict();
            else
                fail(r.error());
            return;
        }
        confirm(*r);
    });
}

void ApplyFlow::confirm(const QJsonObject &dryRunResult) {
    m_afterYaml = editableYaml(dryRunResult, kindName(m_req.kind));
    auto *dialog = new ApplyConfirmDialog(m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectDescription(describe());
    dialog->setTexts(m_req.baseYaml, m_afterYaml);
    dialog->setChanges(m_diffText);
    dialog->setWarnings(m_req.extraWarnings);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { write(dialog->note()); });
    connect(dialog, &QDialog::rejected, this, [this] {
        m_running = false;
        emit cancelled();
    });
    emit progress(tr("Waiting for confirmation"));
    dialog->open();
}

void ApplyFlow::write(const QString &note) {
    emit progress(tr("Applying..."));
    auto future = m_req.base.isEmpty() ? m_client->create(resource(), m_req.ns, m_payload)
                                       : m_client->replace(resource(), m_req.ns, m_payload);
    whenReady(future, this, [this, note](const Result<QJsonObject> &r) {
        if (!r) {
            if (r.error().kind == Error::Kind::Conflict || r.error().kind == Error::Kind::AlreadyExists)
                handleConflict();
            else
                fail(r.error());
            return;
        }
        m_running = false;
        emit applied(*r, m_req.baseYaml, editableYaml(*r, kindName(m_req.kind)), m_diffText, note);
    });
}

// Someone else wrote the object since the edit began: fetch what is there now and
// let the user choose with all three versions in view.
void ApplyFlow::handleConflict() {
    emit progress(tr("The object changed on the server; fetching the current version..."));
    whenReady(m_client->get(resource(), m_req.ns, m_name), this, [this](const Result<QJsonObject> &r) {
        if (!r) {
            fail(r.error());
            return;
        }
        const QJsonObject server = *r;
        const QString serverYaml = editableYaml(server, kindName(m_req.kind));
        auto *dialog = openConflict(m_dialogParent, describe(),
                                    tr("The server rejected the write with 409 Conflict: the object was "
                                       "changed by someone else after you started editing."),
                                    m_req.baseYaml, m_req.mineYaml, serverYaml);
        connect(dialog, &ConflictDialog::resolved, this,
                [this, server](ConflictDialog::Resolution res, const QString &text) {
                    m_running = false;
                    emit conflictResolved(res, text, server);
                });
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
