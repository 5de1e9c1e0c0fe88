// Applying a template through the dialog, against the real test cluster: the preview
// is a server dry run (nothing written), Apply writes through QuotaWriter (the same
// protocol as the console's edits: the audit head published on the object, the spec
// diff handed to the audit entry), and an object changed on the server after the
// preview ends its row in a conflict instead of being overwritten.

#include "tests/gui/guitestutil.h"
#include "tests/gui/pagefixture.h"
#include "widgets/quotas/templatedialog.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace gq;
using namespace gq::test;

namespace {
const QString kNs = QStringLiteral("default");

// "Namespace | Object | Action | Result" per row.
QString rows(const QTableWidget *table) {
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << (table->item(r, c) ? table->item(r, c)->text() : QString());
        out << cells.join(QLatin1String(" | "));
    }
    return out.join(QLatin1Char('\n'));
}
} // namespace

class TestTemplateDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void previewIsADryRunThenApplyWrites();
    void changedAfterPreviewIsAConflict();

private:
    [[nodiscard]] QString kubectl(const QStringList &args) const {
        return test::kubectl(m_fx.cluster->kubeconfigPath(), args);
    }
    void preview(TemplateDialog &dialog);

    PageFixture m_fx;
    QTemporaryDir m_templates;
};

void TestTemplateDialog::initTestCase() {
    const QString error = m_fx.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestTemplateDialog::cleanupTestCase() {
    m_fx.stop();
}

void TestTemplateDialog::preview(TemplateDialog &dialog) {
    auto *apply = dialog.findChild<QPushButton *>(QStringLiteral("templateApplyButton"));
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("templatePreviewButton")),
                      Qt::LeftButton);
    auto *summary = dialog.findChild<QLabel *>(QStringLiteral("templateSummary"));
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().startsWith(QLatin1String("Dry run passed")),
                              qPrintable(summary->text()), 15000);
    QVERIFY(apply->isEnabled());
}

void TestTemplateDialog::previewIsADryRunThenApplyWrites() {
    TemplateDialog dialog(m_fx.session.get(), nullptr, m_templates.path());
    const AuditHead head{7, QString(64, QLatin1Char('a'))};
    dialog.setAuditHead(head);
    dialog.setTargets({kNs});
    QCOMPARE(dialog.checkedTargets(), QStringList{kNs});
    dialog.show();
    QSignalSpy applied(&dialog, &TemplateDialog::applied);

    preview(dialog);
    if (QTest::currentTestFailed())
        return;
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("templatePreview"));
    QCOMPARE(rows(table), QStringLiteral("default | ResourceQuota/team-quota | create | ok (dry run)\n"
                                         "default | LimitRange/team-defaults | create | ok (dry run)"));
    // A dry run writes nothing.
    QVERIFY(kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("team-quota"),
                     QStringLiteral("-n"), kNs})
                .startsWith(QLatin1String("ERROR")));
    QVERIFY(applied.isEmpty());

    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("templateApplyButton")), Qt::LeftButton);
    auto *summary = dialog.findChild<QLabel *>(QStringLiteral("templateSummary"));
    QTRY_COMPARE_WITH_TIMEOUT(summary->text(), QStringLiteral("Applied 2 of 2 objects."), 15000);
    QCOMPARE(rows(table), QStringLiteral("default | ResourceQuota/team-quota | create | applied\n"
                                         "default | LimitRange/team-defaults | create | applied"));
    QCOMPARE(applied.size(), 2);
    QCOMPARE(applied.at(0).at(0).toString(), kNs);
    QCOMPARE(applied.at(0).at(1).toString(), QStringLiteral("ResourceQuota/team-quota"));
    QVERIFY(applied.at(0).at(2).toString().isEmpty()); // created: nothing before
    QVERIFY2(applied.at(0).at(3).toString().contains(QLatin1String("requests.nvidia.com/gpu")),
             qPrintable(applied.at(0).at(3).toString()));
    // The writer's spec diff reaches the audit entry, as for the console's own edits.
    QVERIFY2(applied.at(0).at(4).toString().contains(QLatin1String("requests.nvidia.com/gpu")),
             qPrintable(applied.at(0).at(4).toString()));
    QCOMPARE(applied.at(0).at(5).toString(), QStringLiteral("from template \"new team (built in)\""));

    // Written, with the audit head published on it.
    const QString json =
        kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("team-quota"),
                 QStringLiteral("-n"), kNs, QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(!json.startsWith(QLatin1String("ERROR")), qPrintable(json));
    const QJsonObject quota = QJsonDocument::fromJson(json.toUtf8()).object();
    QCOMPARE(quota.value(QLatin1String("spec"))
                 .toObject()
                 .value(QLatin1String("hard"))
                 .toObject()
                 .value(QLatin1String("requests.nvidia.com/gpu")),
             QJsonValue(QStringLiteral("2")));
    QCOMPARE(quota.value(QLatin1String("metadata"))
                 .toObject()
                 .value(QLatin1String("annotations"))
                 .toObject()
                 .value(QLatin1String(kAuditHeadAnnotation))
                 .toString(),
             head.toText());
    QVERIFY(!kubectl({QStringLiteral("get"), QStringLiteral("limitrange"), QStringLiteral("team-defaults"),
                      QStringLiteral("-n"), kNs})
                 .startsWith(QLatin1String("ERROR")));
}

void TestTemplateDialog::changedAfterPreviewIsAConflict() {
    // The first test created the objects: the preview now replaces them.
    QTRY_VERIFY_WITH_TIMEOUT(m_fx.session->quota(kNs, QStringLiteral("team-quota")).has_value(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_fx.session->limitRange(kNs, QStringLiteral("team-defaults")).has_value(),
                             10000);
    TemplateDialog dialog(m_fx.session.get(), nullptr, m_templates.path());
    dialog.setTargets({kNs});
    dialog.show();
    QSignalSpy applied(&dialog, &TemplateDialog::applied);
    preview(dialog);
    if (QTest::currentTestFailed())
        return;
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("templatePreview"));
    QCOMPARE(rows(table), QStringLiteral("default | ResourceQuota/team-quota | replace | ok (dry run)\n"
                                         "default | LimitRange/team-defaults | replace | ok (dry run)"));

    // Someone else changes the quota after the preview.
    const QString patched =
        kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("team-quota"),
                 QStringLiteral("-n"), kNs, QStringLiteral("--type=merge"), QStringLiteral("-p"),
                 QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"5"}}})")});
    QVERIFY2(!patched.startsWith(QLatin1String("ERROR")), qPrintable(patched));

    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("templateApplyButton")), Qt::LeftButton);
    auto *summary = dialog.findChild<QLabel *>(QStringLiteral("templateSummary"));
    QTRY_COMPARE_WITH_TIMEOUT(summary->text(), QStringLiteral("Applied 1 of 2 objects."), 15000);
    QCOMPARE(rows(table),
             QStringLiteral(
                 "default | ResourceQuota/team-quota | replace | conflict: changed on the server since the "
                 "preview; not overwritten\n"
                 "default | LimitRange/team-defaults | replace | applied"));
    QCOMPARE(applied.size(), 1);
    QCOMPARE(applied.at(0).at(1).toString(), QStringLiteral("LimitRange/team-defaults"));
    // Their change stands.
    QCOMPARE(kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("team-quota"),
                      QStringLiteral("-n"), kNs, QStringLiteral("-o"),
                      QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")}),
             QStringLiteral("5"));
}

QTEST_MAIN(TestTemplateDialog)
#include "tst_templatedialog.moc"
