// The over-budget suite (tst_overbudget.h), part two: the real window against the test
// cluster.

#include "services/usage/usagedatabase.h"

#include "tests/gui/tst_overbudget.h"

void TestOverBudget::startWindow() {
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    m_cluster = std::make_unique<TestClusterProcess>(opts);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    m_settings = std::make_unique<ConsoleSettings>(m_dir.filePath(QStringLiteral("settings.ini")));
    m_drafts = std::make_unique<DraftStore>(nullptr, m_dir.filePath(QStringLiteral("drafts")));

    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("window.db"));
    {
        auto store = UsageStore::open(url);
        QVERIFY(store);
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-vision"), 8)));
        // team-nlp: 6 of 5.5 GPU-h at 15:00 with 2 GPUs running and 1 h grace: in grace
        // until 15:45 UTC. research: 8.5 of 10, near.
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-nlp"), 5.5, 3600)));
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("research"), 10)));
        // alice runs team-nlp's pod and is over her own 1 GPU-h.
        QVERIFY((*store)->setBudget(budget(BudgetScope::User, QStringLiteral("alice"), 1)));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-vision"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 5, at(10), at(12, 30))));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-nlp"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 2, at(12), std::nullopt)));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("research"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 1, at(1), at(9, 30))));
    }
    m_window = std::make_unique<MainWindow>(m_settings.get(), m_drafts.get());
    // The cluster dashboard opens first; these tests are about the namespace list.
    m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(m_window->quotaPage());
    m_window->usageDatabase()->setClock(&m_windowClock);
    QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
    m_window->openUsageDatabase(url);
    m_window->openKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"));
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(shown.wait(20000));
}

void TestOverBudget::windowPaintsBadgeAndFitsColumns() {
    startWindow();
    if (QTest::currentTestFailed())
        return;
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    QVERIFY(view);
    const QAbstractItemModel *model = view->model();
    QTRY_VERIFY_WITH_TIMEOUT(isOver(model, QStringLiteral("team-vision")), 10000);
    QVERIFY(tip(model, QStringLiteral("team-vision")).contains(QStringLiteral("12.5 of 8.0 GPU-h today")));
    QVERIFY(!isOver(model, QStringLiteral("team-nlp")));
    QTRY_COMPARE(budgetBadges(model, QStringLiteral("team-nlp")), int(NamespaceListModel::InGraceBadge));
    QCOMPARE(budgetBadges(model, QStringLiteral("research")), int(NamespaceListModel::NearBudgetBadge));
    const QString graceEnd = QDateTime::fromSecsSinceEpoch(at(15, 45)).toString(QStringLiteral("HH:mm"));
    QVERIFY2(tip(model, QStringLiteral("team-nlp"))
                 .contains(QStringLiteral("6.0 of 5.5 GPU-h today — running jobs may continue until ") +
                           graceEnd + QStringLiteral(" (grace 1 h)")),
             qPrintable(tip(model, QStringLiteral("team-nlp"))));
    QVERIFY2(tip(model, QStringLiteral("team-nlp"))
                 .contains(QStringLiteral("over their own GPU-hour budget: alice")),
             qPrintable(tip(model, QStringLiteral("team-nlp"))));
    QVERIFY(!tip(model, QStringLiteral("team-vision")).contains(QStringLiteral("alice"))); // ran, not running

    // On screen: the red badge in team-vision's status cell, the orange grace badge in
    // team-nlp's, and neither colour where it does not belong.
    auto status = [&](const QString &ns) { return statusOf(model, ns); };
    const QColor red = UsageBarDelegate::badgeColor(NamespaceListModel::OverBudgetBadge);
    const QColor orange = UsageBarDelegate::badgeColor(NamespaceListModel::InGraceBadge);
    shot(QStringLiteral("overbudget-1400"));
    QVERIFY(pixelsOf(view, status(QStringLiteral("team-vision")), red) > 50);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("team-nlp")), red), 0);
    QVERIFY(pixelsOf(view, status(QStringLiteral("team-nlp")), orange) > 50);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("team-vision")), orange), 0);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("research")), orange), 0);

    // 1400 px wide window: every column fits, the name column takes the slack.
    QTRY_VERIFY(!view->horizontalScrollBar()->isVisible());
    QHeaderView *header = view->header();
    int total = 0;
    for (int c = 0; c < header->count(); ++c)
        total += header->sectionSize(c);
    QVERIFY2(total <= view->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(total).arg(view->viewport()->width())));
    for (int c :
         {NamespaceListModel::GpuColumn, NamespaceListModel::CpuColumn, NamespaceListModel::MemoryColumn})
        QVERIFY2(header->sectionSize(c) >= view->fontMetrics().horizontalAdvance(QStringLiteral("888 / 888")),
                 qPrintable(QString::number(header->sectionSize(c))));
}

