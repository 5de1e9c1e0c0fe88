#include "app/console/aboutdialog.h"

#include "app/console/buildinfo.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gq {

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About GPU Quota Console"));
    setMinimumWidth(440);

    auto *layout = new QVBoxLayout(this);
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    header->addWidget(icon, 0, Qt::AlignTop);
    auto *title = new QLabel(this);
    title->setObjectName(QStringLiteral("aboutTitle"));
    title->setTextFormat(Qt::RichText);
    title->setText(QStringLiteral("<h2>%1</h2><p>%2</p>")
                       .arg(tr("GPU Quota Console %1").arg(BuildInfo::version()).toHtmlEscaped(),
                            tr("GPU quotas, GPU-hour budgets and live GPUs of shared Kubernetes clusters.")
                                .toHtmlEscaped()));
    title->setWordWrap(true);
    header->addWidget(title, 1);
    layout->addLayout(header);

    auto *versions = new QFormLayout;
    versions->addRow(new QLabel(tr("Built with these libraries (as they report themselves):"), this));
    for (const auto &[name, version] : BuildInfo::libraryVersions()) {
        auto *value = new QLabel(version, this);
        value->setObjectName(QStringLiteral("version_") + name);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        versions->addRow(name + QLatin1Char(':'), value);
    }
    auto *platform = new QLabel(QGuiApplication::platformName(), this);
    versions->addRow(tr("Window system:"), platform);
    layout->addLayout(versions);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy versions"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyVersionsButton"));
    connect(copy, &QPushButton::clicked, this, [] { QGuiApplication::clipboard()->setText(versionsText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QString AboutDialog::versionsText() {
    QString text = QStringLiteral("gpuquota-console ") + BuildInfo::version() + QLatin1Char('\n');
    for (const auto &[name, version] : BuildInfo::libraryVersions())
        text += name + QStringLiteral(" ") + version + QLatin1Char('\n');
    text += QStringLiteral("platform ") + QGuiApplication::platformName() + QLatin1Char('\n');
    return text;
}

} // namespace gq
