#include "services/settings/consolesettings.h"
#include "app/console/demolauncher.h"
#include "services/quotas/draftstore.h"
#include "app/console/mainwindow.h"
#include "core/domain/processguard.h"
#include "services/platform/quitonsignal.h"
#include "app/console/selftest.h"
#include "app/console/startupclock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
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

void setApplicationNames() {
    QApplication::setOrganizationName(QStringLiteral("gpuquota"));
    QApplication::setApplicationName(QStringLiteral("gpuquota-console"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Quota Console"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/io.gpuquota.Console.svg")));
    // Wayland compositors match the window to resources/linux/io.gpuquota.Console.desktop.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.gpuquota.Console"));
}

// The command line's options (--version and --self-test are also read before the
// application exists, by selftest).
struct ConsoleOptions {
    QCommandLineOption demo{
        QStringLiteral("demo"),
        QStringLiteral("Start a local demo cluster and connect to it (no cluster needed).")};
    QCommandLineOption kubeconfig{QStringLiteral("kubeconfig"), QStringLiteral("Kubeconfig file."),
                                  QStringLiteral("file")};
    QCommandLineOption context{QStringLiteral("context"), QStringLiteral("Context to connect to."),
                               QStringLiteral("name")};
    QCommandLineOption usageDb{
        QStringLiteral("usage-db"),
        QStringLiteral("Usage database URL for every context (default: each context's own, set under "
                       "Preferences > Connections)."),
        QStringLiteral("url")};
    QCommandLineOption lang{QStringLiteral("lang"), QStringLiteral("Language, e.g. zh_CN or en."),
                            QStringLiteral("locale")};
    // "--settings" is the older spelling, kept for scripts.
    QCommandLineOption settingsFile{
        QStringList{QStringLiteral("settings-file"), QStringLiteral("settings")},
        QStringLiteral("Use this INI file for settings instead of %1 (tests, screenshots).")
            .arg(ConsoleSettings::defaultFilePath()),
        QStringLiteral("file")};
    QCommandLineOption measure{QStringLiteral("measure-startup"),
                               QStringLiteral("Print milliseconds from process start until the namespace "
                                              "list shows data, then quit.")};
    QCommandLineOption demoArgs{QStringLiteral("demo-arg"),
                                QStringLiteral("Extra argument for the demo cluster (repeatable)."),
                                QStringLiteral("arg")};
    QCommandLineOption version{QStringLiteral("version"),
                               QStringLiteral("Print the version and the library versions.")};
    QCommandLineOption selfTest{
        QStringLiteral("self-test"),
        QStringLiteral("Check the installation offscreen (database, translation, chart) and exit.")};

    void addTo(QCommandLineParser &parser) const {
        parser.setApplicationDescription(
            QStringLiteral("GPU Quota Console: quotas and limits of shared GPU clusters"));
        parser.addHelpOption();
        parser.addOptions(
            {demo, kubeconfig, context, usageDb, lang, settingsFile, measure, demoArgs, version, selfTest});
    }
};

// --measure-startup: print the time once the namespace list has been painted, not
// merely filled, and quit.
void quitWhenDataShown(MainWindow &window, QApplication &app) {
    QObject::connect(&window, &MainWindow::dataShown, &app, [&app] {
        QTimer::singleShot(0, &app, [&app] {
            std::printf("startup-ms %lld\n", static_cast<long long>(msSinceProcessStart()));
            std::fflush(stdout);
            app.quit();
        });
    });
}

// --demo, or "Try the demo" on the start page: start the demo cluster once and open
// it with its own database, exporter and controller.
void startDemo(MainWindow &window, std::unique_ptr<DemoLauncher> &launcher, const QStringList &demoArgs) {
    if (launcher)
        return;
    launcher = std::make_unique<DemoLauncher>();
    QObject::connect(launcher.get(), &DemoLauncher::ready, &window,
                     [&window, &launcher](const QString &kubeconfigPath, const QString &) {
                         // The demo's own exporter and controller, not the settings'.
                         ContextConnections c;
                         c.usageDatabaseUrl = launcher->databaseUrl();
                         if (!launcher->exporterUrl().isEmpty()) {
                             c.metricsSource = MetricsSource::Exporters;
                             c.exporterEndpoints = {launcher->exporterUrl()};
                         }
                         c.controllerUrl = launcher->controllerUrl();
                         window.setFixedConnections(c);
                         window.openUsageDatabase(launcher->databaseUrl());
                         window.openKubeconfig(kubeconfigPath, QStringLiteral("admin"));
                     });
    QObject::connect(launcher.get(), &DemoLauncher::failed, &window, &MainWindow::showError);
    launcher->start(demoArgs);
    window.setDemoMode(
        QApplication::translate(
            "main",
            "Demo mode: a local test cluster with eight made-up GPU teams, a GPU metrics exporter and "
            "the "
            "gpuquota controller, all started just for this window and removed when you close it; "
            "nothing "
            "here touches a real cluster. The controller records pods you start yourself: kubectl "
            "--kubeconfig %1 run ... To use a real cluster, start the console without --demo (or choose "
            "File > Open kubeconfig...) and set its usage database, metrics and controller under "
            "Connections.")
            .arg(QDir::toNativeSeparators(launcher->kubeconfigPath())));
}
} // namespace

int main(int argc, char **argv) {
    gq::protectProcessSecrets();
    (void)msSinceProcessStart();
    // Installer checks: --version needs no display; --self-test draws offscreen.
    if (selftest::wantsVersion(argc, argv))
        return selftest::printVersion();
    const bool selfTest = selftest::wantsSelfTest(argc, argv);
    if (selfTest && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setApplicationNames();

    QCommandLineParser parser;
    const ConsoleOptions options;
    options.addTo(parser);
    parser.process(app);
    if (selfTest)
        return selftest::run();
    // Before the demo directory and child exist: a stop signal arriving while they are
    // being created must still run the cleanup below (it is queued in a pipe until exec()).
    QuitOnSignal quitOnSignal;

    auto settings = parser.isSet(options.settingsFile)
                        ? std::make_unique<ConsoleSettings>(parser.value(options.settingsFile))
                        : std::make_unique<ConsoleSettings>();
    installTranslations(app, parser.isSet(options.lang) ? parser.value(options.lang) : settings->language());

    DraftStore drafts;
    MainWindow window(settings.get(), &drafts);
    std::unique_ptr<DemoLauncher> launcher;
    if (parser.isSet(options.measure))
        quitWhenDataShown(window, app);
    QObject::connect(&window, &MainWindow::demoRequested, &window,
                     [&] { startDemo(window, launcher, parser.values(options.demoArgs)); });

    if (parser.isSet(options.demo)) {
        startDemo(window, launcher, parser.values(options.demoArgs));
    } else {
        // The usage database follows the context (MainWindow::applyContextConnections)
        // unless --usage-db names one for all.
        if (parser.isSet(options.usageDb))
            window.openUsageDatabase(parser.value(options.usageDb));
        const QString file = parser.isSet(options.kubeconfig) ? parser.value(options.kubeconfig)
                                                              : settings->value(gq::settings::kubeconfigFile);
        window.openKubeconfig(file, parser.value(options.context));
    }
    window.show();
    const int rc = app.exec();
    if (launcher)
        launcher->stop();
    return rc;
}
