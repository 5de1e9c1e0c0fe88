// Takes the README screenshots: the real console against the demo test cluster,
// driven into each state (main window with a pending edit, YAML editor with an
// error, the diff confirmation, the conflict view), each captured from the X
// server with ImageMagick's `import -window root` — run it under `xvfb-run -a`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" console_screenshots --out docs/screenshots --lang zh_CN

#include "app/console/demousage.h"
#include "app/console/mainwindow.h"
#include "core/draftstore.h"
#include "models/namespacelistmodel.h"
#include "models/quotatablemodel.h"
#include "testclusterprocess.h"
#include "widgets/applyconfirmdialog.h"
#include "widgets/conflictdialog.h"
#include "widgets/consolesettings.h"
#include "widgets/namespacepanel.h"
#include "widgets/quotapage.h"
#include "widgets/yamleditor.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QLibraryInfo>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTranslator>

#include <cstdio>
#include <functional>

using namespace gq;

namespace {
bool waitUntil(const std::function<bool()> &done, int ms = 15000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

void settle(int ms = 600) {
    waitUntil([] { return false; }, ms);
}

bool shoot(const QString &file) {
    settle();
    const int rc = QProcess::execute(QStringLiteral("import"),
                                     {QStringLiteral("-window"), QStringLiteral("root"), file});
    std::printf("%s %s\n", rc == 0 ? "wrote" : "FAILED", qPrintable(file));
    return rc == 0;
}

template <typename T> T *dialog() {
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *d = qobject_cast<T *>(w); d && d->isVisible())
            return d;
    return nullptr;
}

QString arg(const QStringList &args, const QString &name, const QString &fallback) {
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
}
} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString out = arg(args, QStringLiteral("--out"), QStringLiteral("."));
    const QString lang = arg(args, QStringLiteral("--lang"), QStringLiteral("en"));
    const QString qmDir = arg(args, QStringLiteral("--qm"), QStringLiteral(GQ_QM_DIR));
    const QString suffix = lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang;

    QLocale::setDefault(QLocale(lang));
    QTranslator qt, ours;
    if (qt.load(QLocale(lang), QStringLiteral("qtbase"), QStringLiteral("_"),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qt);
    if (ours.load(QLocale(lang), QStringLiteral("gpuquota"), QStringLiteral("_"), qmDir))
        QApplication::installTranslator(&ours);

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
    w.setDemoMode(QApplication::translate(
        "main", "Demo mode: a local test cluster with made-up teams, started just for this window. Nothing "
                "you change here touches a real cluster; it is all removed when you close the window."));
    // The same week of usage and budgets as --demo, so the list shows the budget badges.
    const QString usageUrl = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
    if (auto seeded =
            seedDemoUsage(usageUrl, QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone());
        !seeded) {
        std::fprintf(stderr, "demo usage: %s\n", qPrintable(seeded.error().message));
        return 1;
    }
    w.openUsageDatabase(usageUrl);
    w.openKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
    w.setGeometry(0, 0, 1400, 900);
    w.show();
    bool shown = false;
    QObject::connect(&w, &MainWindow::dataShown, [&] { shown = true; });
    if (!waitUntil([&] { return shown; }))
        return 2;
    const auto overBudget = [&] {
        const QAbstractItemModel *m = w.namespacePanel()->proxy();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, 0);
            if (i.data(NamespaceListModel::NameRole).toString() == QLatin1String("team-nlp"))
                return (i.data(NamespaceListModel::BadgesRole).toInt() &
                        (NamespaceListModel::OverBudgetBadge | NamespaceListModel::InGraceBadge)) != 0;
        }
        return false;
    };
    if (!waitUntil(overBudget))
        std::fprintf(stderr, "warning: team-nlp shows no budget badge\n");
    w.namespacePanel()->selectNamespace(QStringLiteral("team-vision"));
    QuotaPage *page = w.quotaPage();
    waitUntil([&] { return page->model()->isEditable() && page->model()->rowCount() > 0; });
    waitUntil([&] { return !w.session()->identity().isEmpty(); });

    // 1. The main window with a pending edit: two GPUs more, highlighted.
    auto *plus = w.findChild<QToolButton *>(QStringLiteral("gpuPlusButton"));
    plus->click();
    plus->click();
    shoot(out + QStringLiteral("/main-window") + suffix + QStringLiteral(".png"));

    // 2. The diff confirmation for that edit.
    w.findChild<QPushButton *>(QStringLiteral("applyButton"))->click();
    waitUntil([] { return dialog<ApplyConfirmDialog>() != nullptr; });
    if (auto *d = dialog<ApplyConfirmDialog>()) {
        d->setGeometry(150, 90, 1100, 720);
        shoot(out + QStringLiteral("/diff-confirmation") + suffix + QStringLiteral(".png"));
        d->reject();
    }
    settle(300);

    // 3. The conflict view: someone changes the quota with kubectl during the edit.
    QProcess::execute(
        QStringLiteral("kubectl"),
        {QStringLiteral("--kubeconfig"), cluster.kubeconfigPath(), QStringLiteral("patch"),
         QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"), QStringLiteral("-n"),
         QStringLiteral("team-vision"), QStringLiteral("--type=merge"), QStringLiteral("-p"),
         QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"12","requests.cpu":"96"}}})")});
    waitUntil([] { return dialog<ConflictDialog>() != nullptr; });
    if (auto *d = dialog<ConflictDialog>()) {
        d->setGeometry(60, 50, 1280, 800);
        shoot(out + QStringLiteral("/conflict-view") + suffix + QStringLiteral(".png"));
        d->discardMine();
    }
    settle(300);

    // 4. The YAML editor with an error marked on its line.
    w.findChild<QToolButton *>(QStringLiteral("quotaYamlToggle"))->click();
    YamlEditor *editor = page->editor();
    QString text = editor->yaml();
    text.replace(QRegularExpression(QStringLiteral("requests.memory: .*")),
                 QStringLiteral("requests.memory: 1Tb"));
    editor->replaceAll(text);
    waitUntil([&] { return editor->hasErrors() && !editor->isValidationPending(); });
    editor->setFocus();
    shoot(out + QStringLiteral("/yaml-error") + suffix + QStringLiteral(".png"));
    return 0;
}
