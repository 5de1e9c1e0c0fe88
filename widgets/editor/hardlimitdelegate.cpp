#include "widgets/editor/hardlimitdelegate.h"

#include "models/common/quantityformat.h"
#include "models/quotas/quotatablemodel.h"

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

namespace gq {

HardLimitDelegate::HardLimitDelegate(QObject *parent)
    : QStyledItemDelegate(parent) {}

QWidget *HardLimitDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &,
                                         const QModelIndex &index) const {
    const auto kind = ResourceKind(index.data(QuotaTableModel::KindRole).toInt());
    switch (kind) {
    case ResourceKind::Gpu:
    case ResourceKind::Count: {
        auto *spin = new QSpinBox(parent);
        spin->setObjectName(QStringLiteral("hardLimitSpinBox"));
        spin->setRange(0, 1000000);
        spin->setSuffix(kind == ResourceKind::Gpu ? tr(" GPUs") : QString());
        spin->setAlignment(Qt::AlignRight);
        return spin;
    }
    case ResourceKind::Cpu:
    case ResourceKind::Memory: {
        auto *spin = new QDoubleSpinBox(parent);
        spin->setObjectName(QStringLiteral("hardLimitSpinBox"));
        spin->setRange(0, 1e7);
        spin->setDecimals(kind == ResourceKind::Cpu ? 3 : 2);
        spin->setSingleStep(kind == ResourceKind::Cpu ? 1.0 : 8.0);
        spin->setSuffix(kind == ResourceKind::Cpu ? tr(" cores") : tr(" GiB"));
        spin->setAlignment(Qt::AlignRight);
        return spin;
    }
    case ResourceKind::Other: break;
    }
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(QStringLiteral("hardLimitEdit"));
    return edit;
}

void HardLimitDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const {
    const auto kind = ResourceKind(index.data(QuotaTableModel::KindRole).toInt());
    const Quantity q = index.data(QuotaTableModel::QuantityRole).value<Quantity>();
    if (auto *spin = qobject_cast<QSpinBox *>(editor))
        spin->setValue(int(q.value()));
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor))
        dspin->setValue(editUnitsFromQuantity(q, kind));
    else if (auto *edit = qobject_cast<QLineEdit *>(editor))
        edit->setText(q.toString());
}

void HardLimitDelegate::setModelData(QWidget *editor, QAbstractItemModel *model,
                                     const QModelIndex &index) const {
    const auto kind = ResourceKind(index.data(QuotaTableModel::KindRole).toInt());
    const Quantity old = index.data(QuotaTableModel::QuantityRole).value<Quantity>();
    Quantity q;
    if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        q = quantityFromEditUnits(spin->value(), kind);
    } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor)) {
        // Unchanged spin box text must not turn "128Gi" into "131072Mi"-like noise.
        if (qFuzzyCompare(dspin->value() + 1.0, editUnitsFromQuantity(old, kind) + 1.0))
            return;
        q = quantityFromEditUnits(dspin->value(), kind);
    } else if (auto *edit = qobject_cast<QLineEdit *>(editor)) {
        model->setData(index, edit->text());
        return;
    }
    if (q == old)
        return;
    model->setData(index, QVariant::fromValue(q));
}

} // namespace gq
