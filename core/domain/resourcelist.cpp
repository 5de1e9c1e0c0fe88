#include "core/domain/resourcelist.h"

#include "core/domain/keyindex_p.h"
#include "core/domain/positionindex_p.h"

#include <algorithm>

namespace gq {

struct ResourceList::Index {
    detail::PositionIndex positions; // into m_entries, by name
};

namespace {
auto namesOf(const std::vector<ResourceList::Entry> &entries) {
    return [&entries](qsizetype i) -> const QString & { return entries[std::size_t(i)].name; };
}
} // namespace

void ResourceList::reindex(std::size_t room) {
    room = std::max(room, m_entries.size());
    if (room < detail::kIndexFrom) {
        m_index.reset();
        return;
    }
    auto index = std::make_shared<Index>();
    index->positions.reserve(room);
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        index->positions.insert(m_entries[i].name, qsizetype(i), namesOf(m_entries));
    m_index = std::move(index);
}

qsizetype ResourceList::indexOf(QStringView name) const {
    if (m_index)
        return m_index->positions.find(name, namesOf(m_entries));
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].name == name)
            return qsizetype(i);
    }
    return -1;
}

ResourceList::ResourceList(std::initializer_list<Entry> entries) {
    for (const Entry &e : entries)
        set(e.name, e.quantity);
}

const Quantity *ResourceList::find(QStringView name) const {
    const qsizetype i = indexOf(name);
    return i < 0 ? nullptr : &m_entries[std::size_t(i)].quantity;
}

std::optional<Quantity> ResourceList::value(QStringView name) const {
    if (const Quantity *q = find(name))
        return *q;
    return std::nullopt;
}

QStringList ResourceList::names() const {
    QStringList out;
    out.reserve(size());
    for (const Entry &e : m_entries)
        out << e.name;
    return out;
}

void ResourceList::reserve(qsizetype n) {
    m_entries.reserve(std::size_t(n));
    if (std::size_t(n) < detail::kIndexFrom)
        return;
    if (!m_index || m_index.use_count() > 1)
        reindex(std::size_t(n));
    else
        m_index->positions.reserve(std::size_t(n));
}

void ResourceList::set(const QString &name, const Quantity &quantity) {
    if (!m_index) {
        if (const qsizetype i = indexOf(name); i >= 0) {
            m_entries[std::size_t(i)].quantity = quantity;
            return;
        }
        m_entries.push_back(Entry{name, quantity});
        if (m_entries.size() >= detail::kIndexFrom)
            reindex();
        return;
    }
    if (m_index.use_count() > 1) // copy on write: other copies share the index
        m_index = std::make_shared<Index>(*m_index);
    // One hash lookup: a new name is added at the end, a known one updated in place.
    if (const qsizetype i = m_index->positions.insert(name, qsizetype(m_entries.size()), namesOf(m_entries));
        i >= 0) {
        m_entries[std::size_t(i)].quantity = quantity;
        return;
    }
    m_entries.push_back(Entry{name, quantity});
}

bool ResourceList::remove(QStringView name) {
    const qsizetype i = indexOf(name);
    if (i < 0)
        return false;
    m_entries.erase(m_entries.begin() + i);
    reindex(); // positions after i moved
    return true;
}

bool ResourceList::sameAs(const ResourceList &other) const {
    if (size() != other.size())
        return false;
    for (const Entry &e : m_entries) {
        const Quantity *q = other.find(e.name);
        if (!q || !(*q == e.quantity))
            return false;
    }
    return true;
}

} // namespace gq
