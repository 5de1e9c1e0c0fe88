#include "widgets/limitrangepage.h"

#include "core/draftstore.h"
#include "core/limitrangespec.h"
#include "models/limitrangemodel.h"
#include "models/objectyaml.h"
#include "widgets/applyflow.h"
#include "widgets/yamleditor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

namespace {
const QString kKind = QStringLiteral("LimitRange");

QList<LimitRangeRow> rowsOf(const QList<StoredObject> &objects) {
    QList<LimitRangeRow> rows;
    for (const StoredObject &o : objects) {
        auto spec = LimitRangeSpec::fromJson(o.object);
        if (!spec)
            continue;
        for (const LimitRangeItem &item : spec->limits) {
            QStringList resources;
            for (const ResourceList *l :
                 {&item.min, &item.max, &item.defaultLimit, &item.defaultRequest, &item.maxLimitRequestRatio})
                for (const QString &n : l->names())
                    if (!resources.contains(n))
                        resources << n;
            for (const QString &r : resources) {
                auto text = [&](const ResourceList &l) {
                    const auto v = l.value(r);
                    return v ? v->toString() : QString();
                };
                rows << LimitRangeRow{o.name,
                                      item.type,
                                      r,
                                      text(item.min),
                                      text(item.max),
                                      text(item.defaultLimit),
                                      text(item.defaultRequest),
                                      text(item.maxLimitRequestRatio)};
            }
        }
    }
    return rows;
}
} // namespace

