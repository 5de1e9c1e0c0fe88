#pragma once

#include <QStyledItemDelegate>

namespace gq {

// In-place editor for a quota's hard limit, in the unit people think in: a whole
// number spin box for GPUs and counts, cores (to the millicore) for CPU, GiB for
// memory and storage, free quantity text for anything else.
class HardLimitDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit HardLimitDelegate(QObject *parent = nullptr);

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
};

} // namespace gq
