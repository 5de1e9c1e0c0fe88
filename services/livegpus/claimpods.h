#pragma once

// DRA in the live GPU view: the pods holding a GPU that dcgm-exporter names only by its
// ResourceClaim (a series with dra_claim_* labels and no pod label). A claim's
// status.reservedFor lists the pods using it; metrics::resolveClaimHolders() puts them in
// place of the claim-only holder. Claims are read as the recorder reads them:
// resource.k8s.io/v1 (dra::resourceClaims()), the only version the product supports.

#include "core/kube/informer.h"
#include "core/domain/result.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>

namespace gq {

class KubeClient;

// "ns/claim" -> the pods in status.reservedFor, for the claims asked (those found).
[[nodiscard]] QHash<QString, QStringList> claimPods(const QHash<QString, StoredObject> &claims,
                                                    const QStringList &wanted);

// One list of the claims (all namespaces; where that is refused, the namespaces of the
// claims wanted, one list each). Blocks: the CLI, or a worker thread.
[[nodiscard]] Result<QHash<QString, QStringList>> readClaimPods(KubeClient &client,
                                                                const QStringList &wanted);

// The console's: one list + watch of the claims (an ObjectInformer: decoding on worker
// threads), started by the first snapshot that needs it and kept for that client. A
// cluster without resource.k8s.io/v1 (404) or a user who may not list claims (403) stops
// it for that client: the holders stay known by their claim only.
class ClaimPodsWatch final : public QObject {
    Q_OBJECT
public:
    explicit ClaimPodsWatch(QObject *parent = nullptr);
    ~ClaimPodsWatch() override;

    // Watches through `client`; a different client (another context, new credentials)
    // starts a new watch, null stops it.
    void follow(const std::shared_ptr<KubeClient> &client);
    void stop();
    // The first list is in.
    [[nodiscard]] bool ready() const;
    [[nodiscard]] QHash<QString, QStringList> podsFor(const QStringList &claims) const;

Q_SIGNALS:
    // The list arrived or claims changed: podsFor() may answer differently.
    void changed();

private:
    std::shared_ptr<KubeClient> m_client;
    QPointer<ObjectInformer> m_informer;
};

} // namespace gq
