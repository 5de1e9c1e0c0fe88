#pragma once

#include "models/clustersession.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace gq {

class ApplyFlow;
class DraftStore;
class LimitRangeModel;
class YamlEditor;

// The Limit ranges tab: every LimitRange of the namespace as a table (type,
// resource, min/max/defaults), and the selected one in the YAML editor for edits,
// applied through ApplyFlow like quotas.
class LimitRangePage final : public QWidget {
    Q_OBJECT
public:
    LimitRangePage(ClusterSession *session, DraftStore *drafts, QWidget *parent = nullptr);

    void setNamespace(const QString &ns);
    [[nodiscard]] bool hasPendingEdit() const;
    [[nodiscard]] YamlEditor *editor() const { return m_editor; }
    [[nodiscard]] LimitRangeModel *model() const { return m_model; }

public slots:
    void apply();
    void revert();

signals:
    void applied(const QString &ns, const QString &object, const QString &beforeYaml,
                 const QString &afterYaml, const QString &diffText, const QString &note);
    void templateRequested();
    void statusMessage(const QString &message);
    void errorMessage(const QString &message);

private:
    void reload();
    void loadObject(const QString &name);
    void onChanged(const QString &ns);
    void onPermissionsChanged(const QString &ns);
    void updateControls();
    void adopt(const QJsonObject &server);

    ClusterSession *m_session;
    DraftStore *m_drafts;
    LimitRangeModel *m_model;
    QString m_ns;
    QString m_name;
    QJsonObject m_base;
    QString m_baseYaml;
    bool m_canUpdate = false;
    QString m_denyReason;
    QPointer<ApplyFlow> m_flow;
    bool m_conflictOpen = false;

    QComboBox *m_objects;
    QPushButton *m_template;
    QTableView *m_table;
    YamlEditor *m_editor;
    QLabel *m_empty;
    QPushButton *m_revert;
    QPushButton *m_apply;
};

} // namespace gq