LimitRangePage::LimitRangePage(ClusterSession *session, DraftStore *drafts, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_drafts(drafts)
    , m_model(new LimitRangeModel(this))
    , m_objects(new QComboBox(this))
    , m_template(new QPushButton(tr("New from template..."), this))
    , m_table(new QTableView(this))
    , m_editor(new YamlEditor(this))
    , m_empty(new QLabel(this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_apply(new QPushButton(tr("Apply"), this)) {
    m_objects->setObjectName(QStringLiteral("limitRangeObjectCombo"));
    m_objects->setMinimumContentsLength(16);
    m_template->setObjectName(QStringLiteral("limitRangeTemplateButton"));
    m_table->setObjectName(QStringLiteral("limitRangeTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_editor->setObjectName(QStringLiteral("limitRangeYamlEditor"));
    m_empty->setObjectName(QStringLiteral("limitRangeEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->hide();
    m_revert->setObjectName(QStringLiteral("limitRangeRevertButton"));
    m_apply->setObjectName(QStringLiteral("limitRangeApplyButton"));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("LimitRange:"), this));
    top->addWidget(m_objects);
    top->addStretch(1);
    top->addWidget(m_template);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_editor);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    auto *bottom = new QHBoxLayout;
    bottom->addStretch(1);
    bottom->addWidget(m_revert);
    bottom->addWidget(m_apply);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_empty);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connect(m_objects, &QComboBox::activated, this, [this](int i) { loadObject(m_objects->itemText(i)); });
    connect(m_template, &QPushButton::clicked, this, &LimitRangePage::templateRequested);
    connect(m_revert, &QPushButton::clicked, this, &LimitRangePage::revert);
    connect(m_apply, &QPushButton::clicked, this, &LimitRangePage::apply);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &LimitRangePage::updateControls);
    connect(m_editor, &YamlEditor::validityChanged, this, &LimitRangePage::updateControls);
    connect(m_editor, &YamlEditor::validationFinished, this, &LimitRangePage::updateControls);
    connect(m_session, &ClusterSession::limitRangesChanged, this, &LimitRangePage::onChanged);
    connect(m_session, &ClusterSession::permissionsChanged, this, &LimitRangePage::onPermissionsChanged);
    updateControls();
}

bool LimitRangePage::hasPendingEdit() const {
    return !m_base.isEmpty() && m_editor->isChanged();
}

void LimitRangePage::setNamespace(const QString &ns) {
    if (ns == m_ns)
        return;
    m_ns = ns;
    m_name.clear();
    m_canUpdate = false;
    if (m_session->permissions(ns).known)
        onPermissionsChanged(ns);
    reload();
}

void LimitRangePage::reload() {
    const QList<StoredObject> objects = m_session->limitRangesIn(m_ns);
    m_model->setRows(rowsOf(objects));
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
    m_empty->setVisible(names.isEmpty());
    m_empty->setText(m_ns.isEmpty()
                         ? tr("Select a namespace on the left.")
                         : tr("Namespace %1 has no LimitRange. Create one from a template.").arg(m_ns));
    loadObject(pick);
}

void LimitRangePage::loadObject(const QString &name) {
    m_editor->unbindDraft();
    m_name = name;
    const auto obj = name.isEmpty() ? std::nullopt : m_session->limitRange(m_ns, name);
    if (!obj) {
        m_base = {};
        m_baseYaml.clear();
        m_editor->setYaml(QString());
        updateControls();
        return;
    }
    m_base = obj->object;
    m_baseYaml = editableYaml(m_base, kKind);
    m_editor->setYaml(m_baseYaml);
    if (m_drafts) {
        const DraftKey key{m_session->contextName(), m_ns, kKind, m_name};
        if (auto d = m_drafts->draft(key); d && d->text != m_baseYaml) {
            m_editor->replaceAll(d->text);
            emit statusMessage(tr("Restored your unsaved draft of %1/%2").arg(m_ns, m_name));
        }
        m_editor->bindDraft(m_drafts, key, resourceVersionOf(m_base));
    }
    updateControls();
}

void LimitRangePage::onPermissionsChanged(const QString &ns) {
    if (ns != m_ns)
        return;
    const EditPermissions p = m_session->permissions(ns);
    m_canUpdate = p.known && p.updateLimitRange;
    m_denyReason = !p.known
                       ? tr("Checking your permissions...")
                       : tr("You may not update LimitRanges in %1 (SelfSubjectAccessReview denied).").arg(ns);
    const bool canCreate = p.known && p.createLimitRange;
    m_template->setEnabled(canCreate);
    m_template->setToolTip(canCreate ? tr("Create a ResourceQuota and LimitRange from a template")
                                     : tr("You may not create LimitRanges in %1.").arg(ns));
    updateControls();
}

void LimitRangePage::updateControls() {
    const bool has = !m_base.isEmpty();
    const bool busy = m_flow && m_flow->isRunning();
    const bool editable = has && m_canUpdate && !busy;
    m_editor->setReadOnly(!editable);
    m_editor->setToolTip(has && !m_canUpdate ? m_denyReason : QString());
    const bool valid = !m_editor->hasErrors() && !m_editor->isValidationPending();
    m_apply->setEnabled(editable && hasPendingEdit() && valid);
    m_apply->setToolTip(!has           ? tr("No LimitRange selected")
                        : !m_canUpdate ? m_denyReason
                        : !valid       ? tr("Fix the errors marked in the editor first")
                                       : tr("Validate, dry-run, review the diff, then apply (Ctrl+S)"));
    m_revert->setEnabled(hasPendingEdit() && !busy);
}

void LimitRangePage::revert() {
    m_editor->setYaml(m_baseYaml);
    if (m_drafts && !m_name.isEmpty())
        (void)m_drafts->discard({m_session->contextName(), m_ns, kKind, m_name});
    updateControls();
}

void LimitRangePage::adopt(const QJsonObject &server) {
    m_base = server;
    m_baseYaml = editableYaml(server, kKind);
    m_model->setRows(rowsOf(m_session->limitRangesIn(m_ns)));
}

void LimitRangePage::apply() {
    const QList<Error> errors = m_editor->validateNow();
    if (!errors.isEmpty()) {
        emit errorMessage(
            tr("Apply refused: the YAML has errors (first on line %1).").arg(errors.first().line));
        updateControls();
        return;
    }
    if (!m_apply->isEnabled())
        return;
    ApplyFlow::Request req;
    req.kind = ApplyFlow::Kind::LimitRange;
    req.ns = m_ns;
    req.base = m_base;
    req.baseYaml = m_baseYaml;
    req.mineYaml = m_editor->yaml();
    auto *flow = new ApplyFlow(m_session->client(), window(), this);
    m_flow = flow;
    connect(flow, &ApplyFlow::progress, this, &LimitRangePage::statusMessage);
    connect(flow, &ApplyFlow::failed, this, [this, flow](const Error &e) {
        flow->deleteLater();
        QString msg = tr("Apply failed: %1").arg(e.message);
        if (e.line > 0) {
            msg += tr(" at line %1").arg(e.line);
            m_editor->goToPosition(e.line, e.column);
        }
        emit errorMessage(msg);
        updateControls();
    });
    connect(flow, &ApplyFlow::cancelled, this, [this, flow] {
        flow->deleteLater();
        updateControls();
    });
    connect(flow, &ApplyFlow::applied, this,
            [this, flow](const QJsonObject &after, const QString &beforeYaml, const QString &afterYaml,
                         const QString &diffText, const QString &note) {
                flow->deleteLater();
                emit applied(m_ns, kKind + QLatin1Char('/') + m_name, beforeYaml, afterYaml, diffText, note);
                if (m_drafts)
                    (void)m_drafts->discard({m_session->contextName(), m_ns, kKind, m_name});
                adopt(after);
                m_editor->setYaml(m_baseYaml);
                emit statusMessage(tr("Applied %1/%2").arg(m_ns, m_name));
                updateControls();
            });
    connect(flow, &ApplyFlow::conflictResolved, this,
            [this, flow](ConflictDialog::Resolution res, const QString &text, const QJsonObject &server) {
                flow->deleteLater();
                if (res == ConflictDialog::Resolution::Cancelled)
                    return updateControls();
                adopt(server);
                m_editor->setYaml(m_baseYaml);
                if (res != ConflictDialog::Resolution::DiscardMine)
                    m_editor->replaceAll(text);
                updateControls();
            });
    flow->start(req);
    updateControls();
}

void LimitRangePage::onChanged(const QString &ns) {
    if (!ns.isEmpty() && ns != m_ns)
        return;
    const auto current = m_name.isEmpty() ? std::nullopt : m_session->limitRange(m_ns, m_name);
    if (!current || !hasPendingEdit()) {
        if (!current || resourceVersionOf(current->object) != resourceVersionOf(m_base))
            reload();
        return;
    }
    if (resourceVersionOf(current->object) == resourceVersionOf(m_base))
        return;
    const QString serverYaml = editableYaml(current->object, kKind);
    if (serverYaml == m_baseYaml) {
        m_base = current->object;
        return;
    }
    if (m_conflictOpen || (m_flow && m_flow->isRunning()))
        return;
    m_conflictOpen = true;
    const QJsonObject server = current->object;
    auto *dialog = ApplyFlow::openConflict(
        window(), QStringLiteral("LimitRange %1/%2").arg(m_ns, m_name),
        tr("Someone changed this LimitRange on the server while you were editing it."), m_baseYaml,
        m_editor->yaml(), serverYaml);
    connect(dialog, &ConflictDialog::resolved, this,
            [this, server](ConflictDialog::Resolution res, const QString &text) {
                m_conflictOpen = false;
                if (res == ConflictDialog::Resolution::Cancelled)
                    return;
                adopt(server);
                m_editor->setYaml(m_baseYaml);
                if (res != ConflictDialog::Resolution::DiscardMine)
                    m_editor->replaceAll(text);
                updateControls();
            });
}

} // namespace gq
