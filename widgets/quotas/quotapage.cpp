#include "widgets/quotas/quotapage.h"

#include "core/domain/atomicfile.h"
#include "core/quotas/gpuquotakeys.h"

#include "widgets/editor/hardlimitdelegate.h"
#include "core/kube/managedfields.h"
#include "core/quotas/namespacesummary.h"
#include "core/domain/quotaspec.h"
#include "models/quotas/quotatablemodel.h"
#include "widgets/quotas/usagebardelegate.h"
#include "widgets/editor/yamleditor.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace gq {

namespace {
const QString kGpuResource = QStringLiteral("requests.nvidia.com/gpu");

// The key the GPU buttons step: gpukeys::stepKey over the table's keys (a DRA class's key
// where the quota counts GPUs by DRA).
QString gpuKey(const QuotaTableModel &model) {
    QStringList keys;
    for (int r = 0; r < model.rowCount(); ++r)
        keys << model.row(r).resource;
    return gpukeys::stepKey(keys);
}
} // namespace

QuotaPage::QuotaPage(DraftStore *drafts, QWidget *parent)
    : ObjectPage(drafts, ApplyFlow::Kind::ResourceQuota, parent)
    , m_model(new QuotaTableModel(this))
    , m_yamlToggle(new QToolButton(this))
    , m_openFile(new QPushButton(tr("Open file..."), this))
    , m_saveFile(new QPushButton(tr("Save to file..."), this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_emptyPage(new QWidget(this))
    , m_empty(new QLabel(m_emptyPage))
    , m_emptyCreate(new QPushButton(tr("Create quota from template..."), m_emptyPage))
    , m_warning(new QLabel(this))
    , m_gpuMinus(new QToolButton(this))
    , m_gpuPlus(new QToolButton(this))
    , m_newResource(new QComboBox(this))
    , m_newValue(new QLineEdit(this))
    , m_add(new QPushButton(tr("Add"), this))
    , m_remove(new QPushButton(tr("Remove row"), this))
    , m_undo(new QToolButton(this))
    , m_redo(new QToolButton(this))
    , m_undoAction(new QAction(tr("Undo"), this))
    , m_redoAction(new QAction(tr("Redo"), this)) {
    buildTableStack();
    layOutPage();
    connectControls();
    updateControls();
}

// The table, the YAML editor and the empty page with its create button, on one stack.
void QuotaPage::buildTableStack() {
    m_requestsPermissions = true;
    m_objects->setObjectName(QStringLiteral("quotaObjectCombo"));
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
    // A namespace without a quota is where a new team starts: offer the next step right
    // where the table would be, not only in the top row.
    m_emptyCreate->setObjectName(QStringLiteral("quotaEmptyCreateButton"));
    connect(m_emptyCreate, &QPushButton::clicked, this, &ObjectPage::templateRequested);
    auto *emptyLayout = new QVBoxLayout(m_emptyPage);
    emptyLayout->addStretch(1);
    emptyLayout->addWidget(m_empty);
    emptyLayout->addWidget(m_emptyCreate, 0, Qt::AlignHCenter);
    emptyLayout->addStretch(1);
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_editor);
    m_stack->addWidget(m_emptyPage);
    m_draftBar->setObjectName(QStringLiteral("quotaDraftOfferBar"));
}

// The warning, the GPU +/- and add-resource row, undo/redo, and the page around them.
void QuotaPage::layOutPage() {
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

    QHBoxLayout *top = makeTopRow(tr("ResourceQuota:"));
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

    // The table's own history; the YAML editor has its own Ctrl+Z. The shortcuts work
    // anywhere on this page (after clicking +, focus may be on a button), and text
    // fields keep their own Ctrl+Z: they claim it first (ShortcutOverride).
    m_undoAction->setObjectName(QStringLiteral("quotaUndoAction"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redoAction->setObjectName(QStringLiteral("quotaRedoAction"));
    m_redoAction->setShortcuts(QKeySequence::Redo);
    m_redoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_undoAction);
    addAction(m_redoAction);
    m_undo->setObjectName(QStringLiteral("quotaUndoButton"));
    m_undo->setText(tr("Undo"));
    m_undo->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    m_undo->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_redo->setObjectName(QStringLiteral("quotaRedoButton"));
    m_redo->setText(tr("Redo"));
    m_redo->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));
    m_redo->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    QHBoxLayout *bottom = makeBottomRow();
    bottom->insertWidget(0, m_undo);
    bottom->insertWidget(1, m_redo);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_draftBar);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_warning);
    layout->addLayout(addRow);
    layout->addLayout(bottom);
}

