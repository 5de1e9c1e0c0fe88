#pragma once

#include "widgets/editor/objectpage.h"

class QAction;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace gq {

class QuotaTableModel;

// The Quotas tab: the ResourceQuotas of the selected namespace as an editable
// table (used, hard, percent; hard edited in place, every edit undoable) or as
// YAML. Applying, watching, permissions and drafts are ObjectPage's.
class QuotaPage final : public ObjectPage {
    Q_OBJECT
public:
    explicit QuotaPage(DraftStore *drafts, QWidget *parent = nullptr);
    ~QuotaPage() override;

    [[nodiscard]] bool hasPendingEdit() const override;
    [[nodiscard]] QuotaTableModel *model() const { return m_model; }
    // Ctrl+Z / Ctrl+Shift+Z while the quota table has focus.
    [[nodiscard]] QAction *undoAction() const { return m_undoAction; }
    [[nodiscard]] QAction *redoAction() const { return m_redoAction; }

signals:
    // The table's context menu: grant a boost on this entry of this ResourceQuota.
    void boostRequested(const QString &ns, const QString &quota, const QString &resource);

public slots:
    void setYamlMode(bool yaml);
    // GitOps: manifests live in git; both open non-modal file dialogs.
    void openFile();
    void saveFile();

protected:
    [[nodiscard]] QList<StoredObject> objectsIn(const QString &ns) const override;
    [[nodiscard]] std::optional<StoredObject> objectNamed(const QString &ns,
                                                          const QString &name) const override;
    void showBase(const QJsonObject &object) override;
    void baseStatusMoved(const QJsonObject &object) override;
    [[nodiscard]] bool mayUpdate(const EditPermissions &p) const override { return p.updateQuota; }
    [[nodiscard]] bool mayCreate(const EditPermissions &p) const override { return p.createQuota; }
    [[nodiscard]] QString denyUpdateText(const EditPermissions &p) const override;
    [[nodiscard]] QString denyCreateText() const override;
    [[nodiscard]] QString noObjectText() const override;
    [[nodiscard]] QString pendingYaml() const override;
    [[nodiscard]] bool editingYaml() const override;
    void showEditor() override { setYamlMode(true); }
    void revertOtherEdits() override;
    [[nodiscard]] QStringList applyWarnings() const override;
    void updateControls() override;

private:
    // The constructor's parts, in the order it runs them.
    void buildTableStack();
    void layOutPage();
    void connectControls();
    void stepGpu(int delta);
    void addResource();
    void removeSelected();
    [[nodiscard]] QString tableYaml() const;
    void takeYamlIntoTable();
    void autosaveTable();

    QuotaTableModel *m_model;
    QToolButton *m_yamlToggle;
    QPushButton *m_openFile;
    QPushButton *m_saveFile;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QWidget *m_emptyPage;
    QLabel *m_empty;
    QPushButton *m_emptyCreate;
    QLabel *m_warning;
    QToolButton *m_gpuMinus;
    QToolButton *m_gpuPlus;
    QComboBox *m_newResource;
    QLineEdit *m_newValue;
    QPushButton *m_add;
    QPushButton *m_remove;
    QToolButton *m_undo;
    QToolButton *m_redo;
    QAction *m_undoAction;
    QAction *m_redoAction;
    bool m_loadingBase = false;
};

} // namespace gq
