#pragma once

#include "core/domain/result.h"

#include <QList>
#include <QString>

namespace gq {

class UsageStore;

// One row of idle_spans: a GPU (node, and its key: UUID or "#index", "/profile" for a
// MIG instance) found idle from start to end (seconds) while the pod held it.
struct IdleSpan {
    QString ns;
    QString pod;
    QString node;
    QString gpuKey;
    qint64 start = 0;
    qint64 end = 0;
    double wastedGpuSeconds = 0; // (end - start) x the GPU's weight
    double weight = 1;           // the GPU's weight (upsert() recomputes the waste from it)
};

// The idle_spans table: written by the controller's idle recorder, read by `gpuquota idle
// --db`, the console's Idle GPUs tab and the chargeback (the one place that holds its
// SQL, with the schema in usageschema.cpp). On the store's thread.
class IdleSpanStore {
public:
    explicit IdleSpanStore(UsageStore &store)
        : m_store(store) {}

    // The spans that ended at or after `endedFrom` and lasted at least `minSeconds`,
    // largest waste first, then by node and GPU.
    [[nodiscard]] Result<QList<IdleSpan>> current(qint64 endedFrom, qint64 minSeconds) const;

    // Writes `spans` in one transaction: a span is merged with the rows of the same GPU
    // and holder it touches within `tolerance` seconds (rows it joins become one), its
    // waste recomputed over the merged length at its weight. Spans with end <= start are
    // skipped; returns how many were written.
    [[nodiscard]] Result<int> upsert(const QList<IdleSpan> &spans, qint64 tolerance);

private:
    UsageStore &m_store;
};

} // namespace gq
