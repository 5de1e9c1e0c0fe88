#include "services/controller/uncheckedpods.h"

#include "core/kube/informer.h"

namespace gq {

namespace {

constexpr qsizetype kMaxRemembered = 10000;

} // namespace

UncheckedPods::UncheckedPods(QStringList ignoredNamespaces, QObject *parent)
    : QObject(parent)
    , m_ignored(std::move(ignoredNamespaces)) {}

void UncheckedPods::start(PodInformer *pods, qint64 since) {
    stop();
    m_pods = pods;
    m_since = since;
    if (pods)
        connect(
            pods, &Informer::changed, this,
            [this](const QStringList &added, const QStringList &, const QStringList &) { onChanged(added); });
}

void UncheckedPods::stop() {
    if (m_pods)
        disconnect(m_pods, nullptr, this, nullptr);
    m_pods = nullptr;
    m_seen.clear();
}

void UncheckedPods::onChanged(const QStringList &added) {
    if (!m_pods || !m_pods->hasSynced())
        return; // the first list: pods from before
    for (const QString &key : added) {
        const qsizetype slash = key.indexOf(QLatin1Char('/'));
        const auto pod = m_pods->pod(key.left(slash), key.mid(slash + 1));
        if (pod && !pod->gpus.isEmpty() && pod->creationTime.isValid())
            noteCreated(key, pod->namespaceName, pod->creationTime.toSecsSinceEpoch());
    }
}

void UncheckedPods::noteCreated(const QString &key, const QString &ns, qint64 created) {
    if (created < m_since || m_ignored.contains(ns) || m_seen.size() >= kMaxRemembered)
        return;
    m_seen.append({key, created});
}

std::optional<AlertInputs::WebhookSilence> UncheckedPods::evaluate(qint64 now, qint64 lastReview,
                                                                   qint64 afterSeconds) {
    // Reviewed: a review at any replica after the pod's creation (give or take the slack).
    m_seen.removeIf([lastReview](const Seen &s) { return lastReview >= s.created - kSlackSeconds; });
    if (afterSeconds <= 0)
        return std::nullopt;
    AlertInputs::WebhookSilence silence;
    silence.lastReview = lastReview;
    for (const Seen &s : std::as_const(m_seen)) {
        if (now - s.created < afterSeconds)
            continue; // its review may still be on its way to the beacon
        if (!silence.pods || s.created < silence.firstSeen)
            silence.firstSeen = s.created;
        ++silence.pods;
        if (silence.examples.size() < kExamples)
            silence.examples << s.key;
    }
    if (!silence.pods)
        return std::nullopt;
    return silence;
}

} // namespace gq
