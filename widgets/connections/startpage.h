#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace gq {

// What a first start without any kubeconfig shows instead of an empty window: what the
// console needs (a kubeconfig; optionally a usage database, a metrics source and the
// controller), with "Open kubeconfig...", "Try the demo" and a link to the deployment
// guide. Not an error: nothing has gone wrong yet.
class StartPage final : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);

    // Why it shows, in words ("No kubeconfig at ~/.kube/config, and KUBECONFIG is not set.").
    void setReason(const QString &reason);
    // Where the deployment guide is (the README's "Connecting to a real cluster").
    void setGuideUrl(const QString &url);

signals:
    void openKubeconfigRequested();
    void demoRequested();

private:
    QLabel *m_reason;
    QLabel *m_guide;
};

// A detail tab whose source may not be configured: the page itself, or in its place a
// notice saying what to configure with a button that opens the right settings.
class SourceGate final : public QWidget {
    Q_OBJECT
public:
    SourceGate(QWidget *page, QWidget *parent = nullptr);

    // Shows the notice instead of the page; `action` is the button's text.
    void showMissing(const QString &text, const QString &action);
    void showPage();
    [[nodiscard]] bool showsPage() const;

signals:
    void configureRequested();

private:
    QWidget *m_page;
    QWidget *m_notice;
    QLabel *m_text;
    QPushButton *m_button;
};

} // namespace gq
