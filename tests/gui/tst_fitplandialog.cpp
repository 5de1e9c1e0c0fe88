// "Plan a fine-tune…": the dialog's numbers are `gpuquota advise`'s for the same inputs,
// the namespace's free GPUs and GPU memory come from the real test cluster (read off the
// GUI thread), and the ms-swift flags copy. With GQ_SCREENSHOT_DIR set it saves the dialog
// there (GQ_SCREENSHOT_QM: a .qm to load first, GQ_SCREENSHOT_SUFFIX for the name).
#include "tests/clirun.h"
#include "widgets/advisor/fitmemorybar.h"
#include "widgets/advisor/fitplandialog.h"
#include "core/kube/kubeclient.h"
#include "tests/testclusterprocess.h"
#include "tests/gui/guitestutil.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace gq;

namespace {

template <typename T> T *child(QWidget &w, const char *name) {
    auto *c = w.findChild<T *>(QLatin1String(name));
    if (!c)
        qFatal("no child %s", name);
    return c;
}

void setInputs(FitPlanDialog &d, const QString &model, int gpus, double gb) {
    auto *combo = child<QComboBox>(d, "fitModelCombo");
    combo->setCurrentIndex(combo->findData(model));
    child<QSpinBox>(d, "fitGpusSpin")->setValue(gpus);
    child<QDoubleSpinBox>(d, "fitMemorySpin")->setValue(gb);
    child<QCheckBox>(d, "fitCheckpointingCheck")->setChecked(true);
    child<QCheckBox>(d, "fitFlashCheck")->setChecked(true);
}

} // namespace

class TestFitPlanDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString qm = gq::test::installScreenshotTranslator();
        QVERIFY2(qm.isEmpty(), qPrintable(qm));
    }

    // The same inputs as `gpuquota advise --model llama-2-7b --gpus 1 --gpu-memory 80G
    // --gradient-checkpointing --flash-attn`: the same method, per-GPU bytes and flags.
    void sameNumbersAsTheCli() {
        FitPlanDialog d(nullptr, nullptr);
        setInputs(d, QStringLiteral("llama-2-7b"), 1, 80);
        const gq::test::CliRun cli = gq::test::runCli(
            gq::test::gpuquotaBinary(), gq::test::words("advise --model llama-2-7b --gpus 1 --gpu-memory 80G "
                                                        "--gradient-checkpointing --flash-attn -o json"));
        QCOMPARE(cli.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(cli.out.toUtf8()).object();
        QCOMPARE(advisor::methodName(d.advice().chosen.method), o.value(QLatin1String("method")).toString());
        QCOMPARE(d.advice().chosen.perGpuBytes(), o.value(QLatin1String("per_gpu_bytes")).toDouble());
        QCOMPARE(child<QLineEdit>(d, "fitSwiftEdit")->text(),
                 QStringLiteral("swift sft ") +
                     o.value(QLatin1String("swift_args")).toVariant().toStringList().join(QLatin1Char(' ')));
        // One line per method; full does not fit one 80 GB GPU.
        const QString lines = child<QLabel>(d, "fitMethodsLabel")->text();
        QCOMPARE(lines.split(QLatin1Char('\n')).size(), 3);
        QVERIFY2(lines.startsWith(QStringLiteral("✘ ")), qPrintable(lines));
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(child<QPushButton>(d, "fitCopyButton"), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), child<QLineEdit>(d, "fitSwiftEdit")->text());
    }

    // A namespace: its quota's hard − used and the GPU nodes' memory fill the inputs.
    void readsTheNamespace() {
        gq::test::TestClusterProcess::Options options;
        options.scenario = QStringLiteral("demo");
        gq::test::TestClusterProcess cluster(options);
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto client = KubeClient::fromKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY(client);
        FitPlanDialog d(*client, nullptr);
        d.setNamespace(QStringLiteral("team-vision"));
        QTRY_COMPARE_WITH_TIMEOUT(child<QSpinBox>(d, "fitGpusSpin")->value(), 3, 20000);
        QTRY_VERIFY(child<QLabel>(d, "fitClusterLabel")->text().contains(QLatin1String("NVIDIA-")));
        QVERIFY(child<QDoubleSpinBox>(d, "fitMemorySpin")->value() > 40);
    }

    void screenshot() {
        const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("GQ_SCREENSHOT_DIR not set");
        FitPlanDialog d(nullptr, nullptr);
        setInputs(d, QStringLiteral("qwen-vl-chat"), 1, 24);
        child<QSpinBox>(d, "fitBatchSpin")->setValue(2);
        child<QLineEdit>(d, "fitNamespaceEdit")->setText(QStringLiteral("team-vision"));
        d.resize(1000, 560);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        const QString file = QDir(dir).filePath(
            QStringLiteral("fit-advisor%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX")));
        QVERIFY(d.grab().save(file));
    }
};

QTEST_MAIN(TestFitPlanDialog)
#include "tst_fitplandialog.moc"
