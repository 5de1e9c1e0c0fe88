// The Boosts tab's grant dialog with a Kueue target: ClusterQueue, flavor, resource and field
// chosen from the queues read off the GUI thread (the test cluster's demo scenario serves
// Kueue's kinds), the preview before -> during -> after, and a grant that goes through
// BoostService (the ledger, then the reconciler's conditional PUT, as `gpuquota boost grant
// --clusterqueue`): the server's nominalQuota rises by the boost, the ledger has its target.
#include "widgets/boosts/boostgrantdialog.h"
#include "core/usage/boostledger.h"
#include "services/boosts/boostservice.h"
#include "widgets/boosts/boostspage.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuemodel.h"
#include "core/kueue/kueuereader.h"
#include "tests/gui/pagefixture.h"
#include "widgets/boosts/queueboosttarget.h"
#include "core/usage/usagestore.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::test;

class TestQueueGrant : public QObject {
    Q_OBJECT

    PageFixture m_fx;
    QTemporaryDir m_dir;
    QString m_url;
    std::unique_ptr<BoostService> m_service;
    std::unique_ptr<BoostsPage> m_page;

    // The ClusterQueue's field of `flavor`'s nvidia.com/gpu on the server ("" when absent).
    QString serverValue(const QString &cq, const QString &flavor, bool borrowing = false) {
        auto client = m_fx.session->client();
        auto version = kueue::detectVersion(*client);
        if (!version)
            return QStringLiteral("no version: ") + version.error().message;
        auto get = client->get(kueue::resource(QStringLiteral("clusterqueues"), *version), QString(), cq);
        get.waitForFinished();
        const auto object = get.result();
        if (!object)
            return object.error().message;
        auto parsed = kueue::parseClusterQueue(*object);
        const kueue::FlavorQuotas *f = parsed ? parsed->flavor(flavor) : nullptr;
        const kueue::ResourceLimits *r = f ? f->find(QStringLiteral("nvidia.com/gpu")) : nullptr;
        if (!r)
            return {};
        if (borrowing)
            return r->borrowingLimit ? r->borrowingLimit->toString() : QString();
        return r->nominal.toString();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        const QString err = m_fx.start();
        QVERIFY2(err.isEmpty(), qPrintable(err));
        m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        m_service = std::make_unique<BoostService>();
        m_page = std::make_unique<BoostsPage>(m_service.get());
        m_page->setActorSource([] { return QStringLiteral("admin@example.com"); });
        m_page->setConnection(m_fx.session.get());
        QSignalSpy listed(m_service.get(), &BoostService::listed);
        m_service->open(m_url);
        QVERIFY(listed.wait(15000));
    }

    void grantRaisesTheClusterQueueFlavor() {
        QCOMPARE(serverValue(QStringLiteral("cq-nlp"), QStringLiteral("h100")), QStringLiteral("16"));
        BoostGrantDialog *d = m_page->openGrantDialog(QString(), QString(), QString());
        QVERIFY(d);
        QTest::mouseClick(d->findChild<QRadioButton *>(QStringLiteral("boostKindQueue")), Qt::LeftButton);
        auto *queues = d->findChild<QComboBox *>(QStringLiteral("boostClusterQueue"));
        QTRY_VERIFY_WITH_TIMEOUT(queues->count() >= 5, 10000);
        // Queue boosts add (the CLI's --add): "Set to" is off.
        QVERIFY(!d->findChild<QRadioButton *>(QStringLiteral("boostSetMode"))->isEnabled());
        queues->setCurrentText(QStringLiteral("cq-nlp"));
        auto *flavors = d->findChild<QComboBox *>(QStringLiteral("boostFlavor"));
        QVERIFY(flavors->findText(QStringLiteral("h100")) >= 0);
        flavors->setCurrentText(QStringLiteral("h100"));
        QCOMPARE(d->findChild<QComboBox *>(QStringLiteral("boostQueueResource"))->currentText(),
                 QStringLiteral("nvidia.com/gpu"));
        auto *field = d->findChild<QComboBox *>(QStringLiteral("boostQueueField"));
        field->setCurrentIndex(field->findData(QStringLiteral("nominalQuota")));
        d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(QStringLiteral("+4"));
        d->findChild<QLineEdit *>(QStringLiteral("boostDuration"))->setText(QStringLiteral("2h"));
        auto *ok = d->findChild<QPushButton *>(QStringLiteral("boostOkButton"));
        // No note yet: OK is off and says why, the preview already shows 16 -> 20 -> 16.
        QVERIFY(!ok->isEnabled());
        QVERIFY2(d->reason().contains(QLatin1String("10")), qPrintable(d->reason()));
        const QString preview = d->findChild<QLabel *>(QStringLiteral("boostPreview"))->text();
        QVERIFY2(preview.contains(QStringLiteral("16 \u2192 20 \u2192 16")), qPrintable(preview));
        d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"))
            ->setPlainText(QStringLiteral("paper deadline on Friday"));
        QVERIFY2(ok->isEnabled(), qPrintable(d->reason()));

        QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
        QSignalSpy changed(m_service.get(), &BoostService::changed);
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(reconciled.wait(20000));
        QVERIFY(!changed.isEmpty());
        const qint64 id = changed.first().at(0).value<Boost>().id;
        // The server, and the ledger as `gpuquota boost list` reads it.
        QCOMPARE(serverValue(QStringLiteral("cq-nlp"), QStringLiteral("h100")), QStringLiteral("20"));
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        auto b = BoostLedger(**store).find(id);
        QVERIFY(b);
        QCOMPARE(b->target,
                 BoostTarget::queueEntry(QStringLiteral("cq-nlp"), QStringLiteral("h100"),
                                         QStringLiteral("nominalQuota"), QStringLiteral("nvidia.com/gpu")));
        QCOMPARE(b->delta, QStringLiteral("4"));
        QCOMPARE(b->state, Boost::State::Active);
        QCOMPARE(b->expiry - b->start, 7200);
        QCOMPARE(b->actor, QStringLiteral("admin@example.com"));
    }

    void borrowingLimitNeedsACohortAndSaysSo() {
        BoostGrantDialog *d = m_page->openGrantDialog(QString(), QString(), QString());
        QVERIFY(d);
        d->setQueueTarget(QString());
        auto *queues = d->findChild<QComboBox *>(QStringLiteral("boostClusterQueue"));
        QTRY_VERIFY_WITH_TIMEOUT(queues->count() >= 5, 10000);
        d->queueTarget()->select(QStringLiteral("cq-nlp"), QStringLiteral("h100"),
                                 QStringLiteral("nvidia.com/gpu"), QStringLiteral("borrowingLimit"));
        d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(QStringLiteral("+2"));
        d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"))
            ->setPlainText(QStringLiteral("more borrowing for the sweep"));
        // cq-nlp has a cohort and a borrowingLimit of 8: the plan shows 8 -> 10 -> 8.
        QVERIFY2(d->canGrant(), qPrintable(d->reason()));
        const QString preview = d->findChild<QLabel *>(QStringLiteral("boostPreview"))->text();
        QVERIFY2(preview.contains(QStringLiteral("8 \u2192 10 \u2192 8")), qPrintable(preview));
        // A delta that is not a number is refused before anything is recorded.
        d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(QStringLiteral("lots"));
        QVERIFY(!d->canGrant());
        QVERIFY(!d->reason().isEmpty());
        d->reject();
    }

    void cleanupTestCase() {
        m_page.reset();
        m_service.reset();
        m_fx.stop();
    }
};

QTEST_MAIN(TestQueueGrant)
#include "tst_queuegrant.moc"
