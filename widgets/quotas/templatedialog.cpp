#include "widgets/quotas/templatedialog.h"

#include "services/cluster/clusterconnection.h"
#include "core/kube/kubeclient.h"
#include "models/quotas/objectyaml.h"
#include "widgets/editor/yamleditor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gq {

TemplateDialog::TemplateDialog(ClusterConnection *session, QWidget *parent, const QString &templateDir)
    : QDialog(parent)
    , m_session(session)
    , m_store(templateDir)
    , m_templates(new QComboBox(this))
    , m_editor(new YamlEditor(this))
    , m_saveName(new QLineEdit(this))
    , m_save(new QPushButton(tr("Save as template"), this))
    , m_targets(new QListWidget(this))
    , m_preview(new QTableWidget(0, 4, this))
    , m_summary(new QLabel(this))
    , m_previewButton(new QPushButton(tr("Preview"), this))
    , m_apply(new QPushButton(tr("Apply"), this)) {
    setObjectName(QStringLiteral("templateDialog"));
    setWindowTitle(tr("Apply a template"));
    m_templates->setObjectName(QStringLiteral("templateCombo"));
    m_editor->setObjectName(QStringLiteral("templateEditor"));
    m_saveName->setObjectName(QStringLiteral("templateSaveName"));
    m_saveName->setPlaceholderText(tr("name for your template"));
    m_save->setObjectName(QStringLiteral("templateSaveButton"));
    m_targets->setObjectName(QStringLiteral("templateTargets"));
    m_preview->setObjectName(QStringLiteral("templatePreview"));
    m_summary->setObjectName(QStringLiteral("templateSummary"));
    m_preview->setHorizontalHeaderLabels({tr("Namespace"), tr("Object"), tr("Action"), tr("Result")});
    m_preview->horizontalHeader()->setStretchLastSection(true);
    m_preview->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_previewButton->setObjectName(QStringLiteral("templatePreviewButton"));
    m_apply->setObjectName(QStringLiteral("templateApplyButton"));
    m_apply->setEnabled(false);
    m_apply->setToolTip(
        tr("Preview first: every object is dry-run on the server before anything is written"));

    auto *left = new QWidget(this);
    auto *l = new QVBoxLayout(left);
    l->setContentsMargins(0, 0, 0, 0);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Template:"), left));
    pick->addWidget(m_templates, 1);
    l->addLayout(pick);
    l->addWidget(m_editor, 1);
    auto *save = new QHBoxLayout;
    save->addWidget(m_saveName, 1);
    save->addWidget(m_save);
    l->addLayout(save);

    auto *right = new QWidget(this);
    auto *r = new QVBoxLayout(right);
    r->setContentsMargins(0, 0, 0, 0);
    r->addWidget(new QLabel(tr("Namespaces:"), right));
    r->addWidget(m_targets, 1);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_previewButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_apply, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 3);
    layout->addWidget(m_preview, 2);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    resize(1000, 720);

    connect(m_templates, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_editor->setYaml(m_templates->itemData(i).toString()); });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        m_previewOk = false;
        m_apply->setEnabled(false);
    });
    connect(m_targets, &QListWidget::itemChanged, this, [this] {
        m_previewOk = false;
        m_apply->setEnabled(false);
    });
    connect(m_save, &QPushButton::clicked, this, &TemplateDialog::saveTemplate);
    connect(m_previewButton, &QPushButton::clicked, this, &TemplateDialog::preview);
    connect(m_apply, &QPushButton::clicked, this, &TemplateDialog::applyAll);
    loadTemplates();
}

void TemplateDialog::loadTemplates() {
    m_templates->clear();
    for (const QuotaTemplate &t : m_store.templates())
        m_templates->addItem(t.builtIn ? tr("%1 (built in)").arg(t.name) : t.name, t.yaml);
}

void TemplateDialog::saveTemplate() {
    const QString name = m_saveName->text().trimmed();
    if (auto r = m_store.save(name, m_editor->yaml()); !r) {
        m_summary->setText(tr("Could not save the template: %1").arg(r.error().message));
        return;
    }
    loadTemplates();
    m_templates->setCurrentIndex(m_templates->findText(name));
    m_summary->setText(tr("Saved template \"%1\" in %2").arg(name, m_store.directory()));
}

