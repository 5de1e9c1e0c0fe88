// Takes the README screenshots: the real console against the demo test cluster,
// driven into each state (main window with a pending edit, YAML editor with an
// error, the diff confirmation, the conflict view), each captured from the X
// server with ImageMagick's `import -window root` — run it under `xvfb-run -a`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" console_screenshots --out docs/screenshots --lang zh_CN

#include "widgets/editor/applyconfirmdialog.h"
#include "widgets/editor/conflictdialog.h"
#include "bench/gui/democonsole.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "models/quotas/quotatablemodel.h"
#include "widgets/editor/yamleditor.h"

#include <QApplication>
#include <QDateTime>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QToolButton>

#include <cstdio>

using namespace gq;

namespace {
using shots::waitUntil;

void settle(int ms = 600) {
    waitUntil([] { return false; }, ms);
}

bool shoot(const QString &file) {
    return shots::shootScreen(file, 600);
}

template <typename T> T *dialog() {
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *d = qobject_cast<T *>(w); d && d->isVisible())
            return d;
    return nullptr;
}

// Waits for the dialog a click opened, shoots it at that geometry and closes it with
// `close` (the dialog's own way out, so the window behind is as the user leaves it).
template <typename T, typename Close>
void shootDialog(const QRect &geometry, const QString &file, Close close) {
    waitUntil([] { return dialog<T>() != nullptr; });
    if (auto *d = dialog<T>()) {
        d->setGeometry(geometry);
        shoot(file);
        close(d);
    }
    settle(300);
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const shots::Options options(app.arguments());
    shots::DemoConsole console;
    if (!console.start())
        return 1;
    MainWindow &w = console.window();
    w.setDemoMode(QApplication::translate(
        "main", "Demo mode: a local test cluster with made-up teams, started just for this window. Nothing "
                "you change here touches a real cluster; it is all removed when you close the window."));
    // The same week of usage and budgets as --demo, so the list shows the budget badges.
    if (!console.seedUsage(QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone()))
        return 1;
    if (!console.show())
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
    // The cluster dashboard opens first; these shots are of the quota page.
    w.findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(w.quotaPage());
    w.namespacePanel()->selectNamespace(QStringLiteral("team-vision"));
    QuotaPage *page = w.quotaPage();
    waitUntil([&] { return page->model()->isEditable() && page->model()->rowCount() > 0; });
    waitUntil([&] { return !w.session()->identity().isEmpty(); });

    // 1. The main window with a pending edit: two GPUs more, highlighted.
    auto *plus = w.findChild<QToolButton *>(QStringLiteral("gpuPlusButton"));
    plus->click();
    plus->click();
    shoot(options.file(QStringLiteral("main-window")));

    // 2. The diff confirmation for that edit.
    w.findChild<QPushButton *>(QStringLiteral("applyButton"))->click();
    shootDialog<ApplyConfirmDialog>(QRect(150, 90, 1100, 720),
                                    options.file(QStringLiteral("diff-confirmation")),
                                    [](ApplyConfirmDialog *d) { d->reject(); });

    // 3. The conflict view: someone changes the quota with kubectl during the edit.
    QProcess::execute(
        QStringLiteral("kubectl"),
        {QStringLiteral("--kubeconfig"), console.cluster().kubeconfigPath(), QStringLiteral("patch"),
         QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"), QStringLiteral("-n"),
         QStringLiteral("team-vision"), QStringLiteral("--type=merge"), QStringLiteral("-p"),
         QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"12","requests.cpu":"96"}}})")});
    shootDialog<ConflictDialog>(QRect(60, 50, 1280, 800), options.file(QStringLiteral("conflict-view")),
                                [](ConflictDialog *d) { d->discardMine(); });

    // 4. The YAML editor with an error marked on its line.
    w.findChild<QToolButton *>(QStringLiteral("quotaYamlToggle"))->click();
    YamlEditor *editor = page->editor();
    QString text = editor->yaml();
    text.replace(QRegularExpression(QStringLiteral("requests.memory: .*")),
                 QStringLiteral("requests.memory: 1Tb"));
    editor->replaceAll(text);
    waitUntil([&] { return editor->hasErrors() && !editor->isValidationPending(); });
    editor->setFocus();
    shoot(options.file(QStringLiteral("yaml-error")));
    return 0;
}
