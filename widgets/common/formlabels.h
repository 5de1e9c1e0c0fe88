#pragma once

#include <QFormLayout>
#include <QLabel>

#include <initializer_list>

namespace gq {

// Gives the labels of several forms one column width, the widest label's, so groups
// stacked in a page line up.
inline void alignFormLabels(std::initializer_list<QFormLayout *> forms) {
    QList<QLabel *> labels;
    int labelWidth = 0;
    for (QFormLayout *form : forms)
        for (int r = 0; r < form->rowCount(); ++r)
            if (QLayoutItem *item = form->itemAt(r, QFormLayout::LabelRole))
                if (auto *l = qobject_cast<QLabel *>(item->widget())) {
                    labels << l;
                    labelWidth = qMax(labelWidth, l->sizeHint().width());
                }
    for (QLabel *l : std::as_const(labels))
        l->setMinimumWidth(labelWidth);
}

} // namespace gq
