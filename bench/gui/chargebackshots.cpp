// Takes the Chargeback page's README screenshots: the real console window against the
// demo test cluster and the demo usage database, on the Chargeback tab for last month
// with a rates file (MIG slices cheaper), captured from the X server with ImageMagick's
// `import -window root` — run it under `xvfb-run -a`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" chargeback_screenshots --out docs/screenshots --lang zh_CN

#include "models/chargeback/chargebackmodel.h"
#include "widgets/chargeback/chargebackpage.h"
#include "bench/gui/democonsole.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLineEdit>

using namespace gq;

namespace {
using shots::waitUntil;
} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const shots::Options options(app.arguments());
    shots::DemoConsole console;
    if (!console.start() ||
        !console.seedUsage(QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone()))
        return 1;
    const QString rates = console.filePath(QStringLiteral("rates.yaml"));
    QFile f(rates);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write("currency: EUR\ndefault: 2.50\nresources:\n  nvidia.com/mig-1g.10gb: 1.20\n"
                "  nvidia.com/mig-3g.40gb: 1.60\n") < 0)
        return 1;
    f.close();

    MainWindow &w = console.window();
    if (!console.show())
        return 2;
    auto *page = w.findChild<ChargebackPage *>(QStringLiteral("chargebackPage"));
    if (!page || !console.showTab(page))
        return 3;
    page->findChild<QComboBox *>(QStringLiteral("chargebackZone"))
        ->setCurrentText(QStringLiteral("Europe/Berlin"));
    auto *ratesEdit = page->findChild<QLineEdit *>(QStringLiteral("chargebackRatesFile"));
    ratesEdit->setText(rates);
    emit ratesEdit->editingFinished();
    waitUntil([&] { return !page->isLoading() && page->model()->rowCount() > 0; });
    return shots::shootScreen(options.file(QStringLiteral("chargeback")), 800) ? 0 : 4;
}
