#pragma once

// What every screenshot program (screenshots, usage_screenshots, chargeback_screenshots,
// boost_screenshots, livegpu_screenshots) shares: its options, the language asked for,
// waiting for the window to get somewhere, and shooting the screen.

#include <QApplication>
#include <QElapsedTimer>
#include <QLibraryInfo>
#include <QLocale>
#include <QProcess>
#include <QRect>
#include <QScreen>
#include <QStringList>
#include <QTranslator>
#include <QWidget>

#include <cstdio>
#include <functional>

namespace gq::shots {

// The value after `name` in args, or fallback.
inline QString arg(const QStringList &args, const QString &name, const QString &fallback) {
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
}

// Qt's own and our translations for lang, installed for the application's lifetime.
class Language {
public:
    Language(const QString &lang, const QString &qmDir) {
        QLocale::setDefault(QLocale(lang));
        if (m_qt.load(QLocale(lang), QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&m_qt);
        if (m_ours.load(QLocale(lang), QStringLiteral("gpuquota"), QStringLiteral("_"), qmDir))
            QApplication::installTranslator(&m_ours);
    }
    Language(const Language &) = delete;
    Language &operator=(const Language &) = delete;

private:
    QTranslator m_qt;
    QTranslator m_ours;
};

// Runs the event loop until done() or ms have passed; done()'s last answer.
inline bool waitUntil(const std::function<bool()> &done, int ms = 15000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

// The part of the screen the shown windows cover: the main window and any dialog over
// it, not the rest of a larger screen (that would come out as a black band).
inline QRect shownWindowsArea() {
    QRect area;
    for (const QWidget *w : QApplication::topLevelWidgets())
        if (w->isVisible() && (w->windowType() == Qt::Window || w->windowType() == Qt::Dialog))
            area |= w->frameGeometry();
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        area &= screen->geometry();
    return area;
}

// Lets the window settle for settleMs, then shoots the (Xvfb) screen to file, cropped to
// the shown windows whatever the screen's size.
inline bool shootScreen(const QString &file, int settleMs = 700) {
    waitUntil([] { return false; }, settleMs);
    QStringList args{QStringLiteral("-window"), QStringLiteral("root")};
    if (const QRect area = shownWindowsArea(); !area.isEmpty())
        args << QStringLiteral("-crop")
             << QStringLiteral("%1x%2+%3+%4").arg(area.width()).arg(area.height()).arg(area.x()).arg(area.y())
             << QStringLiteral("+repage");
    args << file;
    const int rc = QProcess::execute(QStringLiteral("import"), args);
    std::printf("%s %s\n", rc == 0 ? "wrote" : "FAILED", qPrintable(file));
    return rc == 0;
}

} // namespace gq::shots
