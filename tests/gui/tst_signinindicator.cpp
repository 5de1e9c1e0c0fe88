// "Waiting for sign-in" in the status bar while a real exec credential plugin (a shell
// script that takes its time, as a browser login does) runs through runExecPlugin on
// another thread; gone once it returned.
#include "core/kube/kubeconfig.h"
#include "widgets/connections/signinindicator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace gq;

class TestSignInIndicator : public QObject {
    Q_OBJECT

private slots:
    void showsAWaitingLogin() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString script = dir.filePath(QStringLiteral("slow-login"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nsleep 2\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
                "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t-1\"}}'\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        KubeExecConfig exec;
        exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1");
        exec.command = script;
        exec.interactiveMode = QStringLiteral("IfAvailable");

        SignInIndicator indicator;
        indicator.setInterval(50);
        indicator.show(); // as in the status bar; the indicator hides itself while idle
        QTRY_VERIFY(!indicator.isVisible());

        bool ok = false;
        std::thread login(
            [&] { ok = bool(runExecPlugin(exec, QStringLiteral("https://127.0.0.1:1"), 20000)); });
        QTRY_VERIFY_WITH_TIMEOUT(indicator.isVisible(), 3000);
        QVERIFY2(indicator.text().startsWith(QStringLiteral("Waiting for sign-in: ") + script),
                 qPrintable(indicator.text()));
        QTRY_VERIFY_WITH_TIMEOUT(!indicator.isVisible(), 10000);
        login.join();
        QVERIFY(ok);
    }
};

QTEST_MAIN(TestSignInIndicator)
#include "tst_signinindicator.moc"