void TemplateDialog::setTargets(const QStringList &namespaces) {
    m_targets->clear();
    QStringList all = m_session->namespaceNames();
    // Thousands of namespaces: list the chosen ones first and checked.
    for (const QString &ns : namespaces) {
        auto *item = new QListWidgetItem(ns, m_targets);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    int extra = 0;
    for (const QString &ns : all) {
        if (namespaces.contains(ns) || ++extra > 500)
            continue;
        auto *item = new QListWidgetItem(ns, m_targets);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
}

QStringList TemplateDialog::checkedTargets() const {
    QStringList out;
    for (int i = 0; i < m_targets->count(); ++i)
        if (m_targets->item(i)->checkState() == Qt::Checked)
            out << m_targets->item(i)->text();
    return out;
}

void TemplateDialog::setRowStatus(int row, const QString &status, bool ok) {
    m_items[row].status = status;
    m_items[row].ok = ok;
    auto *cell = new QTableWidgetItem(status);
    cell->setForeground(ok ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    m_preview->setItem(row, 3, cell);
}

void TemplateDialog::clearItems() {
    for (const Item &it : std::as_const(m_items)) {
        if (!it.writer)
            continue;
        it.writer->disconnect(this);
        it.writer->cancel(); // nothing was written: a preview stops before the write
        it.writer->deleteLater();
    }
    m_items.clear();
}

void TemplateDialog::preview() {
    m_jobs.cancel(); // a dry run still out belongs to the list cleared here
    clearItems();
    m_previewOk = false;
    m_apply->setEnabled(false);
    const QStringList targets = checkedTargets();
    if (targets.isEmpty()) {
        m_summary->setText(tr("Tick at least one namespace."));
        return;
    }
    if (!m_editor->validateNow().isEmpty()) {
        m_summary->setText(tr("The template has errors; see the marks in the editor."));
        return;
    }
    for (const QString &ns : targets) {
        auto objects = TemplateStore::instantiate(m_editor->yaml(), ns);
        if (!objects) {
            m_summary->setText(tr("Template: %1").arg(objects.error().message));
            return;
        }
        for (const QJsonObject &o : *objects) {
            Item it;
            it.ns = ns;
            it.kind = o.value(QLatin1String("kind")).toString();
            it.name = o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
            it.payload = o;
            const auto existing = it.kind == QLatin1String("ResourceQuota")
                                      ? m_session->quota(ns, it.name)
                                      : m_session->limitRange(ns, it.name);
            if (existing) {
                it.existing = existing->object;
                QJsonObject meta = it.payload.value(QLatin1String("metadata")).toObject();
                meta.insert(QLatin1String("resourceVersion"), existing->resourceVersion);
                it.payload.insert(QLatin1String("metadata"), meta);
            }
            m_items << it;
        }
    }
    m_preview->setRowCount(int(m_items.size()));
    for (int i = 0; i < m_items.size(); ++i) {
        const Item &it = m_items.at(i);
        m_preview->setItem(i, 0, new QTableWidgetItem(it.ns));
        m_preview->setItem(i, 1, new QTableWidgetItem(it.kind + QLatin1Char('/') + it.name));
        m_preview->setItem(i, 2, new QTableWidgetItem(it.existing.isEmpty() ? tr("create") : tr("replace")));
        m_preview->setItem(i, 3, new QTableWidgetItem(tr("checking...")));
    }
    m_summary->setText(tr("Dry run of %n object(s)...", nullptr, int(m_items.size())));
    runNext(0, true);
}

void TemplateDialog::applyAll() {
    if (!m_previewOk)
        return;
    m_apply->setEnabled(false);
    m_previewButton->setEnabled(false);
    m_applying = true;
    runNext(0, false);
}

// One object at a time keeps the order readable and stops nothing else; each step
// comes back on this dialog, and a closed dialog drops it.
void TemplateDialog::runNext(int index, bool dryRun) {
    if (index >= m_items.size()) {
        finish(dryRun);
        return;
    }
    if (dryRun) {
        startWriter(index);
        return;
    }
    QuotaWriter *writer = m_items.at(index).writer;
    if (!writer || !writer->confirm()) {
        setRowStatus(index, tr("not previewed; not written"), false);
        m_jobs.post([this, index] { runNext(index + 1, false); });
    }
}

void TemplateDialog::startWriter(int index) {
    auto client = m_session->client();
    if (!client)
        return;
    Item &it = m_items[index];
    QuotaWriter::Request request;
    request.resource = it.kind == QLatin1String("ResourceQuota") ? &KubeResource::resourceQuotas()
                                                                 : &KubeResource::limitRanges();
    request.ns = it.ns;
    request.base = it.existing; // empty: create
    request.mine = it.payload;
    request.auditHead = m_auditHead;
    it.writer = new QuotaWriter(std::move(client), this);
    it.writer->setAuditSink(m_auditSink);
    it.writer->setAuditNote(tr("from template \"%1\"").arg(m_templates->currentText()));
    connect(it.writer, &QuotaWriter::stateChanged, this,
            [this, index](QuotaWriter::State state) { onWriterState(index, state); });
    it.writer->start(request);
}

void TemplateDialog::onWriterState(int index, QuotaWriter::State state) {
    const bool dryRun = !m_applying;
    const Item &it = m_items.at(index);
    const QuotaWriter *w = it.writer;
    switch (state) {
    case QuotaWriter::State::AwaitingConfirmation:
        if (!dryRun)
            return;
        setRowStatus(index, tr("ok (dry run)"), true);
        break;
    case QuotaWriter::State::Applied:
        setRowStatus(index, tr("applied"), true);
        emit applied(it.ns, it.kind + QLatin1Char('/') + it.name,
                     it.existing.isEmpty() ? QString() : editableYaml(it.existing, it.kind),
                     editableYaml(w->result(), it.kind), w->preview().diffText,
                     tr("from template \"%1\"").arg(m_templates->currentText()));
        break;
    case QuotaWriter::State::Conflict:
        setRowStatus(index, tr("conflict: changed on the server since the preview; not overwritten"), false);
        break;
    case QuotaWriter::State::Failed: setRowStatus(index, w->error().message, false); break;
    default: return; // a step on the way
    }
    // Queued: the writer is still inside its own call here.
    m_jobs.post([this, index, dryRun] { runNext(index + 1, dryRun); });
}

void TemplateDialog::finish(bool dryRun) {
    int ok = 0;
    for (const Item &it : std::as_const(m_items))
        ok += it.ok ? 1 : 0;
    if (dryRun) {
        m_previewOk = ok == m_items.size();
        m_apply->setEnabled(m_previewOk);
        m_apply->setText(tr("Apply to %n namespace(s)", nullptr, int(checkedTargets().size())));
        m_summary->setText(m_previewOk ? tr("Dry run passed for all %n object(s). Apply writes them.",
                                            nullptr, int(m_items.size()))
                                       : tr("%1 of %2 objects would fail; fix the template or the targets.")
                                             .arg(m_items.size() - ok)
                                             .arg(m_items.size()));
    } else {
        m_applying = false;
        m_previewButton->setEnabled(true);
        m_summary->setText(tr("Applied %1 of %2 objects.").arg(ok).arg(m_items.size()));
    }
}

} // namespace gq
