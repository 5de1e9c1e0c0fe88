#pragma once

// The whole console window against the real test cluster (demo scenario), set up
// the way every window test needs it: the cluster child, settings and drafts in a
// temporary directory (never the user's), optionally a SQLite usage database, and a
// MainWindow connected and showing data.
//
//     ConsoleFixture fx;
//     ConsoleFixture::WindowOptions options; // field by field: designated
//     options.usageDb = true;                // initializers trip -Wmissing-field-initializers
//     const QString err = fx.start(options);
//     QVERIFY2(err.isEmpty(), qPrintable(err));
//     fx.find<QTreeView>(QStringLiteral("namespaceView"));
//
// A test that needs something between the cluster and the window (a relay, a
// seeded database, a clock) calls startCluster(), does its part, then openWindow().

#include "services/cluster/clusterconnection.h"
#include "services/settings/consolesettings.h"
#include "services/quotas/draftstore.h"
#include "app/console/mainwindow.h"
#include "widgets/quotas/quotapage.h"
#include "tests/testclusterprocess.h"
#include "services/usage/usageservice.h"

#include <QSignalSpy>
#include <QSize>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

namespace gq::test {

// How ConsoleFixture opens the window. Outside the fixture so it can be a default
// argument of the fixture's own functions.
struct ConsoleWindowOptions {
    QString kubeconfig; // empty: the cluster's own
    QString context = QStringLiteral("admin");
    bool usageDb = false; // open sqlite://<dir>/usage.db (or usageDbUrl)
    QString usageDbUrl;   // a database the test seeded itself
    QSize size;           // empty: the window's default
    // Runs after the window exists and before it connects (e.g. to set a clock).
    std::function<void(MainWindow &)> beforeOpen;
    int timeoutMs = 20000;
};

struct ConsoleFixture {
    using WindowOptions = ConsoleWindowOptions;

    QTemporaryDir dir;
    std::unique_ptr<TestClusterProcess> cluster;
    std::unique_ptr<ConsoleSettings> settings;
    std::unique_ptr<DraftStore> drafts;
    std::unique_ptr<MainWindow> window;

    // Each returns empty on success, else what went wrong (for QVERIFY2).
    QString startCluster(const QString &scenario = QStringLiteral("demo")) {
        if (!dir.isValid())
            return QStringLiteral("cannot create a temporary directory");
        TestClusterProcess::Options opts;
        opts.scenario = scenario;
        cluster = std::make_unique<TestClusterProcess>(opts);
        if (!cluster->start())
            return cluster->errorString();
        return {};
    }

    // Shows the window and waits until it shows data, the usage database (if any) is
    // open and the session is live with a known identity.
    QString openWindow(const WindowOptions &options = {}) {
        if (!cluster && options.kubeconfig.isEmpty())
            return QStringLiteral("no kubeconfig: call startCluster() first or set options.kubeconfig");
        settings = std::make_unique<ConsoleSettings>(path(QStringLiteral("settings.ini")));
        drafts = std::make_unique<DraftStore>(nullptr, path(QStringLiteral("drafts")));
        window = std::make_unique<MainWindow>(settings.get(), drafts.get());
        // The cluster dashboard is the first tab; the window tests work on the quotas.
        if (auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("detailsTabs")))
            tabs->setCurrentWidget(window->quotaPage());
        if (options.beforeOpen)
            options.beforeOpen(*window);
        QSignalSpy shown(window.get(), &MainWindow::dataShown);
        QSignalSpy dbOpened(window->usageDatabase(), &UsageService::opened);
        QSignalSpy dbFailed(window->usageDatabase(), &UsageService::failed);
        QString dbUrl = options.usageDbUrl;
        if (dbUrl.isEmpty() && options.usageDb)
            dbUrl = QStringLiteral("sqlite://") + path(QStringLiteral("usage.db"));
        if (!dbUrl.isEmpty())
            window->openUsageDatabase(dbUrl);
        window->openKubeconfig(options.kubeconfig.isEmpty() ? cluster->kubeconfigPath() : options.kubeconfig,
                               options.context);
        if (options.size.isValid())
            window->resize(options.size);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return QStringLiteral("the window was never exposed");
        if (shown.isEmpty() && !shown.wait(options.timeoutMs))
            return QStringLiteral("no data shown within %1 ms").arg(options.timeoutMs);
        if (!dbUrl.isEmpty()) {
            // Not QTRY_*: on failure those return void from this function.
            (void)QTest::qWaitFor([&] { return !dbOpened.isEmpty() || !dbFailed.isEmpty(); },
                                  options.timeoutMs);
            if (dbOpened.isEmpty())
                return QStringLiteral("the usage database did not open: %1").arg(dbUrl);
        }
        const ClusterConnection *session = window->session();
        if (!QTest::qWaitFor(
                [&] {
                    return session->state() == ClusterConnection::State::Live &&
                           !session->identity().isEmpty();
                },
                options.timeoutMs))
            return QStringLiteral("the session is not live with an identity after %1 ms")
                .arg(options.timeoutMs);
        return {};
    }

    QString start(const WindowOptions &options = {}) {
        if (QString err = startCluster(); !err.isEmpty())
            return err;
        return openWindow(options);
    }

    // The window goes first: it must not outlive the server it talks to.
    void stop() {
        window.reset();
        cluster.reset();
    }

    [[nodiscard]] QString path(const QString &name) const { return dir.filePath(name); }
    [[nodiscard]] QString kubeconfig() const { return cluster->kubeconfigPath(); }
    template <typename T> T *find(const QString &objectName) const {
        return window->findChild<T *>(objectName);
    }
};

} // namespace gq::test
