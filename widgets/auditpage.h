#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QSortFilterProxyModel;

namespace gq {

class AuditModel;

// The Audit tab: who changed what and why, newest first, with the selected entry's
// before -> after shown below. Can narrow to the selected namespace.
class AuditPage final : public QWidget {
    Q_OBJECT
public:
    explicit AuditPage(AuditModel *model, QWidget *parent = nullptr);
    void setNamespace(const QString &ns);
    [[nodiscard]] QTableView *view() const { return m_view; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showSelected();
    void applyFilter();
    void updateEmpty();

    AuditModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QPlainTextEdit *m_details;
    QCheckBox *m_onlyThis;
    QLabel *m_empty;
    QString m_ns;
};

} // namespace gq
