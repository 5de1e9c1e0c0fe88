// The controller in the status bar against a real local HTTP server (our httpd): its
// /readyz is asked off the GUI thread, "controller ready" on 200, "controller not
// ready: ..." with what the controller says failed on 503, "controller unreachable:
// ..." once nothing listens; hidden without a URL. And the Budgets page's link to the
// controller's self-service page for the signed-in user, opened in the browser.

#include "services/budgets/budgetservice.h"
#include "widgets/budgets/budgetspage.h"
#include "services/cluster/connectionprobe.h"
#include "widgets/connections/controllerindicator.h"
#include "core/httpd/httpserver.h"

#include <QDesktopServices>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

#include <atomic>

using namespace gq;

// Stands in for the browser: QDesktopServices hands it the URL.
class UrlCatcher : public QObject {
    Q_OBJECT
public slots:
    void open(const QUrl &url) { opened << url; }

public:
    QList<QUrl> opened;
};

class TestControllerIndicator : public QObject {
    Q_OBJECT
private slots:
    void readyNotReadyUnreachable();
    void selfServiceLink();
};

void TestControllerIndicator::readyNotReadyUnreachable() {
    std::atomic<bool> ready{true};
    std::atomic<int> asked{0};
    auto server = std::make_unique<httpd::HttpServer>();
    server->route("GET", QStringLiteral("/readyz"), [&](const httpd::Request &) {
        ++asked;
        return ready ? httpd::Response::text(200, QStringLiteral("ok\npod cache synced: yes\n"))
                     : httpd::Response::text(503, QStringLiteral("not ready\npod cache synced: yes\n"
                                                                 "database: unavailable\n"));
    });
    auto port = server->start(httpd::ListenAddress{QStringLiteral("127.0.0.1"), 0});
    QVERIFY2(port, qPrintable(port ? QString() : port.error().message));
    const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(*port);

    auto probe = std::make_shared<ConnectionProbe>();
    QVERIFY(!probe->isStarted()); // no transport until something is asked
    ControllerIndicator indicator(probe);
    QSignalSpy checked(&indicator, &ControllerIndicator::checked);
    indicator.setInterval(200);
    indicator.setUrl(url);
    QVERIFY(!indicator.isHidden());
    QVERIFY(checked.wait(10000));
    QCOMPARE(checked.last().at(0).toBool(), true);
    QCOMPARE(indicator.text(), QStringLiteral("controller ready"));
    QVERIFY(indicator.isReady());
    QVERIFY(asked >= 1);
    QVERIFY(probe->isStarted()); // the probe's transport, not one of the indicator's own

    ready = false;
    QTRY_VERIFY_WITH_TIMEOUT(!indicator.isReady(), 10000);
    QCOMPARE(indicator.text(), QStringLiteral("controller not ready: database: unavailable"));

    server->stop();
    server.reset();
    QTRY_VERIFY_WITH_TIMEOUT(indicator.text().startsWith(QStringLiteral("controller unreachable: ")), 15000);
    QVERIFY2(indicator.text().contains(QStringLiteral("127.0.0.1:%1").arg(*port)),
             qPrintable(indicator.text()));

    // No controller for the context: nothing shown, nothing asked.
    indicator.setUrl(QString());
    QVERIFY(indicator.isHidden());
}

void TestControllerIndicator::selfServiceLink() {
    BudgetService service;
    BudgetsPage page(&service);
    auto *link = page.findChild<QLabel *>(QStringLiteral("selfServiceLink"));
    QVERIFY(link);
    page.show();
    QVERIFY(link->isHidden());
    // A user name with characters a query must escape comes back whole.
    const QString user = QStringLiteral("o'neil&co+ml@example.com");
    page.setSelfService(QStringLiteral("http://gpuquota-controller.gpuquota-system.svc:8080/"), user);
    QVERIFY(!link->isHidden());
    const QUrl url = page.selfServiceUrl();
    QCOMPARE(url.toString(QUrl::RemoveQuery),
             QStringLiteral("http://gpuquota-controller.gpuquota-system.svc:8080/quota"));
    QCOMPARE(QUrlQuery(url).queryItemValue(QStringLiteral("user"), QUrl::FullyDecoded), user);
    QCOMPARE(QUrlQuery(url).queryItems().size(), 1);
    QVERIFY2(link->text().contains(QStringLiteral("Self-service page for o")), qPrintable(link->text()));
    UrlCatcher browser;
    QDesktopServices::setUrlHandler(QStringLiteral("http"), &browser, "open");
    emit link->linkActivated(page.selfServiceUrl().toString(QUrl::FullyEncoded));
    QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
    QCOMPARE(browser.opened, QList<QUrl>{page.selfServiceUrl()});
    // No user known (not signed in yet), or no controller: no link.
    page.setSelfService(QStringLiteral("http://ctl:8080"), QString());
    QVERIFY(link->isHidden());
    page.setSelfService(QString(), QStringLiteral("alice"));
    QVERIFY(link->isHidden());
}

QTEST_MAIN(TestControllerIndicator)
#include "tst_controllerindicator.moc"
