// Help > About and the installer checks behind --version / --self-test: every library
// version is shown as the library reports it, "Copy versions" copies them all, and the
// self-test passes in a plain offscreen build. With GQ_SCREENSHOT_DIR set it saves the
// dialog there (GQ_SCREENSHOT_QM: a .qm to load first, GQ_SCREENSHOT_SUFFIX for the name).

#include "app/console/aboutdialog.h"
#include "app/console/buildinfo.h"
#include "app/console/selftest.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QIcon>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTest>
#include <QTranslator>

#include <curl/curl.h>

using namespace gq;

class TestAboutDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // The icon the console sets, from the console library's resources.
        const QIcon icon(QStringLiteral(":/icons/io.gpuquota.Console.svg"));
        QVERIFY(!icon.pixmap(64, 64).isNull());
        QApplication::setWindowIcon(icon);
        if (const QString qm = qEnvironmentVariable("GQ_SCREENSHOT_QM"); !qm.isEmpty()) {
            auto *t = new QTranslator(qApp);
            QVERIFY2(t->load(qm), qPrintable(qm));
            QCoreApplication::installTranslator(t);
            QLocale::setDefault(QLocale(t->language()));
        }
    }

    void showsEveryLibraryAsItReportsItself() {
        AboutDialog dialog;
        const QStringList names{QStringLiteral("Qt"), QStringLiteral("yaml-cpp"), QStringLiteral("libcurl"),
                                QStringLiteral("OpenSSL"), QStringLiteral("SQLite")};
        for (const QString &name : names) {
            auto *label = dialog.findChild<QLabel *>(QStringLiteral("version_") + name);
            QVERIFY2(label, qPrintable(name));
            QVERIFY2(!label->text().isEmpty(), qPrintable(name));
        }
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("version_Qt"))->text(),
                 QString::fromLatin1(qVersion()));
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("version_libcurl"))->text(),
                 QString::fromLatin1(curl_version_info(CURLVERSION_NOW)->version));
        QVERIFY(
            dialog.findChild<QLabel *>(QStringLiteral("aboutTitle"))->text().contains(BuildInfo::version()));
    }

    void copyPutsAllVersionsOnTheClipboard() {
        AboutDialog dialog;
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("copyVersionsButton")),
                          Qt::LeftButton);
        const QString text = QGuiApplication::clipboard()->text();
        QVERIFY2(text.startsWith(QStringLiteral("gpuquota-console ") + BuildInfo::version()),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("SQLite 3.")), qPrintable(text));
    }

    void selfTestPassesOffscreen() { QCOMPARE(selftest::run(), 0); }

    void screenshot() {
        const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("GQ_SCREENSHOT_DIR not set");
        AboutDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QString file = QDir(dir).filePath(
            QStringLiteral("about%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX")));
        QVERIFY(dialog.grab().save(file));
    }
};

QTEST_MAIN(TestAboutDialog)
#include "tst_aboutdialog.moc"
