#pragma once

// "Over budget" badges in the namespace list come from GPU-hour budgets in the usage
// database (a real SQLite file), not from Kubernetes. The badge, its text and its
// tooltip numbers must follow usage and budget changes made by other processes (the
// CLI, the controller) without anyone pressing refresh. A budget shows one of three
// states: near (amber outline), over in grace (orange, with the local time the grace
// ends), over (red). tst_overbudget_window.cpp drives the
// real window against the test cluster: the badge is painted, and the namespace
// list fits its columns without a horizontal scroll bar.

#include "models/chargeback/chargebackmodel.h"
#include "widgets/chargeback/chargebackpage.h"
#include "core/domain/clock.h"
#include "widgets/usage/clusterusagepage.h"
#include "services/settings/consolesettings.h"
#include "services/quotas/draftstore.h"
#include "widgets/common/errorbanner.h"
#include "widgets/advisor/fitplandialog.h"
#include "tests/gui/guitestutil.h"
#include "app/console/mainwindow.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/settings/preferencesdialog.h"
#include "widgets/quotas/quotapage.h"
#include "widgets/quotas/templatedialog.h"
#include "tests/testclusterprocess.h"
#include "tests/usage/clockeddatabase.h"
#include "widgets/quotas/usagebardelegate.h"
#include "widgets/usage/usagerangebar.h"
#include "services/usage/usageservice.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTemporaryDir>

#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>
#include <ctime>
#include <optional>

using namespace gq;
using namespace gq::test;

namespace overbudgettest {

// Worst status first, as the namespace panel sorts its list.
inline void sortByStatus(NamespaceFilterModel &proxy, NamespaceListModel &model) {
    proxy.setSourceModel(&model);
    proxy.sort(NamespaceListModel::StatusColumn, Qt::DescendingOrder);
}

// The process's local zone for one test (Qt reads TZ on every local-time conversion).
class LocalZone {
public:
    explicit LocalZone(const char *zone)
        : m_had(qEnvironmentVariableIsSet("TZ"))
        , m_old(qgetenv("TZ")) {
        qputenv("TZ", zone);
        tzset();
    }
    ~LocalZone() {
        if (m_had)
            qputenv("TZ", m_old);
        else
            qunsetenv("TZ");
        tzset();
    }
    Q_DISABLE_COPY_MOVE(LocalZone)

private:
    bool m_had;
    QByteArray m_old;
};

inline NamespaceSummary row(const QString &name) {
    NamespaceSummary s;
    s.name = name;
    s.quotaCount = 1;
    s.gpu = UsageBar{Quantity::fromInt(1), Quantity::fromInt(8), true};
    return s;
}

inline QModelIndex statusOf(const QAbstractItemModel *model, const QString &ns) {
    const int r = rowWithText(model, NamespaceListModel::NameColumn, ns);
    return r < 0 ? QModelIndex() : model->index(r, NamespaceListModel::StatusColumn);
}

inline bool isOver(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(NamespaceListModel::BadgesRole).toInt() &
           NamespaceListModel::OverBudgetBadge;
}

// Only the budget badges (near, in grace, over) of the status cell.
inline int budgetBadges(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(NamespaceListModel::BadgesRole).toInt() &
           (NamespaceListModel::NearBudgetBadge | NamespaceListModel::InGraceBadge |
            NamespaceListModel::OverBudgetBadge);
}

// Pixels of the status cell within 8 of `color` per channel.
inline int pixelsOf(QTreeView *view, const QModelIndex &idx, const QColor &color) {
    view->scrollTo(idx);
    const QImage img = view->viewport()->grab(view->visualRect(idx)).toImage();
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += qAbs(c.red() - color.red()) < 8 && qAbs(c.green() - color.green()) < 8 &&
                 qAbs(c.blue() - color.blue()) < 8;
        }
    return n;
}

inline QString tip(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(Qt::ToolTipRole).toString();
}

} // namespace overbudgettest

using namespace overbudgettest;

class TestOverBudget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void badgeFollowsUsageAndBudget();
    void checksDoNotPileUp();
    void graceBadgesFlipAtTheRightInstants();
    void graceBadgeTimeStaysShort();
    void manyBudgetsStayOffTheGuiThread();
    void restoredHeaderKeepsNameStretching();
    void windowPaintsBadgeAndFitsColumns();
    void windowFitsAt1200AndElidesLongNames();
    void emptyFilterResultSaysSo();
    void contextMenuOffersTemplateForNamespaceWithoutQuota();
    void contextMenuPlansAFineTune();
    void preferencesReachThePages();
    void cleanupTestCase();

private:
    void startWindow();
    // Right-clicks namespace `ns` in the list and triggers the menu action named
    // `action`; its text, empty when the menu did not offer it.
    QString triggerNamespaceAction(const QString &ns, const QString &action);
    // GQ_SHOT_DIR=dir saves what the window looks like at each step (for reviewing
    // the layout by eye; nothing is asserted on the images).
    void shot(const QString &name) {
        const QString dir = qEnvironmentVariable("GQ_SHOT_DIR");
        if (!dir.isEmpty() && m_window)
            m_window->grab().save(dir + QLatin1Char('/') + name + QLatin1String(".png"));
    }

    QTemporaryDir m_dir;
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::unique_ptr<ConsoleSettings> m_settings;
    std::unique_ptr<DraftStore> m_drafts;
    std::unique_ptr<MainWindow> m_window;
    ManualClock m_windowClock{kNow};
};
