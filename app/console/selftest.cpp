#include "app/console/selftest.h"

#include "app/console/buildinfo.h"
#include "models/usage/stackedchart.h"
#include "widgets/charts/usagechart.h"
#include "core/usage/usagestore.h"

#include <QApplication>
#include <QColor>
#include <QCoreApplication>
#include <QImage>
#include <QImageReader>
#include <QLibraryInfo>
#include <QSqlDatabase>
#include <QTranslator>

#include <cstdio>
#include <cstring>

namespace gq::selftest {

namespace {

bool hasArg(int argc, char **argv, const char *name) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return true;
    return false;
}

struct Checks {
    int failed = 0;
    int passed = 0;
    void report(bool ok, const QString &what, const QString &detail) {
        ok ? ++passed : ++failed;
        std::printf("%s %-12s %s\n", ok ? "ok  " : "FAIL", qPrintable(what), qPrintable(detail));
    }
};

// Writes one interval of 2 GPUs for one hour and reads the GPU-hours back: the
// driver, the schema migration and the ledger query in one go.
void checkDatabase(Checks &checks) {
    auto store = UsageStore::open(QStringLiteral("sqlite://:memory:"));
    if (!store) {
        checks.report(false, QStringLiteral("sqlite"), store.error().message);
        return;
    }
    UsageInterval iv;
    iv.cluster = QStringLiteral("self-test");
    iv.ns = QStringLiteral("team-a");
    iv.user = QStringLiteral("alice");
    iv.podUid = QStringLiteral("uid-1");
    iv.podName = QStringLiteral("train-0");
    iv.gpus = 2;
    iv.start = 1'700'000'000;
    iv.end = iv.start + 3600;
    iv.source = QStringLiteral("self-test");
    if (auto up = (*store)->upsertInterval(iv); !up) {
        checks.report(false, QStringLiteral("sqlite"), up.error().message);
        return;
    }
    const auto version = (*store)->schemaVersion();
    const auto used =
        (*store)->usedGpuHours(BudgetScope::User, iv.user, TimeRange{iv.start, *iv.end}, *iv.end);
    const bool ok = version && used && qFuzzyCompare(*used, 2.0);
    checks.report(ok, QStringLiteral("sqlite"),
                  ok ? QStringLiteral("in-memory usage database, schema v%1, 2 GPUs x 1 h = %2 GPU-h")
                           .arg(*version)
                           .arg(*used, 0, 'f', 2)
                     : (used ? QStringLiteral("wrong GPU-hours read back") : used.error().message));
}

void checkDrivers(Checks &checks) {
    const QStringList drivers = QSqlDatabase::drivers();
    const bool ok = drivers.contains(QLatin1String("QSQLITE")) && drivers.contains(QLatin1String("QPSQL"));
    checks.report(ok, QStringLiteral("sql drivers"), drivers.join(QLatin1Char(' ')));
}

void checkTranslation(Checks &checks) {
    QTranslator zh;
    const bool loaded = zh.load(QStringLiteral("gpuquota_zh_CN"), QStringLiteral(":/i18n"));
    const QString text = zh.translate("gq::MainWindow", "&File");
    const bool ok = loaded && !text.isEmpty() && text != QLatin1String("&File");
    checks.report(ok, QStringLiteral("translation"),
                  loaded ? QStringLiteral("zh_CN catalogue: \"&File\" -> \"%1\"").arg(text)
                         : QStringLiteral("no :/i18n/gpuquota_zh_CN.qm"));
}

// A two-band chart rendered to an image: the chart library, its plugins and the
// fonts it needs. The bands' colours must show up in the pixels.
void checkChart(Checks &checks) {
    StackedChart chart;
    chart.categories = {QStringLiteral("Mon"), QStringLiteral("Tue"), QStringLiteral("Wed")};
    chart.categoryTitles = chart.categories;
    chart.valueTitle = QStringLiteral("GPU-hours");
    chart.unit = QStringLiteral("GPU-h");
    chart.bands.append(
        {QStringLiteral("team-a"), {QStringLiteral("team-a")}, QColor(0x1f, 0x77, 0xb4), {4, 6, 3}});
    chart.bands.append(
        {QStringLiteral("team-b"), {QStringLiteral("team-b")}, QColor(0xd6, 0x27, 0x28), {2, 1, 5}});
    const QSize size(640, 360);
    UsageChart widget;
    // Laid out at its size, as a page shows it, but never on a screen.
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.setChart(chart);
    widget.show();
    QCoreApplication::processEvents();
    const QImage image = widget.renderImage(size).convertToFormat(QImage::Format_RGB32);
    int blue = 0;
    int red = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const QColor c(line[x]);
            blue += (c.blue() > 150 && c.red() < 80) ? 1 : 0;
            red += (c.red() > 180 && c.blue() < 80 && c.green() < 80) ? 1 : 0;
        }
    }
    const bool ok = image.size() == size && blue > 500 && red > 500;
    checks.report(ok, QStringLiteral("chart"),
                  QStringLiteral("%1x%2 on platform '%3': %4 px team-a, %5 px team-b")
                      .arg(image.width())
                      .arg(image.height())
                      .arg(QGuiApplication::platformName())
                      .arg(blue)
                      .arg(red));
}

void checkIcons(Checks &checks) {
    const bool svg = QImageReader::supportedImageFormats().contains("svg");
    checks.report(svg, QStringLiteral("svg icons"),
                  svg ? QStringLiteral("image plugin loaded") : QStringLiteral("no svg image format plugin"));
}

} // namespace

bool wantsVersion(int argc, char **argv) {
    return hasArg(argc, argv, "--version");
}
bool wantsSelfTest(int argc, char **argv) {
    return hasArg(argc, argv, "--self-test");
}

int printVersion() {
    std::printf("gpuquota-console %s\n", qPrintable(BuildInfo::version()));
    for (const auto &[name, version] : BuildInfo::libraryVersions())
        std::printf("  %-9s %s\n", qPrintable(name), qPrintable(version));
    return 0;
}

int run() {
    std::printf("gpuquota-console %s self-test, Qt %s\n", qPrintable(BuildInfo::version()), qVersion());
    // Where Qt and its plugins came from: a bundle must name its own folders here.
    std::printf("  qt libraries  %s\n", qPrintable(QLibraryInfo::path(QLibraryInfo::LibrariesPath)));
    std::printf("  plugin paths  %s\n", qPrintable(QCoreApplication::libraryPaths().join(QLatin1Char(':'))));
    Checks checks;
    checkDatabase(checks);
    checkDrivers(checks);
    checkTranslation(checks);
    checkChart(checks);
    checkIcons(checks);
    // Not "N passed, N failed": CI logs read such a line as a test runner's summary.
    if (checks.failed == 0)
        std::printf("self-test ok: all %d checks\n", checks.passed);
    else
        std::printf("self-test FAILED: %d of %d checks\n", checks.failed, checks.failed + checks.passed);
    std::fflush(stdout);
    return checks.failed == 0 ? 0 : 1;
}

} // namespace gq::selftest
