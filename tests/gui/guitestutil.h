#pragma once

#include <QAbstractItemModel>
#include <QApplication>
#include <QLocale>
#include <QProcess>
#include <QTest>
#include <QTranslator>
#include <QWidget>

namespace gq::test {

// The dialog the application is showing right now, found the way a user sees it:
// the active modal widget, else any visible top-level of that type and name.
// Our dialogs are opened with open() (no nested event loop), so a test can poll
// for them with QTRY_VERIFY instead of racing a QTimer::singleShot.
template <typename T> T *visibleDialog(const QString &objectName = {}) {
    if (auto *modal = qobject_cast<T *>(QApplication::activeModalWidget()))
        if (objectName.isEmpty() || modal->objectName() == objectName)
            return modal;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *d = qobject_cast<T *>(w);
            d && d->isVisible() && (objectName.isEmpty() || d->objectName() == objectName))
            return d;
    return nullptr;
}

// Screenshots (GQ_SCREENSHOT_DIR) in another language: loads the .qm named by
// GQ_SCREENSHOT_QM, if any, and makes its language the default locale. Empty on
// success, else the file that did not load.
inline QString installScreenshotTranslator() {
    const QString qm = qEnvironmentVariable("GQ_SCREENSHOT_QM");
    if (qm.isEmpty())
        return {};
    auto *t = new QTranslator(qApp);
    if (!t->load(qm))
        return QStringLiteral("cannot load ") + qm;
    QCoreApplication::installTranslator(t);
    QLocale::setDefault(QLocale(t->language()));
    return {};
}

// Runs the real kubectl against the test cluster; returns stdout, or a string
// starting with "ERROR" carrying stderr, so QCOMPARE shows what went wrong.
inline QString kubectl(const QString &kubeconfig, const QStringList &args,
                       const QString &context = QStringLiteral("admin")) {
    QProcess p;
    p.start(QStringLiteral("kubectl"),
            QStringList{QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--context"), context} +
                args);
    if (!p.waitForFinished(30000))
        return QStringLiteral("ERROR timeout");
    if (p.exitCode() != 0)
        return QStringLiteral("ERROR ") + QString::fromUtf8(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

inline int rowWithText(const QAbstractItemModel *model, int column, const QString &text) {
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, column).data().toString() == text)
            return r;
    return -1;
}

} // namespace gq::test
