#include "app/console/demolauncher.h"
#include "app/console/mainwindow.h"
#include "app/console/quitonsignal.h"
#include "app/console/startupclock.h"
#include "core/draftstore.h"
#include "widgets/consolesettings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLibraryInfo>
#include <QStandardPaths>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <memory>

using namespace gq;

namespace {
// Qt's own strings (buttons, dialogs) and ours, for a language override or the
// system locale. Both translators are parented to the application.
void installTranslations(QApplication &app, const QString &language) {
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    QLocale::setDefault(locale);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
    auto *ours = new QTranslator(&app);
    // The English catalogue carries the plural forms ("1 namespace", "9 namespaces"), so
    // it is the fallback for locales we do not translate, including plain "C".
    if (ours->load(locale, QStringLiteral("gpuquota"), QStringLiteral("_"), QStringLiteral(":/i18n")) ||
        ours->load(QStringLiteral("gpuquota_en"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(ours);
}
} // namespace

int main(int argc, char **argv) {
    (void)msSinceProcessStart();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("gpuquota"));
    QApplication::setApplicationName(QStringLiteral("gpuquota-console"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Quota Console"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("GPU Quota Console: quotas and limits of shared GPU clusters"));
    parser.addHelpOption();
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QStringLiteral("Start a local demo cluster and connect to it (no cluster needed)."));
    const QCommandLineOption kubeconfig(QStringLiteral("kubeconfig"), QStringLiteral("Kubeconfig file."),
                                        QStringLiteral("file"));
    const QCommandLineOption context(QStringLiteral("context"), QStringLiteral("Context to connect to."),
                                     QStringLiteral("name"));
    const QCommandLineOption usageDb(
        QStringLiteral("usage-db"),
        QStringLiteral("Usage database URL (default: SQLite in the data directory)."), QStringLiteral("url"));
    const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("Language, e.g. zh_CN or en."),
                                  QStringLiteral("locale"));
    const QCommandLineOption settingsFile(
        QStringLiteral("settings"), QStringLiteral("Use this INI file for settings (tests, screenshots)."),
        QStringLiteral("file"));
    const QCommandLineOption measure(
        QStringLiteral("measure-startup"),
        QStringLiteral("Print milliseconds from process start until the namespace "
                       "list shows data, then quit."));
    const QCommandLineOption demoArgs(QStringLiteral("demo-arg"),
                                      QStringLiteral("Extra argument for the demo cluster (repeatable)."),
                                      QStringLiteral("arg"));
    parser.addOptions({demo, kubeconfig, context, usageDb, lang, settingsFile, measure, demoArgs});
    parser.process(app);
    // Before the demo directory and child exist: a stop signal arriving while they are
    // being created must still run the cleanup below (it is queued in a pipe until exec()).
    QuitOnSignal quitOnSignal;

    auto settings = parser.isSet(settingsFile) ? std::make_unique<ConsoleSettings>(parser.value(settingsFile))
                                               : std::make_unique<ConsoleSettings>();
    installTranslations(app, parser.isSet(lang) ? parser.value(lang) : settings->language());

    DraftStore drafts;
    MainWindow window(settings.get(), &drafts);
    std::unique_ptr<DemoLauncher> launcher;

    if (parser.isSet(measure)) {
        QObject::connect(&window, &MainWindow::dataShown, &app, [&app] {
            // Print once the list has been painted, not merely filled.
            QTimer::singleShot(0, &app, [&app] {
                std::printf("startup-ms %lld\n", static_cast<long long>(msSinceProcessStart()));
                std::fflush(stdout);
                app.quit();
            });
        });
    }

    if (parser.isSet(demo)) {
        launcher = std::make_unique<DemoLauncher>();
        window.setDemoMode(QApplication::translate(
            "main",
            "Demo mode: a local test cluster with made-up teams, started just for this window. Nothing "
            "you change here touches a real cluster; it is all removed when you close the window."));
        QObject::connect(launcher.get(), &DemoLauncher::ready, &window,
                         [&window, &launcher](const QString &kubeconfigPath, const QString &) {
                             window.openUsageDatabase(launcher->databaseUrl());
                             window.openKubeconfig(kubeconfigPath, QStringLiteral("admin"));
                         });
        QObject::connect(launcher.get(), &DemoLauncher::failed, &window, &MainWindow::showError);
        launcher->start(parser.values(demoArgs));
    } else {
        window.openKubeconfig(parser.value(kubeconfig), parser.value(context));
        QString db = parser.value(usageDb);
        if (db.isEmpty()) {
            const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
            QDir().mkpath(dir);
            db = QStringLiteral("sqlite://") + QDir(dir).filePath(QStringLiteral("usage.db"));
        }
        window.openUsageDatabase(db);
    }
    window.show();
    const int rc = app.exec();
    if (launcher)
        launcher->stop();
    return rc;
}
