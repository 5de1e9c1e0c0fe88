#pragma once

#include <QDialog>

namespace gq {

// Help > About: what this build is and what it runs on (our version, the Qt running,
// the libraries below us), with a button that copies it all for a bug report.
class AboutDialog final : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    // The same facts as plain text, one per line (what "Copy" puts on the clipboard).
    [[nodiscard]] static QString versionsText();
};

} // namespace gq
