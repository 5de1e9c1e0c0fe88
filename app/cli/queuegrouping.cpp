#include "app/cli/queuegrouping.h"

#include "app/cli/clioutput.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"

namespace gq::cli {

Result<std::shared_ptr<KubeClient>> kueueCluster(const Args &a) {
    auto client =
        KubeClient::fromKubeconfig(a.value(QStringLiteral("kubeconfig")), a.value(QStringLiteral("context")));
    if (client)
        if (const QString clear = (*client)->clearTextWarning(); !clear.isEmpty())
            err() << clear << '\n';
    return client;
}

Result<kueue::QueueAttribution> readQueueAttribution(const Args &a) {
    auto client = kueueCluster(a);
    if (!client)
        return client.error();
    auto queues = kueue::readLocalQueues(**client);
    if (!queues) {
        Error e = queues.error();
        e.message = QStringLiteral("grouping by queue needs the cluster's LocalQueues: ") + e.message;
        return e;
    }
    return kueue::QueueAttribution(*queues);
}

} // namespace gq::cli
