#pragma once

#include "core/domain/quantity.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <memory>
#include <optional>
#include <vector>

namespace gq {

// A Kubernetes ResourceList (spec.hard, status.used, a LimitRange item's max, ...):
// resource name -> Quantity, kept in document order so a write-back does not reorder
// the user's file. Names are unique; set() on an existing name keeps its position.
class ResourceList {
public:
    struct Entry {
        QString name;
        Quantity quantity;
        friend bool operator==(const Entry &, const Entry &) = default;
    };

    ResourceList() = default;
    ResourceList(std::initializer_list<Entry> entries);

    [[nodiscard]] bool isEmpty() const { return m_entries.empty(); }
    [[nodiscard]] qsizetype size() const { return qsizetype(m_entries.size()); }
    [[nodiscard]] bool contains(QStringView name) const { return find(name) != nullptr; }
    [[nodiscard]] const Quantity *find(QStringView name) const;
    [[nodiscard]] std::optional<Quantity> value(QStringView name) const;
    [[nodiscard]] QStringList names() const;

    void set(const QString &name, const Quantity &quantity);
    // Room for n entries (and their index, for a big list) before a run of set()s.
    void reserve(qsizetype n);
    bool remove(QStringView name);
    void clear() {
        m_entries.clear();
        m_index.reset();
    }

    [[nodiscard]] const std::vector<Entry> &entries() const { return m_entries; }
    [[nodiscard]] auto begin() const { return m_entries.cbegin(); }
    [[nodiscard]] auto end() const { return m_entries.cend(); }

    // Equal when they hold the same names with equal quantities, in any order.
    [[nodiscard]] bool sameAs(const ResourceList &other) const;
    // Exact equality, including order.
    friend bool operator==(const ResourceList &a, const ResourceList &b) {
        return a.m_entries == b.m_entries;
    }

private:
    struct Index;
    [[nodiscard]] qsizetype indexOf(QStringView name) const;
    void reindex(std::size_t room = 0); // an index for room entries when that is big enough

    std::vector<Entry> m_entries;
    // Name -> position for big lists (a 200k-entry spec.hard made set() quadratic);
    // shared by copies, copied before a write.
    std::shared_ptr<Index> m_index;
};

} // namespace gq
