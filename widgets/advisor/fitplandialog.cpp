#include "widgets/advisor/fitplandialog.h"

#include "widgets/advisor/fitmemorybar.h"
#include "core/kube/kubeclient.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

namespace gq {

using namespace advisor;

FitPlanDialog::FitPlanDialog(std::shared_ptr<KubeClient> client, BudgetService *budgets, QWidget *parent)
    : QDialog(parent)
    , m_client(std::move(client))
    , m_budgets(budgets) {
    setObjectName(QStringLiteral("fitPlanDialog"));
    setWindowTitle(tr("Plan a fine-tune"));
    auto *columns = new QHBoxLayout;
    columns->addWidget(buildInputs());
    columns->addWidget(buildResults(), 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(buttons);
    if (m_budgets) {
        connect(m_budgets, &BudgetService::answered, this, &FitPlanDialog::showBudget);
        connect(m_budgets, &StoreService::failed, this, [this](const Error &e) {
            if (std::exchange(m_budgetPending, false))
                m_budget->setText(tr("Budget: %1").arg(e.message));
        });
    }
    recompute();
}

QWidget *FitPlanDialog::buildInputs() {
    auto *box = new QWidget(this);
    auto *form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    m_model = new QComboBox(box);
    m_model->setObjectName(QStringLiteral("fitModelCombo"));
    for (const ModelShape &m : modelCatalogue())
        m_model->addItem(m.name, m.name);
    m_model->addItem(tr("By parameter count"), QString());
    m_model->setCurrentIndex(0);
    m_params = new QLineEdit(QStringLiteral("7B"), box);
    m_params->setObjectName(QStringLiteral("fitParamsEdit"));
    m_params->setEnabled(false);
    m_method = new QComboBox(box);
    m_method->setObjectName(QStringLiteral("fitMethodCombo"));
    m_method->addItem(tr("Auto"), -1);
    for (Method m : {Method::Full, Method::Lora, Method::Qlora})
        m_method->addItem(methodTitle(m), int(m));
    m_dtype = new QComboBox(box);
    m_dtype->setObjectName(QStringLiteral("fitDtypeCombo"));
    for (Dtype d : {Dtype::Bf16, Dtype::Fp16, Dtype::Fp32})
        m_dtype->addItem(dtypeName(d), int(d));
    m_optimizer = new QComboBox(box);
    m_optimizer->setObjectName(QStringLiteral("fitOptimizerCombo"));
    for (Optimizer o : {Optimizer::AdamW, Optimizer::AdamW8bit, Optimizer::Sgd})
        m_optimizer->addItem(optimizerName(o), int(o));
    m_zero = new QComboBox(box);
    m_zero->setObjectName(QStringLiteral("fitZeroCombo"));
    m_zero->addItem(tr("Auto (ZeRO-3 on more than one GPU)"), -1);
    for (int z = 0; z <= 3; ++z)
        m_zero->addItem(QString::number(z), z);
    auto spin = [box](const char *name, int min, int max, int value) {
        auto *s = new QSpinBox(box);
        s->setObjectName(QLatin1String(name));
        s->setRange(min, max);
        s->setValue(value);
        return s;
    };
    m_gpus = spin("fitGpusSpin", 0, 100000, 1);
    m_memory = new QDoubleSpinBox(box);
    m_memory->setObjectName(QStringLiteral("fitMemorySpin"));
    m_memory->setRange(1, 10000);
    m_memory->setDecimals(1);
    m_memory->setValue(80);
    m_memory->setSuffix(tr(" GB"));
    m_seqLen = spin("fitSeqLenSpin", 1, 10000000, 2048);
    m_batch = spin("fitBatchSpin", 1, 100000, 1);
    m_rank = spin("fitRankSpin", 1, 65536, 8);
    m_checkpointing = new QCheckBox(tr("Gradient checkpointing"), box);
    m_checkpointing->setObjectName(QStringLiteral("fitCheckpointingCheck"));
    m_flash = new QCheckBox(tr("Flash attention"), box);
    m_flash->setObjectName(QStringLiteral("fitFlashCheck"));
    m_hours = new QDoubleSpinBox(box);
    m_hours->setObjectName(QStringLiteral("fitHoursSpin"));
    m_hours->setRange(0.01, 100000);
    m_hours->setValue(1);
    m_hours->setSuffix(tr(" h"));
    m_ns = new QLineEdit(box);
    m_ns->setObjectName(QStringLiteral("fitNamespaceEdit"));
    m_ns->setPlaceholderText(tr("namespace (optional)"));
    m_user = new QLineEdit(box);
    m_user->setObjectName(QStringLiteral("fitUserEdit"));
    m_user->setPlaceholderText(tr("user (for the budget)"));
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("Parameters:"), m_params);
    form->addRow(tr("Method:"), m_method);
    form->addRow(tr("Precision:"), m_dtype);
    form->addRow(tr("Optimizer:"), m_optimizer);
    form->addRow(tr("ZeRO stage:"), m_zero);
    form->addRow(tr("GPUs:"), m_gpus);
    form->addRow(tr("GPU memory:"), m_memory);
    form->addRow(tr("Sequence length:"), m_seqLen);
    form->addRow(tr("Micro-batch:"), m_batch);
    form->addRow(tr("LoRA rank:"), m_rank);
    form->addRow(QString(), m_checkpointing);
    form->addRow(QString(), m_flash);
    form->addRow(tr("Run length:"), m_hours);
    form->addRow(tr("Namespace:"), m_ns);
    form->addRow(tr("User:"), m_user);

    auto again = [this] { recompute(); };
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        m_params->setEnabled(m_model->currentData().toString().isEmpty());
        recompute();
    });
    connect(m_params, &QLineEdit::textChanged, this, again);
    for (QComboBox *c : {m_method, m_dtype, m_optimizer, m_zero})
        connect(c, &QComboBox::currentIndexChanged, this, again);
    for (QSpinBox *s : {m_gpus, m_seqLen, m_batch, m_rank})
        connect(s, &QSpinBox::valueChanged, this, again);
    for (QDoubleSpinBox *s : {m_memory, m_hours})
        connect(s, &QDoubleSpinBox::valueChanged, this, again);
    for (QCheckBox *c : {m_checkpointing, m_flash})
        connect(c, &QCheckBox::toggled, this, again);
    connect(m_user, &QLineEdit::editingFinished, this, again);
    connect(m_ns, &QLineEdit::editingFinished, this, [this] { setNamespace(m_ns->text().trimmed()); });
    return box;
}

