#include "widgets/editor/objectpage.h"

#include "widgets/editor/diffview.h"
#include "models/quotas/namespacelistmodel.h"
#include "models/quotas/objectyaml.h"
#include "widgets/editor/yamleditor.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace gq {

// --- DraftOfferBar ---------------------------------------------------------------

DraftOfferBar::DraftOfferBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this)) {
    setObjectName(QStringLiteral("draftOfferBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setStyleSheet(QStringLiteral("gq--DraftOfferBar { background: #fdf3d6; border: 1px solid #e0a82e; "
                                 "border-radius: 4px; } QLabel { color: #202020; }"));
    auto *icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    icon->setPixmap(
        style()->standardIcon(QStyle::SP_MessageBoxInformation, nullptr, this).pixmap(size, size));
    m_label->setObjectName(QStringLiteral("draftOfferText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *restore = new QPushButton(tr("Restore"), this);
    restore->setObjectName(QStringLiteral("draftRestoreButton"));
    restore->setToolTip(tr("Put the draft back into the editor; nothing is applied until you press Apply"));
    auto *diff = new QPushButton(tr("Show diff"), this);
    diff->setObjectName(QStringLiteral("draftDiffButton"));
    diff->setToolTip(tr("Compare the draft with the object on the server"));
    auto *discard = new QPushButton(tr("Discard"), this);
    discard->setObjectName(QStringLiteral("draftDiscardButton"));
    discard->setToolTip(tr("Delete the draft for good"));
    connect(restore, &QPushButton::clicked, this, &DraftOfferBar::restoreRequested);
    connect(diff, &QPushButton::clicked, this, &DraftOfferBar::diffRequested);
    connect(discard, &QPushButton::clicked, this, &DraftOfferBar::discardRequested);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 6, 4);
    layout->addWidget(icon, 0, Qt::AlignVCenter);
    layout->addWidget(m_label, 1);
    layout->addWidget(restore);
    layout->addWidget(diff);
    layout->addWidget(discard);
    hide();
}

void DraftOfferBar::offer(const QString &message) {
    m_label->setText(message);
    show();
}

QString DraftOfferBar::text() const {
    return m_label->text();
}

// --- ObjectPage ------------------------------------------------------------------

ObjectPage::ObjectPage(DraftStore *drafts, ApplyFlow::Kind kind, QWidget *parent)
    : QWidget(parent)
    , m_objects(new QComboBox(this))
    , m_template(new QPushButton(tr("New from template..."), this))
    , m_editor(new YamlEditor(this))
    , m_draftBar(new DraftOfferBar(this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_apply(new QPushButton(tr("Apply"), this))
    , m_drafts(drafts)
    , m_kind(kind) {
    m_objects->setMinimumContentsLength(16);

    connect(m_objects, &QComboBox::activated, this, [this](int i) { loadObject(m_objects->itemText(i)); });
    connect(m_template, &QPushButton::clicked, this, &ObjectPage::templateRequested);
    connect(m_revert, &QPushButton::clicked, this, &ObjectPage::revert);
    connect(m_apply, &QPushButton::clicked, this, &ObjectPage::apply);
    connect(m_draftBar, &DraftOfferBar::restoreRequested, this, &ObjectPage::restoreDraft);
    connect(m_draftBar, &DraftOfferBar::diffRequested, this, &ObjectPage::showDraftDiff);
    connect(m_draftBar, &DraftOfferBar::discardRequested, this, &ObjectPage::discardDraft);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &ObjectPage::updateControls);
    connect(m_editor, &YamlEditor::validityChanged, this, &ObjectPage::updateControls);
    connect(m_editor, &YamlEditor::validationFinished, this, &ObjectPage::updateControls);
}

ObjectPage::~ObjectPage() {
    // The editor outlives this part of the object (children go last); its signals must
    // not call back into a page that is being destroyed.
    m_editor->disconnect(this);
    m_draftBar->disconnect(this);
}

QHBoxLayout *ObjectPage::makeTopRow(const QString &label) {
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(label, this));
    top->addWidget(m_objects);
    top->addStretch(1);
    top->addWidget(m_template);
    return top;
}

QHBoxLayout *ObjectPage::makeBottomRow() {
    auto *bottom = new QHBoxLayout;
    bottom->addStretch(1);
    bottom->addWidget(m_revert);
    bottom->addWidget(m_apply);
    return bottom;
}

DraftKey ObjectPage::draftKey() const {
    return {m_session ? m_session->contextName() : QString(), m_ns, kindName(), m_name};
}

bool ObjectPage::hasPendingEdit() const {
    return hasObject() && m_editor->isChanged();
}

QString ObjectPage::pendingYaml() const {
    return m_editor->yaml();
}

void ObjectPage::setConnection(ClusterConnection *connection) {
    if (connection == m_session)
        return;
    if (m_session)
        m_session->disconnect(this);
    m_session = connection;
    if (m_session) {
        connect(m_session,
                m_kind == ApplyFlow::Kind::ResourceQuota ? &ClusterConnection::quotasChanged
                                                         : &ClusterConnection::limitRangesChanged,
                this, &ObjectPage::onObjectsChanged);
        connect(m_session, &ClusterConnection::permissionsChanged, this, &ObjectPage::onPermissionsChanged);
        connect(m_session, &ClusterConnection::namespaceUpdated, this, [this](const NamespaceSummary &row) {
            if (row.name == m_ns && row.terminating != m_terminating)
                onPermissionsChanged(m_ns);
        });
    }
    // What is shown came from the old connection: show the namespace afresh (with none
    // selected nothing is shown yet).
    if (!m_ns.isEmpty())
        showNamespace(m_ns);
}

void ObjectPage::setNamespace(const QString &ns) {
    if (ns == m_ns)
        return;
    showNamespace(ns);
}

void ObjectPage::showNamespace(const QString &ns) {
    m_ns = ns;
    m_name.clear();
    m_canUpdate = false;
    m_terminating = false;
    if (m_session && (m_session->permissions(ns).known || m_session->isTerminating(ns)))
        onPermissionsChanged(ns);
    else if (m_session && m_requestsPermissions)
        m_session->checkPermissions(ns);
    reloadObjects();
}

void ObjectPage::reloadObjects() {
    namespaceObjectsChanged();
    const QList<StoredObject> objects = objectsIn(m_ns);
    QStringList names;
    for (const StoredObject &o : objects)
        names << o.name;
    names.sort();
    m_objects->clear();
    m_objects->addItems(names);
    m_objects->setEnabled(names.size() > 1);
    const QString pick = names.contains(m_name) ? m_name : (names.isEmpty() ? QString() : names.first());
    if (!pick.isEmpty())
        m_objects->setCurrentText(pick);
    loadObject(pick);
}

void ObjectPage::loadObject(const QString &name) {
    m_editor->unbindDraft();
    m_offered.reset();
    m_draftBar->hide();
    m_name = name;
    const auto obj = name.isEmpty() ? std::nullopt : objectNamed(m_ns, name);
    m_base = obj ? obj->object : QJsonObject();
    m_baseYaml = obj ? editableYaml(m_base, kindName()) : QString();
    m_editor->setYaml(m_baseYaml);
    showBase(m_base);
    if (obj)
        offerDraftOrBind();
    updateControls();
}

// From here the edit is based on `server`.
void ObjectPage::adopt(const QJsonObject &server) {
    m_base = server;
    m_baseYaml = editableYaml(server, kindName());
    m_editor->setYaml(m_baseYaml);
    showBase(m_base);
    if (!m_offered)
        bindDraft(); // the draft now names the new resourceVersion
}

// --- drafts ------------------------------------------------------------------------

void ObjectPage::bindDraft() {
    if (m_drafts && !m_name.isEmpty())
        m_editor->bindDraft(m_drafts, draftKey(), resourceVersionOf(m_base));
}

// Removes the draft of the current object unless it is on offer: a draft the user has
// not answered for is only ever deleted by Discard.
void ObjectPage::forgetDraft() {
    if (m_drafts && !m_name.isEmpty() && !m_offered)
        (void)m_drafts->discard(draftKey());
}

void ObjectPage::saveEditAsDraft(const QString &text) {
    if (!m_drafts || m_name.isEmpty() || !hasObject() || m_offered)
        return;
    if (text == m_baseYaml) {
        (void)m_drafts->discard(draftKey());
        return;
    }
    Draft d;
    d.key = draftKey();
    d.text = text;
    d.baseText = m_baseYaml;
    d.resourceVersion = resourceVersionOf(m_base);
    m_drafts->scheduleSave(d);
}

void ObjectPage::offerDraftOrBind() {
    std::optional<Draft> d = m_drafts ? m_drafts->draft(draftKey()) : std::nullopt;
    if (d && d->text == m_baseYaml) {
        (void)m_drafts->discard(draftKey()); // the same as the server: nothing to offer
        d.reset();
    }
    if (!d) {
        bindDraft();
        return;
    }
    // Until the user answers, the editor is not bound: typing must not overwrite the draft.
    m_offered = d;
    const QDateTime saved = d->savedAt.toLocalTime();
    const QLocale locale;
    // Minutes are enough to recognise one's own work; seconds are noise.
    const QString time = locale.toString(saved.time(), QStringLiteral("HH:mm"));
    const QString when = saved.date() == QDate::currentDate()
                             ? time
                             : locale.toString(saved.date(), QLocale::ShortFormat) + QLatin1Char(' ') + time;
    QString message = tr("An unsaved draft of %1/%2 from %3 was found.").arg(m_ns, m_name, when);
    if (!d->baseText.isEmpty() && d->baseText != m_baseYaml)
        message += QLatin1Char(' ') + tr("The object has changed on the server since; Restore lets you "
                                         "rebase the draft onto it.");
    m_draftBar->offer(message);
}

void ObjectPage::restoreDraft() {
    if (!m_offered)
        return;
    // The file may have changed since the offer (another window): take what is there now.
    const std::optional<Draft> d = m_drafts->draft(draftKey());
    m_offered.reset();
    m_draftBar->hide();
    if (!d) {
        emit errorMessage(tr("The draft of %1/%2 is no longer there.").arg(m_ns, m_name));
        bindDraft();
        updateControls();
        return;
    }
    if (!d->baseText.isEmpty() && d->baseText != m_baseYaml) {
        // Written against an older version: putting it back as it is would quietly undo
        // whatever changed on the server since, so it goes through the three-way view.
        m_conflictOpen = true;
        m_offered = d; // until the view is answered the draft stays as it is
        auto *dialog =
            ApplyFlow::openConflict(window(), QStringLiteral("%1 %2/%3").arg(kindName(), m_ns, m_name),
                                    tr("Your draft was written against an older version of this object."),
                                    d->baseText, d->text, m_baseYaml);
        const QJsonObject server = m_base;
        const DraftKey key = draftKey();
        connect(dialog, &ConflictDialog::resolved, this,
                [this, server, key](ConflictDialog::Resolution res, const QString &text) {
                    m_conflictOpen = false;
                    if (!(key == draftKey()))
                        return; // another object was opened meanwhile; its draft was offered anew
                    if (res == ConflictDialog::Resolution::Cancelled) {
                        offerDraftOrBind(); // still undecided: offer it again
                        updateControls();
                        return;
                    }
                    m_offered.reset();
                    if (res == ConflictDialog::Resolution::DiscardMine)
                        (void)m_drafts->discard(draftKey());
                    onConflictResolved(int(res), text, server);
                });
        return;
    }
    showEditor();
    bindDraft();
    m_editor->replaceAll(d->text);
    emit statusMessage(
        tr("Draft of %1/%2 restored; review it and press Apply when ready.").arg(m_ns, m_name));
    updateControls();
}

void ObjectPage::showDraftDiff() {
    if (!m_offered)
        return;
    auto *dialog = new QDialog(window());
    dialog->setObjectName(QStringLiteral("draftDiffDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Draft of %1/%2").arg(m_ns, m_name));
    auto *view = new DiffView(dialog);
    view->setObjectName(QStringLiteral("draftDiffView"));
    view->setTitles(tr("On the server now"), tr("Your draft"));
    view->setTexts(m_baseYaml, m_offered->text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(view, 1);
    layout->addWidget(buttons);
    dialog->resize(900, 560);
    // Non-modal: the bar keeps its buttons, the user can look and then decide.
    dialog->show();
}

void ObjectPage::discardDraft() {
    if (!m_offered)
        return;
    m_offered.reset();
    m_draftBar->hide();
    if (auto r = m_drafts->discard(draftKey()); !r)
        emit errorMessage(r.error().message);
    else
        emit statusMessage(tr("Draft of %1/%2 discarded.").arg(m_ns, m_name));
    bindDraft();
    updateControls();
}

// --- permissions and controls --------------------------------------------------------

void ObjectPage::onPermissionsChanged(const QString &ns) {
    if (ns != m_ns || !m_session)
        return;
    const EditPermissions p = m_session->permissions(ns);
    m_terminating = m_session->isTerminating(ns);
    m_canUpdate = p.known && mayUpdate(p) && !m_terminating;
    m_denyReason = m_terminating ? NamespaceListModel::terminatingReason()
                   : !p.known    ? tr("Checking your permissions...")
                                 : denyUpdateText(p);
    const bool canCreate = p.known && mayCreate(p) && !m_terminating;
    m_template->setEnabled(canCreate);
    m_template->setToolTip(canCreate       ? tr("Create a ResourceQuota and LimitRange from a template")
                           : m_terminating ? NamespaceListModel::terminatingReason()
                                           : denyCreateText());
    updateControls();
}

bool ObjectPage::mayEdit() const {
    return hasObject() && m_canUpdate && !m_offered;
}

QString ObjectPage::whyNoEdit() const {
    if (!hasObject())
        return noObjectText();
    if (m_offered)
        return tr("First restore or discard the unsaved draft found for this object (the bar above).");
    return m_denyReason;
}

void ObjectPage::updateControls() {
    const bool has = hasObject();
    const bool editable = mayEdit();
    const bool busy = isBusy();
    m_editor->setReadOnly(!editable || busy);
    m_editor->setToolTip(has && !editable ? whyNoEdit() : QString());
    const QString why = whyNoEdit();
    const bool pending = hasPendingEdit();
    const bool valid = !editingYaml() || (!m_editor->hasErrors() && !m_editor->isValidationPending());
    m_apply->setEnabled(editable && pending && valid && !busy);
    m_apply->setToolTip(!editable ? why
                        : !valid  ? tr("Fix the errors marked in the editor first")
                        : pending
                            ? tr("Validate, dry-run on the server, review the diff, then apply (Ctrl+S)")
                            : tr("Nothing to apply"));
    m_revert->setEnabled(pending && !busy);
}

// --- apply ---------------------------------------------------------------------------

void ObjectPage::revert() {
    revertOtherEdits();
    m_editor->setYaml(m_baseYaml);
    forgetDraft();
    updateControls();
}

void ObjectPage::apply() {
    if (editingYaml()) {
        const QList<Error> errors = m_editor->validateNow();
        if (!errors.isEmpty()) {
            emit errorMessage(
                tr("Apply refused: the YAML has errors (first on line %1).").arg(errors.first().line));
            updateControls();
            return;
        }
    }
    if (!m_apply->isEnabled() || !m_session)
        return;
    ApplyFlow::Request req;
    req.kind = m_kind;
    req.ns = m_ns;
    req.base = m_base;
    req.baseYaml = m_baseYaml;
    req.mineYaml = pendingYaml();
    req.extraWarnings = applyWarnings();
    if (const AuditHead head = m_auditHead ? m_auditHead() : AuditHead{}; head.count > 0)
        req.auditHead = head;
    req.audit = m_auditSink;
    auto *flow = new ApplyFlow(m_session->client(), window(), this);
    m_flow = flow;
    connect(flow, &ApplyFlow::progress, this, &ObjectPage::statusMessage);
    connect(flow, &ApplyFlow::failed, this, &ObjectPage::onFlowFailed);
    connect(flow, &ApplyFlow::cancelled, this, [this, flow] {
        flow->deleteLater();
        emit statusMessage(tr("Apply cancelled; your edit is kept."));
        updateControls();
    });
    connect(flow, &ApplyFlow::applied, this, [this, flow](const QJsonObject &after) {
        flow->deleteLater();
        emit applied(m_ns, kindName() + QLatin1Char('/') + m_name);
        forgetDraft();
        adopt(after);
        emit statusMessage(tr("Applied %1/%2").arg(m_ns, m_name));
        updateControls();
    });
    connect(flow, &ApplyFlow::conflictResolved, this,
            [this, flow](ConflictDialog::Resolution res, const QString &text, const QJsonObject &server) {
                flow->deleteLater();
                onConflictResolved(int(res), text, server);
            });
    flow->start(req);
    updateControls();
}

// The edit (table or text) stays where it is: a failed apply never loses it.
void ObjectPage::onFlowFailed(const Error &error) {
    if (m_flow)
        m_flow->deleteLater();
    QString msg = tr("Apply failed: %1").arg(error.message);
    if (!error.field.isEmpty())
        msg += QLatin1String(" (") + error.field + QLatin1Char(')');
    if (error.line > 0)
        msg += tr(" at line %1").arg(error.line);
    for (const Error::Cause &c : error.causes)
        msg += QLatin1String("\n\u2022 ") + c.field + QLatin1String(": ") + c.message;
    emit errorMessage(msg);
    if (error.line > 0 && editingYaml())
        m_editor->goToPosition(error.line, error.column);
    updateControls();
}

void ObjectPage::onConflictResolved(int resolution, const QString &text, const QJsonObject &server) {
    const auto res = ConflictDialog::Resolution(resolution);
    if (res == ConflictDialog::Resolution::Cancelled) {
        emit statusMessage(tr("Conflict left open: your edit is kept, nothing was written."));
        updateControls();
        return;
    }
    adopt(server);
    if (res != ConflictDialog::Resolution::DiscardMine) {
        showEditor();
        m_editor->replaceAll(text);
        emit statusMessage(res == ConflictDialog::Resolution::Overwrite
                               ? tr("Your version is now based on the server's; press Apply to overwrite.")
                               : tr("Your change was rebased onto the server's version; review and Apply."));
    } else {
        emit statusMessage(tr("Your change was discarded; showing the server's version."));
    }
    updateControls();
}

void ObjectPage::showServerChangeConflict(const QJsonObject &server) {
    m_conflictOpen = true;
    auto *dialog = ApplyFlow::openConflict(
        window(), QStringLiteral("%1 %2/%3").arg(kindName(), m_ns, m_name),
        tr("Someone changed this %1 on the server while you were editing it.").arg(kindName()), m_baseYaml,
        pendingYaml(), editableYaml(server, kindName()));
    connect(dialog, &ConflictDialog::resolved, this,
            [this, server](ConflictDialog::Resolution res, const QString &text) {
                m_conflictOpen = false;
                onConflictResolved(int(res), text, server);
            });
}

void ObjectPage::onObjectsChanged(const QString &ns) {
    if (!ns.isEmpty() && ns != m_ns)
        return;
    namespaceObjectsChanged();
    const auto current = m_name.isEmpty() ? std::nullopt : objectNamed(m_ns, m_name);
    if (!current) {
        if (!m_name.isEmpty() && hasPendingEdit())
            emit errorMessage(tr("%1 %2/%3 was deleted on the server; your edit is kept in the editor.")
                                  .arg(kindName(), m_ns, m_name));
        else
            reloadObjects();
        return;
    }
    if (resourceVersionOf(current->object) == resourceVersionOf(m_base))
        return;
    const QString serverYaml = editableYaml(current->object, kindName());
    if (serverYaml == m_baseYaml) {
        // Only status (used) moved: the edit is still based on the same spec.
        m_base = current->object;
        baseStatusMoved(m_base);
        updateControls();
        return;
    }
    if (!hasPendingEdit()) {
        adopt(current->object);
        updateControls();
        return;
    }
    if (!m_conflictOpen && !isBusy())
        showServerChangeConflict(current->object);
}

} // namespace gq
