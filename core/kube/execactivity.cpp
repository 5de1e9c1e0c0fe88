#include "core/kube/execactivity.h"

#include "core/domain/clock.h"

#include <QDateTime>

#include <map>
#include <mutex>

namespace gq::execactivity {

namespace {

struct Registry {
    std::mutex mutex;
    quint64 next = 1;
    std::map<quint64, Waiting> running; // by id: the smallest id started first
};

Registry &registry() {
    static Registry r;
    return r;
}

} // namespace

std::optional<Waiting> oldest() {
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    if (r.running.empty())
        return std::nullopt;
    Waiting w = r.running.begin()->second;
    w.count = int(r.running.size());
    return w;
}

Scope::Scope(const QString &command, bool interactive) {
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    m_id = r.next++;
    r.running.emplace(m_id, Waiting{command, Clock::system().nowMSecs(), interactive, 0});
}

Scope::~Scope() {
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    r.running.erase(m_id);
}

} // namespace gq::execactivity
