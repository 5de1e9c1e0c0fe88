#pragma once

#include "core/usagestore.h"

namespace gq {

// Text columns are NOT NULL: a null QString (e.g. from `{}`) would bind as SQL NULL.
inline QString nonNull(const QString &s) {
    return s.isNull() ? QStringLiteral("") : s;
}

// Nested use is allowed: only the outermost guard begins and commits; an inner
// failure is returned to the outer code, whose guard rolls everything back.
class UsageStoreTx {
public:
    explicit UsageStoreTx(UsageStore &s, int &depth)
        : m_store(s)
        , m_depth(depth) {}
    ~UsageStoreTx() {
        if (!m_active)
            return;
        --m_depth;
        if (m_outer && !m_committed)
            m_store.rollback();
    }
    Result<void> begin() {
        m_outer = m_depth == 0;
        ++m_depth;
        m_active = true;
        return m_outer ? m_store.begin() : Result<void>{};
    }
    Result<void> commit() {
        m_committed = true;
        return m_outer ? m_store.commit() : Result<void>{};
    }

private:
    UsageStore &m_store;
    int &m_depth;
    bool m_outer = false;
    bool m_active = false;
    bool m_committed = false;
};

} // namespace gq
