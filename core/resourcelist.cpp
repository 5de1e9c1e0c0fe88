#include "core/resourcelist.h"

#include <algorithm>

namespace gq {

ResourceList::ResourceList(std::initializer_list<Entry> entries) {
    for (const Entry &e : entries)
        set(e.name, e.quantity);
}

const Quantity *ResourceList::find(QStringView name) const {
    for (const Entry &e : m_entries) {
        if (e.name == name)
            return &e.quantity;
    }
    return nullptr;
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

void ResourceList::set(const QString &name, const Quantity &quantity) {
    for (Entry &e : m_entries) {
        if (e.name == name) {
            e.quantity = quantity;
            return;
        }
    }
    m_entries.push_back(Entry{name, quantity});
}

bool ResourceList::remove(QStringView name) {
    const auto it =
        std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) { return e.name == name; });
    if (it == m_entries.end())
        return false;
    m_entries.erase(it);
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
