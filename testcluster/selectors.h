#pragma once

#include "core/domain/result.h"
#include "testcluster/store.h"

#include <QString>
#include <QStringList>

namespace gq::tc {

// Label selector as in apimachinery/pkg/labels: `a=b`, `a==b`, `a!=b`,
// `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated (AND).
class LabelSelector {
public:
    Result<void> parse(const QString &text);
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
    Result<void> parse(Resource r, const QString &text);
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

// Both selectors of a list, watch or deletecollection request.
struct Selectors {
    LabelSelector labels;
    FieldSelector fields;

    static Result<Selectors> parse(Resource r, const QString &labelText, const QString &fieldText);
    [[nodiscard]] bool matches(const Entry &e) const { return labels.matches(e.labels) && fields.matches(e); }
    [[nodiscard]] bool isEmpty() const { return labels.isEmpty() && fields.isEmpty(); }
};

} // namespace gq::tc