void QuotaPage::connectControls() {
    connect(m_yamlToggle, &QToolButton::toggled, this, &QuotaPage::setYamlMode);
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
    QUndoStack *undo = m_model->undoStack();
    auto undoStep = [this, undo] {
        if (m_undoAction->isEnabled())
            undo->undo();
    };
    auto redoStep = [this, undo] {
        if (m_redoAction->isEnabled())
            undo->redo();
    };
    connect(m_undoAction, &QAction::triggered, this, undoStep);
    connect(m_redoAction, &QAction::triggered, this, redoStep);
    connect(m_undo, &QToolButton::clicked, this, undoStep);
    connect(m_redo, &QToolButton::clicked, this, redoStep);
    connect(undo, &QUndoStack::indexChanged, this, &QuotaPage::updateControls);
    connect(undo, &QUndoStack::cleanChanged, this, &QuotaPage::updateControls);
    // Table edits autosave like editor text: every table edit is a step on the stack.
    connect(undo, &QUndoStack::indexChanged, this, &QuotaPage::autosaveTable);
    connect(m_model, &QuotaTableModel::dirtyChanged, this, &QuotaPage::updateControls);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &QuotaPage::updateControls);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &QuotaPage::updateControls);
    // "Boost this resource…": a temporary raise with a note, instead of an edit someone
    // must remember to undo.
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex at = m_table->indexAt(pos);
        if (!at.isValid() || !hasObject())
            return;
        const QString resource = m_model->row(at.row()).resource;
        QMenu menu(this);
        QAction *boost = menu.addAction(tr("Boost this resource…"));
        boost->setObjectName(QStringLiteral("boostResourceAction"));
        connect(boost, &QAction::triggered, this,
                [this, resource] { emit boostRequested(namespaceName(), currentObject(), resource); });
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
}

QuotaPage::~QuotaPage() {
    // The model and its undo stack die with the children, after this page is no longer
    // a QuotaPage; what they signal then must not reach it.
    m_model->undoStack()->disconnect(this);
    m_model->disconnect(this);
}

bool QuotaPage::editingYaml() const {
    return m_stack->currentWidget() == m_editor;
}

bool QuotaPage::hasPendingEdit() const {
    return editingYaml() ? m_editor->isChanged() : m_model->isDirty();
}

QList<StoredObject> QuotaPage::objectsIn(const QString &ns) const {
    return session() ? session()->quotasIn(ns) : QList<StoredObject>();
}

std::optional<StoredObject> QuotaPage::objectNamed(const QString &ns, const QString &name) const {
    return session() ? session()->quota(ns, name) : std::nullopt;
}

namespace {
// The keys of spec.hard that another field manager owns and re-applies (Argo CD, Flux,
// Helm: metadata.managedFields), by resource.
QMap<QString, QString> reapplyingOwners(const QJsonObject &quota) {
    QMap<QString, QString> out;
    const QJsonObject hard =
        quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
    for (auto it = hard.begin(); it != hard.end(); ++it)
        if (auto o = managedfields::foreignOwnerOfHardKey(quota, it.key());
            o && managedfields::revertsChanges(*o))
            out.insert(it.key(), o->manager);
    return out;
}
} // namespace

void QuotaPage::showBase(const QJsonObject &object) {
    if (object.isEmpty()) {
        m_loadingBase = true;
        m_model->load({}, {});
        m_loadingBase = false;
        m_empty->setText(
            namespaceName().isEmpty()
                ? tr("Select a namespace on the left.")
                : tr("Namespace %1 has no ResourceQuota, so its pods may use any number of GPUs.")
                      .arg(namespaceName()));
        m_emptyCreate->setVisible(!namespaceName().isEmpty());
        m_stack->setCurrentWidget(m_emptyPage);
        updateControls();
        return;
    }
    const QuotaUsage usage = ClusterConnection::quotaUsageFromJson(object);
    m_loadingBase = true; // a fresh table is not an edit: no draft to save or forget
    m_model->setOtherOwners(reapplyingOwners(object));
    m_model->load(usage.hard, usage.used);
    m_loadingBase = false;
    m_stack->setCurrentWidget(m_yamlToggle->isChecked() ? static_cast<QWidget *>(m_editor) : m_table);
}

