#include "widgets/quotapage.h"

#include "core/draftstore.h"
#include "core/quotaspec.h"
#include "models/namespacesummary.h"
#include "models/objectyaml.h"
#include "models/quotatablemodel.h"
#include "widgets/applyflow.h"
#include "widgets/hardlimitdelegate.h"
#include "widgets/usagebardelegate.h"
#include "widgets/yamleditor.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace gq {

namespace {
const QString kGpuResource = QStringLiteral("requests.nvidia.com/gpu");
}

QuotaPage::QuotaPage(ClusterSession *session, DraftStore *drafts, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_drafts(drafts)
    , m_model(new QuotaTableModel(this))
    , m_objects(new QComboBox(this))
    , m_yamlToggle(new QToolButton(this))
    , m_openFile(new QPushButton(tr("Open file..."), this))
    , m_saveFile(new QPushButton(tr("Save to file..."), this))
    , m_template(new QPushButton(tr("New from template..."), this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_editor(new YamlEditor(this))
    , m_empty(new QLabel(this))
    , m_warning(new QLabel(this))
    , m_gpuMinus(new QToolButton(this))
    , m_gpuPlus(new QToolButton(this))
    , m_newResource(new QComboBox(this))
    , m_newValue(new QLineEdit(this))
    , m_add(new QPushButton(tr("Add"), this))
    , m_remove(new QPushButton(tr("Remove row"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_apply(new QPushButton(tr("Apply"), this)) {
    m_objects->setObjectName(QStringLiteral("quotaObjectCombo"));
    m_objects->setMinimumContentsLength(16);
    m_yamlToggle->setObjectName(QStringLiteral("quotaYamlToggle"));
    m_yamlToggle->setText(tr("Edit as YAML"));
    m_yamlToggle->setCheckable(true);
    m_template->setObjectName(QStringLiteral("quotaTemplateButton"));

    m_table->setObjectName(QStringLiteral("quotaTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(QuotaTableModel::ResourceColumn, 230);
    m_table->horizontalHeader()->resizeSection(QuotaTableModel::UsedColumn, 90);
    m_table->horizontalHeader()->resizeSection(QuotaTableModel::HardColumn, 150);
    m_table->setItemDelegateForColumn(QuotaTableModel::HardColumn, new HardLimitDelegate(m_table));
    m_table->setItemDelegateForColumn(QuotaTableModel::UsageColumn,
                                      new UsageBarDelegate(QuotaTableModel::RatioRole, m_table));

    m_editor->setObjectName(QStringLiteral("quotaYamlEditor"));
    m_empty->setObjectName(QStringLiteral("quotaEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_editor);
    m_stack->addWidget(m_empty);

    m_warning->setObjectName(QStringLiteral("quotaWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("QLabel { background: #fbe3e1; border: 1px solid #d94a3d; "
                                            "border-radius: 4px; padding: 6px; color: #5a1710; }"));
    m_warning->hide();

    m_gpuMinus->setObjectName(QStringLiteral("gpuMinusButton"));
    m_gpuMinus->setText(QStringLiteral("\u2212"));
    m_gpuMinus->setToolTip(tr("One GPU less (%1)").arg(kGpuResource));
    m_gpuPlus->setObjectName(QStringLiteral("gpuPlusButton"));
    m_gpuPlus->setText(QStringLiteral("+"));
    m_gpuPlus->setToolTip(tr("One GPU more (%1)").arg(kGpuResource));
    auto *gpuLabel = new QLabel(tr("GPUs:"), this);

    m_newResource->setObjectName(QStringLiteral("newResourceCombo"));
    m_newResource->setEditable(true);
    m_newResource->addItems({kGpuResource, QStringLiteral("requests.cpu"), QStringLiteral("requests.memory"),
                             QStringLiteral("limits.cpu"), QStringLiteral("limits.memory"),
                             QStringLiteral("count/pods"), QStringLiteral("requests.storage"),
                             QStringLiteral("persistentvolumeclaims")});
    m_newResource->setMinimumContentsLength(18);
    m_newValue->setObjectName(QStringLiteral("newResourceValue"));
    m_newValue->setPlaceholderText(tr("limit, e.g. 4 or 64Gi"));
    m_newValue->setMaximumWidth(140);
    m_add->setObjectName(QStringLiteral("addResourceButton"));
    m_remove->setObjectName(QStringLiteral("removeResourceButton"));
    m_revert->setObjectName(QStringLiteral("revertButton"));
    m_apply->setObjectName(QStringLiteral("applyButton"));
    m_apply->setToolTip(tr("Validate, dry-run on the server, review the diff, then apply (Ctrl+S)"));
    m_apply->setDefault(true);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("ResourceQuota:"), this));
    top->addWidget(m_objects);
    top->addStretch(1);
    top->addWidget(m_template);
    top->addWidget(m_openFile);
    top->addWidget(m_saveFile);
    top->addWidget(m_yamlToggle);

    auto *addRow = new QHBoxLayout;
    addRow->addWidget(gpuLabel);
    addRow->addWidget(m_gpuMinus);
    addRow->addWidget(m_gpuPlus);
    addRow->addSpacing(16);
    addRow->addWidget(m_newResource);
    addRow->addWidget(m_newValue);
    addRow->addWidget(m_add);
    addRow->addWidget(m_remove);
    addRow->addStretch(1);

    auto *bottom = new QHBoxLayout;
    bottom->addStretch(1);
    bottom->addWidget(m_revert);
    bottom->addWidget(m_apply);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_warning);
    layout->addLayout(addRow);
    layout->addLayout(bottom);

    connect(m_objects, &QComboBox::activated, this, [this](int i) { loadObject(m_objects->itemText(i)); });
    connect(m_yamlToggle, &QToolButton::toggled, this, &QuotaPage::setYamlMode);
    connect(m_template, &QPushButton::clicked, this, &QuotaPage::templateRequested);
    m_openFile->setObjectName(QStringLiteral("quotaOpenFileButton"));
    m_openFile->setToolTip(tr("Load a manifest from a file into the YAML editor (undoable)"));
    m_saveFile->setObjectName(QStringLiteral("quotaSaveFileButton"));
    m_saveFile->setToolTip(tr("Save the YAML as it is now to a file"));
    connect(m_openFile, &QPushButton::clicked, this, &QuotaPage::openFile);
    connect(m_saveFile, &QPushButton::clicked, this, &QuotaPage::saveFile);
    connect(m_gpuMinus, &QToolButton::clicked, this, [this] { stepGpu(-1); });
    connect(m_gpuPlus, &QToolButton::clicked, this, [this] { stepGpu(+1); });
    connect(m_add, &QPushButton::clicked, this, &QuotaPage::addResource);
    connect(m_newValue, &QLineEdit::returnPressed, this, &QuotaPage::addResource);
    connect(m_remove, &QPushButton::clicked, this, &QuotaPage::removeSelected);
    connect(m_revert, &QPushButton::clicked, this, &QuotaPage::revert);
    connect(m_apply, &QPushButton::clicked, this, &QuotaPage::apply);
    connect(m_model, &QuotaTableModel::dirtyChanged, this, &QuotaPage::updateControls);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &QuotaPage::updateControls);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &QuotaPage::updateControls);
    connect(m_editor, &YamlEditor::validityChanged, this, &QuotaPage::updateControls);
    connect(m_editor, &YamlEditor::validationFinished, this, &QuotaPage::updateControls);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &QuotaPage::updateControls);
    connect(m_session, &ClusterSession::quotasChanged, this, &QuotaPage::onQuotasChanged);
    connect(m_session, &ClusterSession::permissionsChanged, this, &QuotaPage::onPermissionsChanged);
    updateControls();
}

QuotaPage::~QuotaPage() = default;

bool QuotaPage::yamlMode() const {
    return m_stack->currentWidget() == m_editor;
}

bool QuotaPage::hasPendingEdit() const {
    return yamlMode() ? m_editor->isChanged() : m_model->isDirty();
}

void QuotaPage::setNamespace(const QString &ns) {
    if (ns == m_ns)
        return;
    m_ns = ns;
    m_name.clear();
    m_canUpdate = false;
    const EditPermissions p = m_session->permissions(ns);
    if (p.known)
        onPermissionsChanged(ns);
    else
        m_session->checkPermissions(ns);
    reloadObjects();
}

void QuotaPage::reloadObjects() {
    const QList<StoredObject> quotas = m_session->quotasIn(m_ns);
    QStringList names;
    for (const StoredObject &o : quotas)
        names << o.name;
    names.sort();
    m_objects->clear();
    m_objects->addItems(names);
    m_objects->setEnabled(names.size() > 1);
    QString pick = names.contains(m_name) ? m_name : (names.isEmpty() ? QString() : names.first());
    if (!pick.isEmpty())
        m_objects->setCurrentText(pick);
    loadObject(pick);
}

void QuotaPage::loadObject(const QString &name) {
    m_editor->unbindDraft();
    m_name = name;
    const auto obj = name.isEmpty() ? std::nullopt : m_session->quota(m_ns, name);
    if (!obj) {
        m_base = {};
        m_baseYaml.clear();
        m_model->load({}, {});
        m_empty->setText(
            m_ns.isEmpty() ? tr("Select a namespace on the left.")
                           : tr("Namespace %1 has no ResourceQuota.\nCreate one from a template.").arg(m_ns));
        m_stack->setCurrentWidget(m_empty);
        updateControls();
        return;
    }
    m_base = obj->object;
    m_baseYaml = editableYaml(m_base, QStringLiteral("ResourceQuota"));
    const QuotaUsage usage = ClusterSession::quotaUsageFromJson(m_base);
    m_model->load(usage.hard, usage.used);
    m_editor->setYaml(m_baseYaml);
    if (m_drafts) {
        const DraftKey key{m_session->contextName(), m_ns, QStringLiteral("ResourceQuota"), m_name};
        if (auto d = m_drafts->draft(key); d && d->text != m_baseYaml) {
            // A draft survived a crash or a closed window: bring it back, in YAML.
            m_editor->replaceAll(d->text);
            m_yamlToggle->setChecked(true);
            emit statusMessage(tr("Restored your unsaved draft of %1/%2 from %3")
                                   .arg(m_ns, m_name, d->savedAt.toLocalTime().toString(Qt::ISODate)));
        }
        m_editor->bindDraft(m_drafts, key, resourceVersionOf(m_base));
    }
    m_stack->setCurrentWidget(m_yamlToggle->isChecked() ? static_cast<QWidget *>(m_editor) : m_table);
    updateControls();
}

QString QuotaPage::tableYaml() const {
    auto spec = QuotaSpec::fromYaml(m_baseYaml.toUtf8());
    if (!spec)
        return m_baseYaml;
    const auto edited = m_model->editedHard();
    for (const QString &n : spec->hard.names())
        if (!edited.contains(n))
            spec->hard.remove(n);
    for (auto it = edited.constBegin(); it != edited.constEnd(); ++it) {
        const auto old = spec->hard.value(it.key());
        // Keep the user's text when the value did not change (no "128Gi" -> "137438953472").
        if (!old || *old != it.value())
            spec->hard.set(it.key(), it.value());
    }
    return QString::fromUtf8(spec->toYaml());
}

QString QuotaPage::currentYaml() const {
    return yamlMode() ? m_editor->yaml() : tableYaml();
}

void QuotaPage::setYamlMode(bool yaml) {
    if (m_base.isEmpty()) {
        m_yamlToggle->setChecked(false);
        return;
    }
    if (yaml == yamlMode())
        return;
    if (yaml) {
        const QString text = tableYaml();
        if (text != m_editor->yaml())
            m_editor->replaceAll(text);
        m_stack->setCurrentWidget(m_editor);
    } else {
        takeYamlIntoTable();
    }
    if (m_yamlToggle->isChecked() != yamlMode())
        m_yamlToggle->setChecked(yamlMode());
    updateControls();
}

// YAML -> table keeps the edit: its spec.hard becomes the table's pending values.
void QuotaPage::takeYamlIntoTable() {
    auto spec = QuotaSpec::fromYaml(m_editor->yaml().toUtf8());
    if (!spec) {
        emit errorMessage(tr("Fix the YAML before switching to the table: %1").arg(spec.error().message));
        return;
    }
    const QuotaUsage usage = ClusterSession::quotaUsageFromJson(m_base);
    m_model->load(usage.hard, usage.used);
    for (const auto &e : spec->hard) {
        const int row = m_model->rowOf(e.name);
        if (row >= 0)
            m_model->setHard(row, e.quantity);
        else
            m_model->addResource(e.name, e.quantity);
    }
    for (const QString &n : usage.hard.keys())
        if (!spec->hard.contains(n))
            m_model->removeResource(m_model->rowOf(n));
    m_stack->setCurrentWidget(m_table);
}

void QuotaPage::openFile() {
    auto *dialog = new QFileDialog(window(), tr("Open a ResourceQuota manifest"), QString(),
                                   tr("YAML files (*.yaml *.yml);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        setYamlMode(true);
        if (auto r = m_editor->loadFromFile(path); !r)
            emit errorMessage(r.error().message);
    });
    dialog->open();
}

void QuotaPage::saveFile() {
    auto *dialog = new QFileDialog(window(), tr("Save the manifest"), m_name + QStringLiteral(".yaml"),
                                   tr("YAML files (*.yaml *.yml);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const QString text = currentYaml();
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text.toUtf8()) < 0)
            emit errorMessage(tr("Cannot write %1: %2").arg(path, f.errorString()));
        else
            emit statusMessage(tr("Saved %1").arg(path));
    });
    dialog->open();
}

void QuotaPage::stepGpu(int delta) {
    int row = m_model->rowOf(kGpuResource);
    if (row < 0) {
        if (delta > 0)
            m_model->addResource(kGpuResource, Quantity::fromInt(1));
        return;
    }
    const Quantity cur = m_model->row(row).hard;
    const std::int64_t next = std::max<std::int64_t>(0, cur.value() + delta);
    m_model->setHard(row, Quantity::fromInt(next));
}

void QuotaPage::addResource() {
    const QString name = m_newResource->currentText().trimmed();
    auto q = Quantity::parse(m_newValue->text().trimmed());
    if (name.isEmpty() || !q) {
        emit errorMessage(q ? tr("Enter a resource name.")
                            : tr("\"%1\" is not a quantity: %2").arg(m_newValue->text(), q.error().message));
        return;
    }
    if (!m_model->addResource(name, *q)) {
        emit errorMessage(tr("%1 is already in the quota; edit its hard limit instead.").arg(name));
        return;
    }
    m_newValue->clear();
}

void QuotaPage::removeSelected() {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        m_model->removeResource(rows.first().row());
}

void QuotaPage::revert() {
    m_model->revert();
    m_editor->setYaml(m_baseYaml);
    if (m_drafts && !m_name.isEmpty())
        (void)m_drafts->discard({m_session->contextName(), m_ns, QStringLiteral("ResourceQuota"), m_name});
    updateControls();
}

void QuotaPage::onPermissionsChanged(const QString &ns) {
    if (ns != m_ns)
        return;
    const EditPermissions p = m_session->permissions(ns);
    m_canUpdate = p.known && p.updateQuota;
    m_denyReason = !p.known
                       ? tr("Checking your permissions...")
                       : tr("You may not update ResourceQuotas in %1 (SelfSubjectAccessReview denied%2).")
                             .arg(ns, p.reason.isEmpty() ? QString() : QLatin1String(": ") + p.reason);
    const bool canCreate = p.known && p.createQuota;
    m_template->setEnabled(canCreate);
    m_template->setToolTip(canCreate ? tr("Create a ResourceQuota and LimitRange from a template")
                                     : tr("You may not create ResourceQuotas in %1.").arg(ns));
    updateControls();
}

void QuotaPage::updateControls() {
    const bool hasObject = !m_base.isEmpty();
    const bool editable = hasObject && m_canUpdate;
    const bool busy = m_flow && m_flow->isRunning();
    m_model->setEditable(editable && !busy);
    m_editor->setReadOnly(!editable || busy);
    const QString why = hasObject ? m_denyReason : tr("No ResourceQuota selected");
    for (QWidget *w : std::initializer_list<QWidget *>{m_gpuMinus, m_gpuPlus, m_add, m_newResource,
                                                       m_newValue, m_remove}) {
        w->setEnabled(editable && !yamlMode() && !busy);
        if (!editable)
            w->setToolTip(why);
    }
    if (editable) {
        m_gpuMinus->setToolTip(tr("One GPU less (%1)").arg(kGpuResource));
        m_gpuPlus->setToolTip(tr("One GPU more (%1)").arg(kGpuResource));
        m_add->setToolTip(tr("Add a resource to the quota"));
        m_remove->setToolTip(tr("Stop limiting the selected resource"));
    }
    m_remove->setEnabled(m_remove->isEnabled() && m_table->selectionModel()->hasSelection());
    m_yamlToggle->setEnabled(hasObject);
    m_openFile->setEnabled(editable && !busy);
    m_saveFile->setEnabled(hasObject);
    const bool pending = hasPendingEdit();
    const bool valid = !yamlMode() || (!m_editor->hasErrors() && !m_editor->isValidationPending());
    m_apply->setEnabled(editable && pending && valid && !busy);
    m_apply->setToolTip(!editable ? why
                        : !valid  ? tr("Fix the errors marked in the editor first")
                        : pending
                            ? tr("Validate, dry-run on the server, review the diff, then apply (Ctrl+S)")
                            : tr("Nothing to apply"));
    m_revert->setEnabled(pending && !busy);

    const QStringList below = yamlMode() ? QStringList() : m_model->resourcesBelowUsed();
    m_warning->setVisible(!below.isEmpty());
    if (!below.isEmpty())
        m_warning->setText(tr("Below current use: %1. Pods already running keep running, but new pods will "
                              "be rejected by the API server until use falls below the new limit.")
                               .arg(below.join(QLatin1String(", "))));
}

void QuotaPage::apply() {
    if (!m_apply->isEnabled()) {
        if (yamlMode() && m_editor->hasErrors())
            emit errorMessage(tr("Apply refused: the YAML has errors (first on line %1).")
                                  .arg(m_editor->errors().first().line));
        return;
    }
    if (yamlMode()) {
        const QList<Error> errors = m_editor->validateNow();
        if (!errors.isEmpty()) {
            emit errorMessage(
                tr("Apply refused: the YAML has errors (first on line %1).").arg(errors.first().line));
            updateControls();
            return;
        }
    }
    ApplyFlow::Request req;
    req.kind = ApplyFlow::Kind::ResourceQuota;
    req.ns = m_ns;
    req.base = m_base;
    req.baseYaml = m_baseYaml;
    req.mineYaml = currentYaml();
    for (const QString &r : m_model->resourcesBelowUsed())
        req.extraWarnings
            << tr("%1: the new limit is below current use; running pods keep running, new pods will "
                  "be rejected.")
                   .arg(r);
    auto *flow = new ApplyFlow(m_session->client(), window(), this);
    m_flow = flow;
    connect(flow, &ApplyFlow::progress, this, &QuotaPage::statusMessage);
    connect(flow, &ApplyFlow::failed, this, &QuotaPage::onFlowFailed);
    connect(flow, &ApplyFlow::cancelled, this, [this, flow] {
        flow->deleteLater();
        emit statusMessage(tr("Apply cancelled; your edit is kept."));
        updateControls();
    });
    connect(flow, &ApplyFlow::applied, this,
            [this, flow](const QJsonObject &after, const QString &beforeYaml, const QString &afterYaml,
                         const QString &diffText, const QString &note) {
                flow->deleteLater();
                emit applied(m_ns, QStringLiteral("ResourceQuota/") + m_name, beforeYaml, afterYaml, diffText,
                             note);
                if (m_drafts)
                    (void)m_drafts->discard(
                        {m_session->contextName(), m_ns, QStringLiteral("ResourceQuota"), m_name});
                m_base = after;
                m_baseYaml = editableYaml(after, QStringLiteral("ResourceQuota"));
                const QuotaUsage usage = ClusterSession::quotaUsageFromJson(after);
                m_model->load(usage.hard, usage.used);
                m_editor->setYaml(m_baseYaml);
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

void QuotaPage::onFlowFailed(const Error &error) {
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
    if (error.line > 0 && yamlMode())
        m_editor->goToPosition(error.line, error.column);
    updateControls();
}

void QuotaPage::onConflictResolved(int resolution, const QString &text, const QJsonObject &server) {
    const auto res = ConflictDialog::Resolution(resolution);
    if (res == ConflictDialog::Resolution::Cancelled) {
        emit statusMessage(tr("Conflict left open: your edit is kept, nothing was written."));
        updateControls();
        return;
    }
    // From here the edit is based on what the server has now.
    m_base = server;
    m_baseYaml = editableYaml(server, QStringLiteral("ResourceQuota"));
    const QuotaUsage usage = ClusterSession::quotaUsageFromJson(server);
    m_model->load(usage.hard, usage.used);
    m_editor->setYaml(m_baseYaml);
    if (res != ConflictDialog::Resolution::DiscardMine) {
        m_editor->replaceAll(text);
        m_yamlToggle->setChecked(true);
        m_stack->setCurrentWidget(m_editor);
        emit statusMessage(res == ConflictDialog::Resolution::Overwrite
                               ? tr("Your version is now based on the server's; press Apply to overwrite.")
                               : tr("Your change was rebased onto the server's version; review and Apply."));
    } else {
        emit statusMessage(tr("Your change was discarded; showing the server's version."));
    }
    updateControls();
}

void QuotaPage::showServerChangeConflict(const QJsonObject &server) {
    m_conflictOpen = true;
    const QString mine = currentYaml();
    auto *dialog = ApplyFlow::openConflict(
        window(), QStringLiteral("ResourceQuota %1/%2").arg(m_ns, m_name),
        tr("Someone changed this ResourceQuota on the server while you were editing it."), m_baseYaml, mine,
        editableYaml(server, QStringLiteral("ResourceQuota")));
    connect(dialog, &ConflictDialog::resolved, this,
            [this, server](ConflictDialog::Resolution res, const QString &text) {
                m_conflictOpen = false;
                onConflictResolved(int(res), text, server);
            });
}

void QuotaPage::onQuotasChanged(const QString &ns) {
    if (!ns.isEmpty() && ns != m_ns)
        return;
    const auto current = m_name.isEmpty() ? std::nullopt : m_session->quota(m_ns, m_name);
    if (!m_name.isEmpty() && !current) {
        if (hasPendingEdit())
            emit errorMessage(
                tr("ResourceQuota %1/%2 was deleted on the server; your edit is kept in the editor.")
                    .arg(m_ns, m_name));
        else
            reloadObjects();
        return;
    }
    if (m_name.isEmpty() || !current) {
        reloadObjects();
        return;
    }
    if (resourceVersionOf(current->object) == resourceVersionOf(m_base))
        return;
    const QString serverYaml = editableYaml(current->object, QStringLiteral("ResourceQuota"));
    const QuotaUsage usage = ClusterSession::quotaUsageFromJson(current->object);
    if (serverYaml == m_baseYaml) {
        // Only status (used) moved: the edit is still based on the same spec.
        m_base = current->object;
        m_model->updateUsed(usage.used);
        updateControls();
        return;
    }
    if (!hasPendingEdit()) {
        m_base = current->object;
        m_baseYaml = serverYaml;
        m_model->load(usage.hard, usage.used);
        m_editor->setYaml(m_baseYaml);
        updateControls();
        return;
    }
    if (!m_conflictOpen && !(m_flow && m_flow->isRunning()))
        showServerChangeConflict(current->object);
}

} // namespace gq
