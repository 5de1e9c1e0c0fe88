#pragma once

// What every screenshot program (screenshots, usage_screenshots, chargeback_screenshots,
// boost_screenshots, livegpu_screenshots) shares: its options, the language asked for,
// waiting for the window to get somewhere, and shooting the screen.

#include <QApplication>
#include <QElapsedTimer>
#include <QLibraryInfo>
#include <QLocale>
#include <QProcess>
#include <QStringList>
#include <QTranslator>

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

// Lets the window settle for settleMs, then shoots the whole (Xvfb) screen to file.
inline bool shootScreen(const QString &file, int settleMs = 700) {
    waitUntil([] { return false; }, settleMs);
    const int rc = QProcess::execute(QStringLiteral("import"),
                                     {QStringLiteral("-window"), QStringLiteral("root"), file});
    std::printf("%s %s\n", rc == 0 ? "wrote" : "FAILED", qPrintable(file));
    return rc == 0;
}

} // namespace gq::shots