void QuotaPage::baseStatusMoved(const QJsonObject &object) {
    m_model->setOtherOwners(reapplyingOwners(object));
    m_model->updateUsed(ClusterConnection::quotaUsageFromJson(object).used);
}

QString QuotaPage::denyUpdateText(const EditPermissions &p) const {
    return tr("You may not update ResourceQuotas in %1 (SelfSubjectAccessReview denied%2).")
        .arg(namespaceName(), p.reason.isEmpty() ? QString() : QLatin1String(": ") + p.reason);
}

QString QuotaPage::denyCreateText() const {
    return tr("You may not create ResourceQuotas in %1.").arg(namespaceName());
}

QString QuotaPage::noObjectText() const {
    return tr("No ResourceQuota selected");
}

QStringList QuotaPage::applyWarnings() const {
    QStringList out = m_model->ownerWarnings(true);
    for (const QString &r : m_model->resourcesBelowUsed())
        out << tr("%1: the new limit is below current use; running pods keep running, new pods will "
                  "be rejected.")
                   .arg(r);
    return out;
}

QString QuotaPage::tableYaml() const {
    auto spec = QuotaSpec::fromYaml(baseYaml().toUtf8());
    if (!spec)
        return baseYaml();
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

QString QuotaPage::pendingYaml() const {
    return editingYaml() ? m_editor->yaml() : tableYaml();
}

void QuotaPage::setYamlMode(bool yaml) {
    if (!hasObject()) {
        m_yamlToggle->setChecked(false);
        return;
    }
    if (yaml == editingYaml())
        return;
    if (yaml) {
        const QString text = tableYaml();
        if (text != m_editor->yaml())
            m_editor->replaceAll(text);
        m_stack->setCurrentWidget(m_editor);
    } else {
        takeYamlIntoTable();
    }
    if (m_yamlToggle->isChecked() != editingYaml())
        m_yamlToggle->setChecked(editingYaml());
    updateControls();
}

// YAML -> table keeps the edit: what the YAML changed relative to the table becomes
// one undo step, so the table's history survives a round trip through the editor.
void QuotaPage::takeYamlIntoTable() {
    auto spec = QuotaSpec::fromYaml(m_editor->yaml().toUtf8());
    if (!spec) {
        emit errorMessage(tr("Fix the YAML before switching to the table: %1").arg(spec.error().message));
        return;
    }
    struct Change {
        QString name;
        std::optional<Quantity> hard; // empty: remove the row
    };
    QList<Change> changes;
    for (const auto &e : spec->hard) {
        const int row = m_model->rowOf(e.name);
        if (row < 0 || m_model->row(row).removed || m_model->row(row).hard != e.quantity ||
            m_model->row(row).hard.toString() != e.quantity.toString())
            changes << Change{e.name, e.quantity};
    }
    for (const QString &n : m_model->editedHard().keys())
        if (!spec->hard.contains(n))
            changes << Change{n, std::nullopt};
    if (!changes.isEmpty()) {
        QUndoStack *undo = m_model->undoStack();
        undo->beginMacro(tr("Edit as YAML"));
        for (const Change &c : std::as_const(changes)) {
            const int row = m_model->rowOf(c.name);
            if (!c.hard)
                m_model->removeResource(row);
            else if (row < 0 || m_model->row(row).removed)
                m_model->addResource(c.name, *c.hard);
            else
                m_model->setHard(row, *c.hard);
        }
        undo->endMacro();
    }
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
    auto *dialog =
        new QFileDialog(window(), tr("Save the manifest"), currentObject() + QStringLiteral(".yaml"),
                        tr("YAML files (*.yaml *.yml);;All files (*)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const QString text = pendingYaml();
        if (auto w = writeFileAtomically(path, text.toUtf8()); !w)
            emit errorMessage(tr("Cannot write %1: %2").arg(path, w.error().message));
        else
            emit statusMessage(tr("Saved %1").arg(path));
    });
    dialog->open();
}

void QuotaPage::stepGpu(int delta) {
    const QString key = gpuKey(*m_model);
    int row = m_model->rowOf(key);
    if (row < 0) {
        if (delta > 0)
            m_model->addResource(key, Quantity::fromInt(1));
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

void QuotaPage::autosaveTable() {
    if (m_loadingBase || editingYaml() || !hasObject())
        return;
    saveEditAsDraft(m_model->isDirty() ? tableYaml() : baseYaml());
}

void QuotaPage::revertOtherEdits() {
    m_model->revert();
}

void QuotaPage::updateControls() {
    ObjectPage::updateControls();
    m_emptyCreate->setEnabled(m_template->isEnabled());
    m_emptyCreate->setToolTip(m_template->toolTip());
    const bool has = hasObject();
    const bool editable = mayEdit();
    const bool busy = isBusy();
    const bool yamlMode = editingYaml();
    m_model->setEditable(editable && !busy);
    const QString why = whyNoEdit();
    for (QWidget *w : std::initializer_list<QWidget *>{m_gpuMinus, m_gpuPlus, m_add, m_newResource,
                                                       m_newValue, m_remove}) {
        w->setEnabled(editable && !yamlMode && !busy);
        if (!editable)
            w->setToolTip(why);
    }
    if (editable) {
        m_gpuMinus->setToolTip(tr("One GPU less (%1)").arg(gpuKey(*m_model)));
        m_gpuPlus->setToolTip(tr("One GPU more (%1)").arg(gpuKey(*m_model)));
        m_add->setToolTip(tr("Add a resource to the quota"));
        m_remove->setToolTip(tr("Stop limiting the selected resource"));
    }
    m_remove->setEnabled(m_remove->isEnabled() && m_table->selectionModel()->hasSelection());
    m_yamlToggle->setEnabled(has);
    m_openFile->setEnabled(editable && !busy);
    m_saveFile->setEnabled(has);

    const QUndoStack *undo = m_model->undoStack();
    const bool tableEditable = editable && !yamlMode && !busy;
    const QString undoKey = QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText);
    const QString redoKey = QKeySequence(QKeySequence::Redo).toString(QKeySequence::NativeText);
    m_undoAction->setEnabled(tableEditable && undo->canUndo());
    m_redoAction->setEnabled(tableEditable && undo->canRedo());
    m_undo->setEnabled(m_undoAction->isEnabled());
    m_redo->setEnabled(m_redoAction->isEnabled());
    m_undo->setToolTip(!editable         ? why
                       : yamlMode        ? tr("The YAML editor has its own undo (%1)").arg(undoKey)
                       : undo->canUndo() ? tr("Undo: %1 (%2)").arg(undo->undoText(), undoKey)
                                         : tr("Nothing to undo"));
    m_redo->setToolTip(!editable         ? why
                       : yamlMode        ? tr("The YAML editor has its own redo (%1)").arg(redoKey)
                       : undo->canRedo() ? tr("Redo: %1 (%2)").arg(undo->redoText(), redoKey)
                                         : tr("Nothing to redo"));

    const QStringList below = yamlMode ? QStringList() : m_model->resourcesBelowUsed();
    QStringList lines;
    if (!below.isEmpty())
        lines << tr("Below current use: %1. Pods already running keep running, but new pods will "
                    "be rejected by the API server until use falls below the new limit.")
                     .arg(below.join(QLatin1String(", ")));
    if (!yamlMode) {
        lines << m_model->ownerWarnings(false);
        if (const QStringList ignored = m_model->ignoredResources(); !ignored.isEmpty())
            lines << tr("Not counted by quota: %1. Extended resources are limited only as requests.<name>; "
                        "these entries limit nothing.")
                         .arg(ignored.join(QLatin1String(", ")));
    }
    m_warning->setVisible(!lines.isEmpty());
    m_warning->setText(lines.join(QLatin1Char('\n')));
}

} // namespace gq
