#pragma once

#include "core/alerts/alertchannels.h"
#include "core/alerts/alertrecipients.h"
#include "core/alerts/alertrules.h"
#include "core/domain/result.h"

#include <QString>
#include <QStringList>

namespace gq {

class YamlNode;

// The `alerts:` section of the controller's configuration, typed. Every field has a
// default, so `alerts: {enabled: true, webhook: {url: …}}` is a working section.
//
//   alerts:
//     enabled: true
//     language: en                    # en or zh_CN: the language of messages
//     thresholds: [80, 100]           # percent of each budget's limit (boosts included)
//     budgetThresholds:               # per budget: "scope/subject" or "scope/subject/period"
//       namespace/team-a: [50, 90, 100]
//     boostLeadTime: 1h               # warn before an active boost ends
//     databaseDownAfter: 10m          # the controller could not write for this long
//     idleAfter: 2h                   # GPUs held idle for this long
//     recipientsFile: /etc/gpuquota/recipients.yaml   # users/namespaces/admins -> email
//     userEmailDomain: example.org    # user alice -> alice@example.org when not mapped
//     userEmailAnnotation: gpuquota.io/user-email     # pod label/annotation with the email
//     admins: [ops@example.org]
//     email:
//       smtp: smtp://mail.example.org:587   # smtps://…:465 for TLS from the start
//       from: gpuquota@example.org
//       starttls: true                      # smtp://: refuse to send without STARTTLS
//       user: gpuquota
//       passwordFile: /secrets/smtp/password   # or passwordEnv: GQ_SMTP_PASSWORD
//     webhook:
//       url: https://hooks.example.org/gpuquota
//       secretFile: /secrets/webhook/secret    # or secretEnv: GQ_WEBHOOK_SECRET
//     retry: {maxAttempts: 8, initial: 1m, max: 1h}
struct AlertConfig {
    bool enabled = false;
    QString language = QStringLiteral("en");
    AlertRules rules;
    QString recipientsFile;
    QString userEmailDomain;
    QString userEmailAnnotation = QStringLiteral("gpuquota.io/user-email");
    QStringList admins;
    SmtpSettings smtp;
    WebhookSettings webhook;
    int maxAttempts = 8;             // deliveries given up after this many failures
    qint64 retryInitialSeconds = 60; // the first retry waits this, then doubling ...
    qint64 retryMaxSeconds = 3600;   // ... up to this
};

// Reads the value of `alerts:` (a map; null gives the defaults). One Error for the
// whole section: its message, field ("alerts.email.smtp") and line are the first
// problem's; every problem (the first included) is in causes, as "line N: message"
// with its field, so the controller can print one line per problem.
[[nodiscard]] Result<AlertConfig> parseAlertConfig(const YamlNode &alerts);
// The same problems as a list (empty: the section is valid), each with its field, line
// and column: for a caller that reports every problem of a file in one format.
[[nodiscard]] QList<Error> alertConfigProblems(const YamlNode &alerts);
// The same from the text of the whole configuration file: its `alerts:` key is read
// (absent: the defaults, alerts off), other keys are left to their readers.
[[nodiscard]] Result<AlertConfig> parseAlertConfig(const QByteArray &yaml);

} // namespace gq