void TestOverBudget::windowFitsAt1200AndElidesLongNames() {
    QVERIFY(m_window);
    const QString longName = QStringLiteral("team-computer-vision-foundation-models-pretraining-2026");
    QCOMPARE(kubectl(m_cluster->kubeconfigPath(),
                     {QStringLiteral("create"), QStringLiteral("namespace"), longName})
                 .left(5),
             QStringLiteral("names"));
    // Enough namespaces for a vertical scroll bar, in one kubectl call.
    QFile many(m_dir.filePath(QStringLiteral("many.yaml")));
    QVERIFY(many.open(QIODevice::WriteOnly));
    for (int i = 0; i < 30; ++i)
        many.write(QStringLiteral("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: batch-%1\n")
                       .arg(i, 2, 10, QLatin1Char('0'))
                       .toUtf8());
    many.close();
    QVERIFY(!kubectl(m_cluster->kubeconfigPath(),
                     {QStringLiteral("create"), QStringLiteral("-f"), many.fileName()})
                 .startsWith(QStringLiteral("ERROR")));
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    QTRY_VERIFY_WITH_TIMEOUT(rowWithText(view->model(), NamespaceListModel::NameColumn, longName) >= 0,
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("batch-29")) >= 0, 10000);

    // With a vertical scroll bar, which takes width from the columns.
    for (QSize size : {QSize(1200, 800), QSize(1600, 1000), QSize(1400, 900)}) {
        m_window->resize(size);
        QTRY_COMPARE(m_window->size(), size);
        QTest::qWait(50);
        QVERIFY2(!view->horizontalScrollBar()->isVisible(), qPrintable(QString::number(size.width())));
        shot(QStringLiteral("list-%1x%2").arg(size.width()).arg(size.height()));
    }
    QVERIFY(view->verticalScrollBar()->isVisible());

    // The long name is elided in its cell and its tooltip gives it whole.
    const QModelIndex nameIdx = view->model()->index(
        rowWithText(view->model(), NamespaceListModel::NameColumn, longName), NamespaceListModel::NameColumn);
    view->scrollTo(nameIdx);
    const QRect cell = view->visualRect(nameIdx);
    QVERIFY(view->fontMetrics().horizontalAdvance(longName) > cell.width());
    QHelpEvent help(QEvent::ToolTip, cell.center(), view->viewport()->mapToGlobal(cell.center()));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), longName);
    QToolTip::hideText();

    // A short name that fits gets no tooltip of its own.
    const QModelIndex shortIdx = view->model()->index(
        rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("research")),
        NamespaceListModel::NameColumn);
    view->scrollTo(shortIdx);
    const QRect shortCell = view->visualRect(shortIdx);
    QHelpEvent help2(QEvent::ToolTip, shortCell.center(), view->viewport()->mapToGlobal(shortCell.center()));
    QApplication::sendEvent(view->viewport(), &help2);
    QTest::qWait(50);
    QVERIFY(!QToolTip::isVisible() || QToolTip::text() != QStringLiteral("research"));
}

void TestOverBudget::emptyFilterResultSaysSo() {
    QVERIFY(m_window);
    auto *filter = m_window->findChild<QLineEdit *>(QStringLiteral("namespaceFilter"));
    auto *empty = m_window->findChild<QLabel *>(QStringLiteral("namespaceEmptyLabel"));
    QVERIFY(filter && empty);
    QVERIFY(!empty->isVisible());
    QTest::keyClicks(filter, QStringLiteral("no-such-team"));
    QTRY_VERIFY(empty->isVisible());
    QVERIFY2(empty->text().contains(QStringLiteral("no-such-team")), qPrintable(empty->text()));
    shot(QStringLiteral("empty-filter"));
    filter->clear();
    QTRY_VERIFY(!empty->isVisible());
}

QString TestOverBudget::triggerNamespaceAction(const QString &ns, const QString &action) {
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    const int r = rowWithText(view->model(), NamespaceListModel::NameColumn, ns);
    if (r < 0)
        return {};
    const QModelIndex idx = view->model()->index(r, NamespaceListModel::NameColumn);
    view->scrollTo(idx);
    const QPoint pos = view->visualRect(idx).center();
    // The menu runs its own event loop: pick the action once it is up.
    QString offered;
    QTimer::singleShot(0, this, [&offered, action] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        if (auto *a = menu->findChild<QAction *>(action)) {
            offered = a->text();
            a->trigger();
        }
        menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &event);
    return offered;
}

