#pragma once

#include "widgets/editor/objectpage.h"

class QTableView;
class QLabel;

namespace gq {

class LimitRangeModel;

// The Limit ranges tab: every LimitRange of the namespace as a table (type,
// resource, min/max/defaults), and the selected one in the YAML editor for edits.
// Applying, watching, permissions and drafts are ObjectPage's.
class LimitRangePage final : public ObjectPage {
    Q_OBJECT
public:
    explicit LimitRangePage(DraftStore *drafts, QWidget *parent = nullptr);

    [[nodiscard]] LimitRangeModel *model() const { return m_model; }

protected:
    [[nodiscard]] QList<StoredObject> objectsIn(const QString &ns) const override;
    [[nodiscard]] std::optional<StoredObject> objectNamed(const QString &ns,
                                                          const QString &name) const override;
    void showBase(const QJsonObject &object) override;
    void namespaceObjectsChanged() override;
    [[nodiscard]] bool mayUpdate(const EditPermissions &p) const override { return p.updateLimitRange; }
    [[nodiscard]] bool mayCreate(const EditPermissions &p) const override { return p.createLimitRange; }
    [[nodiscard]] QString denyUpdateText(const EditPermissions &p) const override;
    [[nodiscard]] QString denyCreateText() const override;
    [[nodiscard]] QString noObjectText() const override;

private:
    LimitRangeModel *m_model;
    QTableView *m_table;
    QLabel *m_empty;
};

} // namespace gq
