// MainWindow's "Plan a fine-tune…": the fit advisor's dialog for a namespace (its context
// menu) or for the user and namespace of the Budgets tab's "Can this run?".
#include "app/console/mainwindow.h"

#include "services/cluster/clusterconnection.h"
#include "widgets/advisor/fitplandialog.h"

namespace gq {

void MainWindow::openFitPlan(const QString &user, const QString &ns) {
    auto *dialog = new FitPlanDialog(m_session->client(), m_services->budgets(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!user.isEmpty())
        dialog->setUser(user);
    if (!ns.isEmpty())
        dialog->setNamespace(ns);
    dialog->show();
}

} // namespace gq