void TestOverBudget::contextMenuOffersTemplateForNamespaceWithoutQuota() {
    QVERIFY(m_window);
    QCOMPARE(triggerNamespaceAction(QStringLiteral("default"), QStringLiteral("namespaceTemplateAction")),
             QStringLiteral("Create quota from template..."));
    QCOMPARE(m_window->namespacePanel()->currentNamespace(), QStringLiteral("default"));
    TemplateDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleDialog<TemplateDialog>()) != nullptr);
    QCOMPARE(dialog->checkedTargets(), QStringList{QStringLiteral("default")});
    dialog->reject();
}

// "Plan a fine-tune…" on a namespace: the dialog reads the namespace's free quota GPUs
// (team-vision: 16 hard, 13 running) through the window's cluster connection.
void TestOverBudget::contextMenuPlansAFineTune() {
    QVERIFY(m_window);
    QCOMPARE(triggerNamespaceAction(QStringLiteral("team-vision"), QStringLiteral("namespacePlanAction")),
             QStringLiteral("Plan a fine-tune…"));
    FitPlanDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleDialog<FitPlanDialog>()) != nullptr);
    QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("fitNamespaceEdit"))->text(),
             QStringLiteral("team-vision"));
    QTRY_COMPARE_WITH_TIMEOUT(dialog->findChild<QSpinBox *>(QStringLiteral("fitGpusSpin"))->value(), 3,
                              20000);
    dialog->close();
}

// The Preferences' General tab reaches the pages: namespaces over their budget show as
// the alert display says (banner, status bar, nowhere); the zone moves the charts'
// buckets and the chargeback month; the rate and currency are the chargeback's.
void TestOverBudget::preferencesReachThePages() {
    startWindow();
    if (QTest::currentTestFailed())
        return;
    auto *banner = m_window->findChild<MessageBanner *>(QStringLiteral("budgetAlertBanner"));
    auto *label = m_window->statusBar()->findChild<QLabel *>(QStringLiteral("budgetAlertLabel"));
    QVERIFY(banner && label);
    // The default: the banner, naming the namespace over its budget.
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
    QVERIFY2(banner->text().contains(QStringLiteral("team-vision")), qPrintable(banner->text()));
    QVERIFY(!label->isVisible());

    PreferencesDialog *prefs = m_window->openPreferences();
    const auto choose = [prefs](const char *name, const QString &data) {
        auto *box = prefs->findChild<QComboBox *>(QLatin1String(name));
        QVERIFY(box);
        const int i = box->findData(data);
        QVERIFY2(i >= 0, qPrintable(data));
        box->setCurrentIndex(i);
    };
    const auto apply = [prefs] {
        prefs->findChild<QDialogButtonBox *>(QStringLiteral("preferencesButtons"))
            ->button(QDialogButtonBox::Apply)
            ->click();
    };
    choose("alertDisplayCombo", QStringLiteral("status"));
    choose("timeZoneCombo", QStringLiteral("Asia/Tokyo"));
    prefs->findChild<QDoubleSpinBox *>(QStringLiteral("chargebackRate"))->setValue(3.25);
    prefs->findChild<QComboBox *>(QStringLiteral("currencyCombo"))->setCurrentText(QStringLiteral("EUR"));
    apply();
    QVERIFY(!banner->isVisible());
    QVERIFY(label->isVisible());
    QVERIFY2(label->text().contains(QStringLiteral("team-vision")), qPrintable(label->text()));

    auto *dashboard = m_window->findChild<ClusterUsagePage *>();
    QCOMPARE(dashboard->rangeBar()->zone(), QStringLiteral("Asia/Tokyo"));
    auto *chargeback = m_window->findChild<ChargebackPage *>(QStringLiteral("chargebackPage"));
    QCOMPARE(chargeback->findChild<QComboBox *>(QStringLiteral("chargebackZone"))->currentText(),
             QStringLiteral("Asia/Tokyo"));
    QCOMPARE(chargeback->findChild<QDoubleSpinBox *>(QStringLiteral("chargebackRate"))->value(), 3.25);
    QTRY_VERIFY_WITH_TIMEOUT(chargeback->model()->hasReport() && !chargeback->isLoading(), 10000);
    QCOMPARE(chargeback->model()->report().rates.currency, QStringLiteral("EUR"));
    QCOMPARE(chargeback->model()->report().rates.defaultMicros, qint64(3250000));
    QCOMPARE(QString::fromUtf8(chargeback->model()->report().month.tz.id()), QStringLiteral("Asia/Tokyo"));
    // The page read that through the context's one usage database: the window has no other.
    QCOMPARE(m_window->findChildren<UsageDatabase *>().size(), qsizetype(1));

    choose("alertDisplayCombo", QStringLiteral("off"));
    apply();
    QVERIFY(!banner->isVisible());
    QVERIFY(!label->isVisible());
    prefs->reject();
}
