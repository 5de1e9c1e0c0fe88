#include "widgets/connections/startpage.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedLayout>
#include <QVBoxLayout>

namespace gq {

StartPage::StartPage(QWidget *parent)
    : QWidget(parent)
    , m_reason(new QLabel(this))
    , m_guide(new QLabel(this)) {
    setObjectName(QStringLiteral("startPage"));
    auto *card = new QFrame(this);
    card->setObjectName(QStringLiteral("startCard"));
    card->setFrameShape(QFrame::StyledPanel);
    card->setMaximumWidth(760);
    card->setAutoFillBackground(true);
    card->setBackgroundRole(QPalette::Base); // a sheet of paper on the window, not a dialog

    auto *title = new QLabel(tr("Welcome to GPU Quota Console"), card);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    title->setFont(f);
    m_reason->setObjectName(QStringLiteral("startReason"));
    m_reason->setWordWrap(true);

    auto *needs = new QLabel(card);
    needs->setWordWrap(true);
    needs->setTextFormat(Qt::RichText);
    needs->setText(
        QStringLiteral("<p>%1</p><ol><li>%2</li><li>%3</li><li>%4</li><li>%5</li></ol>")
            .arg(tr("The console works on a Kubernetes cluster through your kubeconfig. It needs:"),
                 tr("<b>A kubeconfig</b> with a context for the cluster (the file <tt>kubectl</tt> uses). "
                    "Required."),
                 tr("<b>A usage database</b> for budgets, GPU-hours and the audit trail: an embedded SQLite "
                    "file is offered for each context, or the PostgreSQL your controller writes to."),
                 tr("<b>A metrics source</b> for the live GPU view: Prometheus, or dcgm-exporter directly. "
                    "Optional."),
                 tr("<b>The gpuquota controller</b> in the cluster records GPU-hours and enforces budgets. "
                    "Optional for quotas and limits.")));

    auto *open = new QPushButton(tr("Open kubeconfig..."), card);
    open->setObjectName(QStringLiteral("openKubeconfigButton"));
    open->setDefault(true);
    auto *demo = new QPushButton(tr("Try the demo"), card);
    demo->setObjectName(QStringLiteral("tryDemoButton"));
    demo->setToolTip(tr("A local test cluster with made-up teams, started just for this window"));
    for (QPushButton *b : {open, demo})
        b->setMinimumHeight(b->sizeHint().height() * 5 / 4);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(demo);
    buttons->addStretch(1);

    m_guide->setObjectName(QStringLiteral("guideLink"));
    m_guide->setOpenExternalLinks(true);
    m_guide->setWordWrap(true);

    auto *c = new QVBoxLayout(card);
    c->setContentsMargins(28, 24, 28, 24);
    c->setSpacing(14);
    c->addWidget(title);
    c->addWidget(m_reason);
    c->addWidget(needs);
    c->addLayout(buttons);
    c->addWidget(m_guide);

    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(card, 4);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);

    connect(open, &QPushButton::clicked, this, &StartPage::openKubeconfigRequested);
    connect(demo, &QPushButton::clicked, this, &StartPage::demoRequested);
}

void StartPage::setReason(const QString &reason) {
    m_reason->setText(reason);
}

void StartPage::setGuideUrl(const QString &url) {
    m_guide->setText(tr("Setting up a cluster (controller, database, metrics): <a href=\"%1\">the deployment "
                        "guide</a>.")
                         .arg(url.toHtmlEscaped()));
}

SourceGate::SourceGate(QWidget *page, QWidget *parent)
    : QWidget(parent)
    , m_page(page)
    , m_notice(new QWidget(this))
    , m_text(new QLabel(m_notice))
    , m_button(new QPushButton(m_notice)) {
    m_notice->setObjectName(QStringLiteral("sourceNotice"));
    m_text->setObjectName(QStringLiteral("sourceNoticeText"));
    m_text->setWordWrap(true);
    m_text->setAlignment(Qt::AlignCenter);
    m_button->setObjectName(QStringLiteral("sourceNoticeButton"));
    auto *v = new QVBoxLayout(m_notice);
    v->addStretch(1);
    v->addWidget(m_text);
    auto *h = new QHBoxLayout;
    h->addStretch(1);
    h->addWidget(m_button);
    h->addStretch(1);
    v->addLayout(h);
    v->addStretch(2);
    auto *stack = new QStackedLayout(this);
    stack->addWidget(page);
    stack->addWidget(m_notice);
    connect(m_button, &QPushButton::clicked, this, &SourceGate::configureRequested);
}

void SourceGate::showMissing(const QString &text, const QString &action) {
    m_text->setText(text);
    m_button->setText(action);
    static_cast<QStackedLayout *>(layout())->setCurrentWidget(m_notice);
}

void SourceGate::showPage() {
    static_cast<QStackedLayout *>(layout())->setCurrentWidget(m_page);
}

bool SourceGate::showsPage() const {
    return static_cast<QStackedLayout *>(layout())->currentWidget() == m_page;
}

} // namespace gq
