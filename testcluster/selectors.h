#pragma once

#include "testcluster/store.h"

#include <QString>
#include <QStringList>

namespace gq::tc {

// Label selector as in apimachinery/pkg/labels: `a=b`, `a==b`, `a!=b`,
// `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated (AND).
class LabelSelector {
public:
    bool parse(const QString &text, QString *error);
    [[nodiscard]] bool matches(const Labels &labels) const;
    [[nodiscard]] bool isEmpty() const { return m_terms.empty(); }

private:
    enum class Op { Equals, NotEquals, In, NotIn, Exists, NotExists };
    struct Term {
        QString key;
        Op op;
        QStringList values;
    };
    std::vector<Term> m_terms;
};

// Field selector: `metadata.name`, `metadata.namespace` everywhere, plus
// `status.phase` and `spec.nodeName` for pods; `=`, `==`, `!=`.
class FieldSelector {
public:
    bool parse(Resource r, const QString &text, QString *error);
    [[nodiscard]] bool matches(const Entry &e) const;
    [[nodiscard]] bool isEmpty() const { return m_terms.empty(); }

private:
    struct Term {
        QString field;
        bool negate;
        QString value;
    };
    std::vector<Term> m_terms;
};

} // namespace gq::tc
