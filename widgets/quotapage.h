#pragma once

#include "models/clustersession.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace gq {

class ApplyFlow;
class DraftStore;
class QuotaTableModel;
class YamlEditor;

// The Quotas tab: the ResourceQuotas of the selected namespace as an editable
// table (used, hard, percent; hard edited in place) or as YAML. Apply goes
// through ApplyFlow. Watches the object under edit: a server-side change to it
// while an edit is pending opens the three-way view instead of being ignored.
class QuotaPage final : public QWidget {
    Q_OBJECT
public:
    QuotaPage(ClusterSession *session, DraftStore *drafts, QWidget *parent = nullptr);
    ~QuotaPage() override;

    void setNamespace(const QString &ns);
    [[nodiscard]] QString namespaceName() const { return m_ns; }
    [[nodiscard]] QString currentObject() const { return m_name; }
    [[nodiscard]] bool hasPendingEdit() const;

    [[nodiscard]] QuotaTableModel *model() const { return m_model; }
    [[nodiscard]] YamlEditor *editor() const { return m_editor; }

public slots:
    void apply();
    void revert();
    void setYamlMode(bool yaml);
    // GitOps: manifests live in git; both open non-modal file dialogs.
    void openFile();
    void saveFile();

signals:
    // A change was written; the window records it in the audit log.
    void applied(const QString &ns, const QString &object, const QString &beforeYaml,
                 const QString &afterYaml, const QString &diffText, const QString &note);
    void templateRequested();
    void statusMessage(const QString &message);
    void errorMessage(const QString &message);

private:
    void reloadObjects();
    void loadObject(const QString &name);
    void onQuotasChanged(const QString &ns);
    void onPermissionsChanged(const QString &ns);
    void updateControls();
    void stepGpu(int delta);
    void addResource();
    void removeSelected();
    [[nodiscard]] QString tableYaml() const;
    [[nodiscard]] QString currentYaml() const;
    [[nodiscard]] bool yamlMode() const;
    void takeYamlIntoTable();
    void onFlowFailed(const Error &error);
    void onConflictResolved(int resolution, const QString &text, const QJsonObject &server);
    void showServerChangeConflict(const QJsonObject &server);

    ClusterSession *m_session;
    DraftStore *m_drafts;
    QuotaTableModel *m_model;
    QString m_ns;
    QString m_name;
    QJsonObject m_base;
    QString m_baseYaml;
    bool m_canUpdate = false;
    QString m_denyReason;
    QPointer<ApplyFlow> m_flow;
    bool m_conflictOpen = false;

    QComboBox *m_objects;
    QToolButton *m_yamlToggle;
    QPushButton *m_openFile;
    QPushButton *m_saveFile;
    QPushButton *m_template;
    QStackedWidget *m_stack;
    QTableView *m_table;
    YamlEditor *m_editor;
    QLabel *m_empty;
    QLabel *m_warning;
    QToolButton *m_gpuMinus;
    QToolButton *m_gpuPlus;
    QComboBox *m_newResource;
    QLineEdit *m_newValue;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_revert;
    QPushButton *m_apply;
};

} // namespace gq