QWidget *FitPlanDialog::buildResults() {
    auto *box = new QWidget(this);
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    auto label = [box](const char *name) {
        auto *l = new QLabel(box);
        l->setObjectName(QLatin1String(name));
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return l;
    };
    m_cluster = label("fitClusterLabel");
    m_summary = label("fitSummaryLabel");
    m_bar = new FitMemoryBar(box);
    m_methods = label("fitMethodsLabel");
    m_gpuHours = label("fitGpuHoursLabel");
    m_budget = label("fitBudgetLabel");
    m_swift = new QLineEdit(box);
    m_swift->setObjectName(QStringLiteral("fitSwiftEdit"));
    m_swift->setReadOnly(true);
    m_copy = new QPushButton(tr("Copy"), box);
    m_copy->setObjectName(QStringLiteral("fitCopyButton"));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_swift->text()); });
    auto *swiftRow = new QHBoxLayout;
    swiftRow->addWidget(m_swift, 1);
    swiftRow->addWidget(m_copy);
    auto *note = new QLabel(tr("An estimate within about 15–20 %: it does not count the data loader, "
                               "the evaluation pass or other processes on the GPU."),
                            box);
    note->setWordWrap(true);
    note->setEnabled(false);
    v->addWidget(m_cluster);
    v->addWidget(m_summary);
    v->addWidget(m_bar);
    v->addWidget(m_methods);
    v->addWidget(m_gpuHours);
    v->addWidget(m_budget);
    v->addWidget(new QLabel(tr("ms-swift flags (swift sft):"), box));
    v->addLayout(swiftRow);
    v->addWidget(note);
    v->addStretch(1);
    return box;
}

void FitPlanDialog::setNamespace(const QString &ns) {
    if (m_ns->text() != ns)
        m_ns->setText(ns);
    m_jobs.cancel();
    if (ns.isEmpty() || !m_client) {
        m_cluster->clear();
        return;
    }
    m_cluster->setText(tr("Reading the quota of %1 and the GPU nodes…").arg(ns));
    m_jobs.run([client = m_client, ns] { return readFitClusterFacts(*client, ns); },
               [this](const Result<FitClusterFacts> &facts) { applyCluster(facts); });
}

void FitPlanDialog::setUser(const QString &user) {
    m_user->setText(user);
    recompute();
}

void FitPlanDialog::applyCluster(const Result<FitClusterFacts> &facts) {
    if (!facts) {
        m_cluster->setText(tr("Could not read the cluster: %1").arg(facts.error().message));
        return;
    }
    const QSignalBlocker blockGpus(m_gpus), blockMemory(m_memory);
    if (facts->freeGpus)
        m_gpus->setValue(int(*facts->freeGpus));
    if (facts->memoryBytes > 0)
        m_memory->setValue(double(facts->memoryBytes) / 1e9);
    const QString gpus = facts->freeGpus ? QString::number(*facts->freeGpus) : tr("no GPU quota");
    m_cluster->setText(facts->memoryBytes > 0
                           ? tr("%1: %2 GPUs free in the quota; %3, %4 each")
                                 .arg(facts->ns, gpus, facts->product, formatGB(double(facts->memoryBytes)))
                           : tr("%1: %2 GPUs free in the quota; GPU memory unknown (%3)")
                                 .arg(facts->ns, gpus, facts->memoryError));
    recompute();
}

} // namespace gq
