#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <memory>

namespace gq {

class ChangeMonitor;
class CheckInputReader;

// The admission check (UsageStore::check and checkEach): reads the inputs of both
// subjects, optionally keeps them per (scope, subject) while a ChangeMonitor says
// nothing changed and `now` stays in their periods, and decides in the client.
class AdmissionChecker {
public:
    AdmissionChecker(const ResourceWeights &weights, const CheckInputReader &reader);
    ~AdmissionChecker();
    Q_DISABLE_COPY_MOVE(AdmissionChecker)

    // Keeps check inputs from now on (UsageStore::Options::cacheChecks).
    void keepInputs(std::unique_ptr<ChangeMonitor> monitor);

    [[nodiscard]] Result<Decision> check(const QString &user, const QString &ns,
                                         const AdmissionRequest &request, qint64 now) const;
    [[nodiscard]] Result<QList<Decision>> checkEach(const QString &user, const QString &ns,
                                                    const AdmissionRequest &request, qint64 now) const;
    [[nodiscard]] UsageStore::CheckCacheStats stats() const;
    // Drops kept inputs (a write through this store's connection).
    void drop() const;

private:
    struct Cache;
    // False when kept inputs cannot be trusted now (and must not be kept).
    bool refresh() const;

    const ResourceWeights &m_weights;
    const CheckInputReader &m_reader;
    std::unique_ptr<Cache> m_cache; // null unless keepInputs()
};

} // namespace gq
