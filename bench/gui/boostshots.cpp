// Takes the boosts screenshots: the real console window against the demo test cluster
// and a demo usage database. The grant dialog with its preview (4 more GPUs for
// team-nlp), the Boosts tab listing that boost with a scheduled night window and a
// budget boost, and the Audit view after Verify — captured from the X server with
// ImageMagick's `import -window root`; run it under `xvfb-run -a`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" boost_screenshots --out docs/screenshots --lang zh_CN

#include "widgets/audit/auditpage.h"
#include "widgets/boosts/boostgrantdialog.h"
#include "models/boosts/boostlistmodel.h"
#include "core/boosts/boostplanner.h"
#include "models/boosts/boostrequestmodel.h"
#include "core/usage/boostrequests.h"
#include "widgets/boosts/boostrequestspanel.h"
#include "services/boosts/boostservice.h"
#include "widgets/boosts/boostspage.h"
#include "bench/gui/democonsole.h"
#include "widgets/quotas/namespacepanel.h"
#include "services/usage/usageservice.h"
#include "core/usage/usagestore.h"

#include <QApplication>
#include <QCheckBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>

using namespace gq;

namespace {
using shots::waitUntil;

bool shoot(const QString &file) {
    return shots::shootScreen(file, 800);
}

// What users asked for through the self-service page, the Jupyter panel or the CLI: two
// pending requests and one an admin denied.
bool addRequests(const QString &url, qint64 now, bool zh) {
    auto store = UsageStore::open(url);
    if (!store)
        return false;
    BoostRequestLedger ledger(**store);
    const auto ask = [&](const char *who, BudgetScope scope, const char *subject, double hours, qint64 until,
                         const QString &note) {
        BoostRequest r;
        r.requester = QLatin1String(who);
        r.scope = scope;
        r.subject = QLatin1String(subject);
        r.hours = hours;
        r.until = until;
        r.note = note;
        return ledger.submit(r);
    };
    auto denied = ask("erik", BudgetScope::Namespace, "team-nlp", 40, now + 3 * 86400,
                      zh ? QStringLiteral("想在周末跑完整个超参数搜索")
                         : QStringLiteral("Full hyperparameter sweep over the weekend"));
    if (!denied || !ledger.deny(denied->id,
                                zh ? QStringLiteral("集群本周已满，请改用夜间窗口")
                                   : QStringLiteral("The cluster is full this week; use the night window"),
                                QStringLiteral("gq-admin")))
        return false;
    return ask("dana", BudgetScope::User, "dana", 16, now + 2 * 86400,
               zh ? QStringLiteral("论文章节的消融实验，周四前完成")
                  : QStringLiteral("Ablation runs for the thesis chapter, due Thursday")) &&
           ask("lin", BudgetScope::Namespace, "team-speech", 6, now + 86400,
               zh ? QStringLiteral("评测集重跑，明早要给客户结果")
                  : QStringLiteral("Re-run of the evaluation set; results due tomorrow morning"));
}
} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const shots::Options options(app.arguments());
    const QString &lang = options.lang;
    shots::DemoConsole console;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (!console.start() || !console.seedUsage(now, QTimeZone::systemTimeZone()))
        return 1;
    MainWindow &w = console.window();
    if (!console.show())
        return 2;
    BoostsPage *page = w.boostsPage();
    auto *service = w.findChild<BoostService *>();
    if (!page || !service || !waitUntil([&] { return service->isOpen(); }))
        return 3;
    w.namespacePanel()->selectNamespace(QStringLiteral("team-nlp"));
    if (auto *split = w.findChild<QSplitter *>(QStringLiteral("mainSplitter")))
        split->setSizes({500, 900});
    console.showTab(page);

    // The grant dialog, as "Boost this resource…" opens it.
    BoostGrantDialog *d = page->openGrantDialog(QStringLiteral("team-nlp"), QStringLiteral("gpu-quota"),
                                                QStringLiteral("requests.nvidia.com/gpu"));
    d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(QStringLiteral("+4"));
    d->findChild<QLineEdit *>(QStringLiteral("boostDuration"))->setText(QStringLiteral("3d"));
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"))
        ->setPlainText(lang == QLatin1String("zh_CN") ? QStringLiteral("周五论文截稿，需要多 4 块 GPU")
                                                      : QStringLiteral("Paper deadline on Friday (ACL)"));
    d->move(260, 120);
    if (!shoot(options.file(QStringLiteral("boost-grant"))))
        return 4;
    bool reconciled = false;
    QObject::connect(service, &BoostService::reconciled, [&] { reconciled = true; });
    d->findChild<QPushButton *>(QStringLiteral("boostOkButton"))->click();
    waitUntil([&] { return reconciled; });

    // A recurring night window for team-vision and a budget boost, through the same service.
    const auto vision = w.session()->quotasIn(QStringLiteral("team-vision"));
    QList<QJsonObject> quotas;
    for (const StoredObject &o : vision)
        quotas << o.object;
    QuotaGrantRequest night;
    night.ns = QStringLiteral("team-vision");
    night.resource = QStringLiteral("requests.nvidia.com/gpu");
    night.add = QStringLiteral("8");
    auto recur = BoostRecurrence::make(QStringLiteral("nightly"), QStringLiteral("20:00-08:00"),
                                       QStringLiteral("Europe/Berlin"), now + 14 * 86400);
    night.when.recurrence = *recur;
    night.when.start = now + 3600;
    night.note = QStringLiteral("Idle GPUs at night go to the vision sweeps");
    night.actor = QStringLiteral("gq-admin");
    if (auto plan = planQuotaBoost(night, quotas, now))
        service->grant(plan->boost, w.session()->client());
    BudgetGrantRequest hours;
    hours.scope = BudgetScope::User;
    hours.subject = QStringLiteral("dana");
    hours.hours = 200;
    hours.when.duration = 7 * 86400;
    hours.note = QStringLiteral("Thesis experiments before the defence");
    hours.actor = QStringLiteral("gq-admin");
    if (auto b = planBudgetBoost(hours, now))
        service->grant(*b, nullptr);
    waitUntil([&] { return page->model()->rowCount() >= 3; });
    page->findChild<QCheckBox *>(QStringLiteral("boostAllNamespaces"))->setChecked(true);
    if (!shoot(options.file(QStringLiteral("boosts"))))
        return 5;

    // The requests above the boosts: pending first, with each requester's budget now.
    if (!addRequests(console.usageUrl(), now, lang == QLatin1String("zh_CN")))
        return 7;
    service->loadRequests();
    waitUntil([&] { return page->requests()->model()->pendingCount() == 2; });
    page->findChild<QCheckBox *>(QStringLiteral("boostAllNamespaces"))->setChecked(false);
    if (auto *split = w.findChild<QSplitter *>(QStringLiteral("mainSplitter")))
        split->setSizes({220, 1180});
    waitUntil([] { return false; }, 300);
    if (!shoot(options.file(QStringLiteral("boost-requests"))))
        return 8;

    // The Audit view after Verify.
    AuditPage *audit = w.auditPage();
    console.showTab(audit);
    w.usageDatabase()->loadAudit();
    waitUntil([] { return false; }, 1000);
    audit->findChild<QCheckBox *>(QStringLiteral("auditOnlyNamespace"))->setChecked(false);
    audit->view()->setCurrentIndex(audit->view()->model()->index(0, 0));
    audit->verify();
    waitUntil(
        [&] { return audit->findChild<QPushButton *>(QStringLiteral("auditVerifyButton"))->isEnabled(); });
    if (!shoot(options.file(QStringLiteral("audit"))))
        return 6;
    return 0;
}
