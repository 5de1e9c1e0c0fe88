#pragma once

// The console that the screenshot programs with a main window (console_screenshots,
// usage_screenshots, chargeback_screenshots, boost_screenshots) drive: their options,
// and the real MainWindow against the demo test cluster and a demo usage database, in
// a temporary folder that goes with it.

#include "services/settings/consolesettings.h"
#include "app/demo/demousage.h"
#include "services/quotas/draftstore.h"
#include "app/console/mainwindow.h"
#include "bench/gui/shotsetup.h"
#include "tests/testclusterprocess.h"

#include <QDateTime>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimeZone>

#include <cstdio>
#include <memory>

namespace gq::shots {

// --out DIR, --lang L and --qm DIR; the language's translations stay installed while
// this lives.
struct Options {
    explicit Options(const QStringList &args)
        : out(arg(args, QStringLiteral("--out"), QStringLiteral(".")))
        , lang(arg(args, QStringLiteral("--lang"), QStringLiteral("en")))
        , suffix(lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang)
        , language(lang, arg(args, QStringLiteral("--qm"), QStringLiteral(GQ_QM_DIR))) {}

    // DIR/<name>.png in English, DIR/<name>-<lang>.png otherwise.
    [[nodiscard]] QString file(const QString &name) const {
        return out + QLatin1Char('/') + name + suffix + QStringLiteral(".png");
    }

    const QString out;
    const QString lang;
    const QString suffix;
    const Language language;
};

class DemoConsole {
public:
    // Starts the demo cluster and makes the window (not shown yet); false, with the
    // reason on stderr, when the cluster does not start.
    bool start() {
        if (!m_cluster.start()) {
            std::fprintf(stderr, "%s\n", qPrintable(m_cluster.errorString()));
            return false;
        }
        m_window = std::make_unique<MainWindow>(&m_settings, &m_drafts);
        return true;
    }
    // The same week of usage and budgets as --demo, up to `now` in `zone`; false, with
    // the reason on stderr, when it cannot be written.
    bool seedUsage(qint64 now, const QTimeZone &zone) {
        if (auto seeded = seedDemoUsage(m_usageUrl, now, zone); !seeded) {
            std::fprintf(stderr, "demo usage: %s\n", qPrintable(seeded.error().message));
            return false;
        }
        return true;
    }
    // Opens the usage database and the cluster as admin and shows the window at 1400x900;
    // false when its data has not shown within the wait.
    bool show() {
        MainWindow &w = *m_window;
        w.openUsageDatabase(m_usageUrl);
        w.openKubeconfig(m_cluster.kubeconfigPath(), QStringLiteral("admin"));
        w.setGeometry(0, 0, 1400, 900);
        w.show();
        bool shown = false;
        const QMetaObject::Connection c = QObject::connect(&w, &MainWindow::dataShown, [&] { shown = true; });
        const bool ok = waitUntil([&] { return shown; });
        QObject::disconnect(c);
        return ok;
    }

    // Brings up the details tab that holds `page`: the page itself, or the gate in front
    // of a usage-database page (QTabWidget::setCurrentWidget(page) does nothing for
    // those); false when no tab holds it.
    bool showTab(QWidget *page) {
        auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
        for (QWidget *w = page; tabs && w; w = w->parentWidget()) {
            if (const int i = tabs->indexOf(w); i >= 0) {
                tabs->setCurrentIndex(i);
                return true;
            }
        }
        return false;
    }

    [[nodiscard]] MainWindow &window() { return *m_window; }
    [[nodiscard]] const test::TestClusterProcess &cluster() const { return m_cluster; }
    [[nodiscard]] QString filePath(const QString &name) const { return m_dir.filePath(name); }

private:
    test::TestClusterProcess m_cluster{
        test::TestClusterProcess::Options{QStringLiteral("demo"), {}, {}, 60000}};
    QTemporaryDir m_dir;
    ConsoleSettings m_settings{m_dir.filePath(QStringLiteral("s.ini"))};
    DraftStore m_drafts{nullptr, m_dir.filePath(QStringLiteral("drafts"))};

public:
    // The demo usage database (a screenshot may add rows the console then reads).
    [[nodiscard]] const QString &usageUrl() const { return m_usageUrl; }

private:
    const QString m_usageUrl = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
    std::unique_ptr<MainWindow> m_window;
};

} // namespace gq::shots
