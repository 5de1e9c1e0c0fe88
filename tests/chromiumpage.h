#pragma once

// Headless Chromium on one HTML document, as the self-service page tests drive it: the
// DOM it built (--dump-dom) and a screenshot of `size`, copied into GQ_SCREENSHOT_DIR as
// `shot` when that is set. Chromium missing is an error (scripts/install-deps.sh installs
// it), never a skip.

#include "tests/kube/kubetestutil.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>

namespace gq::test {

struct ChromiumPage {
    QString error; // empty when both runs worked
    QString dom;
    QImage image;
};

inline ChromiumPage openInChromium(const QByteArray &html, const QString &shot, QSize size) {
    ChromiumPage page;
    const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
    if (chromium.isEmpty()) {
        page.error = QStringLiteral("chromium is not installed (scripts/install-deps.sh installs it)");
        return page;
    }
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("quota.html"));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(html) != html.size()) {
        page.error = QStringLiteral("cannot write %1").arg(file);
        return page;
    }
    f.close();
    const QString url = QUrl::fromLocalFile(file).toString();
    const QStringList common{QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                             QStringLiteral("--disable-gpu"), QStringLiteral("--hide-scrollbars"),
                             QStringLiteral("--user-data-dir=") + dir.filePath(QStringLiteral("profile"))};
    const ToolRun dom = runTool(chromium, common + QStringList{QStringLiteral("--dump-dom"), url}, 120000);
    if (dom.exitCode != 0) {
        page.error = QStringLiteral("chromium --dump-dom: ") + QString::fromUtf8(dom.err);
        return page;
    }
    page.dom = QString::fromUtf8(dom.out);
    const QString png = dir.filePath(shot);
    const ToolRun s = runTool(
        chromium,
        common + QStringList{QStringLiteral("--screenshot=") + png,
                             QStringLiteral("--window-size=%1,%2").arg(size.width()).arg(size.height()), url},
        120000);
    if (s.exitCode != 0 || !page.image.load(png)) {
        page.error = QStringLiteral("chromium --screenshot: ") + QString::fromUtf8(s.err);
        return page;
    }
    if (const QString out = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !out.isEmpty()) {
        QFile::remove(QDir(out).filePath(shot));
        if (!QFile::copy(png, QDir(out).filePath(shot)))
            page.error = QStringLiteral("cannot copy the screenshot into %1").arg(out);
    }
    return page;
}

// Pixels of exactly `colour` among every second pixel of every second row: a page drawn,
// not blank, has its card's white and its background's grey.
inline int pixelsOf(const QImage &image, const QColor &colour) {
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            n += image.pixelColor(x, y) == colour;
    return n;
}

} // namespace gq::test
