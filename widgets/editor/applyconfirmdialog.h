#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace gq {

class DiffView;

// The last step before a write: the server's current object next to what will be
// stored (as the dry run returned it), the list of changes, warnings (a limit below
// current use), and an optional note for the audit log. Opened with open(), never exec().
class ApplyConfirmDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ApplyConfirmDialog(QWidget *parent = nullptr);

    void setObjectDescription(const QString &description);
    void setTexts(const QString &serverYaml, const QString &newYaml);
    void setChanges(const QString &changesText);
    void setWarnings(const QStringList &warnings);
    [[nodiscard]] QString note() const;
    [[nodiscard]] DiffView *diffView() const { return m_diff; }

private:
    QLabel *m_headline;
    QLabel *m_warnings;
    DiffView *m_diff;
    QTextBrowser *m_changes;
    QLineEdit *m_note;
    QPushButton *m_apply;
};

} // namespace gq
