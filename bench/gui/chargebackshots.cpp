// Takes the Chargeback page's README screenshots: the real console window against the
// demo test cluster and the demo usage database, on the Chargeback tab for last month
// with a rates file (MIG slices cheaper), captured from the X server with ImageMagick's
// `import -window root` — run it under `xvfb-run -a`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" chargeback_screenshots --out docs/screenshots --lang zh_CN

#include "chargebackmodel.h"
#include "chargebackpage.h"
#include "consolesettings.h"
#include "demousage.h"
#include "draftstore.h"
#include "mainwindow.h"
#include "shotsetup.h"
#include "testclusterprocess.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTranslator>

#include <cstdio>
#include <functional>

using namespace gq;

namespace {
using shots::waitUntil;

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString out = shots::arg(args, QStringLiteral("--out"), QStringLiteral("."));
    const QString lang = shots::arg(args, QStringLiteral("--lang"), QStringLiteral("en"));
    const QString qmDir = shots::arg(args, QStringLiteral("--qm"), QStringLiteral(GQ_QM_DIR));
    const QString suffix = lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang;

    const shots::Language language(lang, qmDir);

    test::TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    test::TestClusterProcess cluster(opts);
    if (!cluster.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(cluster.errorString()));
        return 1;
    }
    QTemporaryDir dir;
    ConsoleSettings settings(dir.filePath(QStringLiteral("s.ini")));
    DraftStore drafts(nullptr, dir.filePath(QStringLiteral("drafts")));
    MainWindow w(&settings, &drafts);
    const QString usageUrl = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
    if (auto seeded =
            seedDemoUsage(usageUrl, QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone());
        !seeded) {
        std::fprintf(stderr, "demo usage: %s\n", qPrintable(seeded.error().message));
        return 1;
    }
    const QString rates = dir.filePath(QStringLiteral("rates.yaml"));
    QFile f(rates);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write("currency: EUR\ndefault: 2.50\nresources:\n  nvidia.com/mig-1g.10gb: 1.20\n"
                "  nvidia.com/mig-3g.40gb: 1.60\n") < 0)
        return 1;
    f.close();

    w.openUsageDatabase(usageUrl);
    w.openKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
    w.setGeometry(0, 0, 1400, 900);
    w.show();
    bool shown = false;
    QObject::connect(&w, &MainWindow::dataShown, [&] { shown = true; });
    if (!waitUntil([&] { return shown; }))
        return 2;
    auto *page = w.findChild<ChargebackPage *>(QStringLiteral("chargebackPage"));
    auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
    if (!page || !tabs)
        return 3;
    tabs->setCurrentWidget(page);
    page->findChild<QComboBox *>(QStringLiteral("chargebackZone"))
        ->setCurrentText(QStringLiteral("Europe/Berlin"));
    auto *ratesEdit = page->findChild<QLineEdit *>(QStringLiteral("chargebackRatesFile"));
    ratesEdit->setText(rates);
    emit ratesEdit->editingFinished();
    waitUntil([&] { return !page->isLoading() && page->model()->rowCount() > 0; });
    waitUntil([] { return false; }, 800);
    const QString file = out + QStringLiteral("/chargeback") + suffix + QStringLiteral(".png");
    const int rc = QProcess::execute(QStringLiteral("import"),
                                     {QStringLiteral("-window"), QStringLiteral("root"), file});
    std::printf("%s %s\n", rc == 0 ? "wrote" : "FAILED", qPrintable(file));
    return rc == 0 ? 0 : 4;
}
