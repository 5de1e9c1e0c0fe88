#pragma once

#include "core/usage/alert.h"
#include "core/domain/result.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace gq {

class YamlNode;

// The namespace annotation naming a namespace's alert recipients:
//   gpuquota.io/alert-recipients: "lead@example.org, ops@example.org"
inline constexpr char kRecipientsAnnotation[] = "gpuquota.io/alert-recipients";
// The default pod label/annotation naming the email of a pod's user (the user name
// itself comes from the controller's userLabel).
inline constexpr char kUserEmailAnnotation[] = "gpuquota.io/user-email";

// Who hears about what. Users and namespaces each map to email addresses, from a
// mapping file and from the cluster (the controller hands in namespace annotations and
// the user emails it reads from pods); both sources add up. Admins hear about the
// controller's own trouble and about clamps.
class AlertRecipients {
public:
    // Mapping file (YAML):
    //   users: {alice: alice@example.org, bob: [bob@example.org, bob@home.example]}
    //   namespaces: {team-a: [lead-a@example.org]}
    //   admins: [ops@example.org]
    // Errors name the key ("users.alice") and its line.
    [[nodiscard]] static Result<AlertRecipients> fromYaml(const QByteArray &text);
    [[nodiscard]] static Result<AlertRecipients> loadFile(const QString &path);

    void addUser(const QString &user, const QString &email);
    void addNamespace(const QString &ns, const QString &email);
    void addAdmin(const QString &email);
    // Replaces what the cluster said for `ns` (the value of kRecipientsAnnotation, a
    // comma- or space-separated list); malformed addresses are skipped.
    void setNamespaceAnnotation(const QString &ns, const QString &value);
    // "alice" -> "alice@example.org" for users with no mapping (empty: none).
    void setUserDomain(const QString &domain) { m_userDomain = domain; }

    [[nodiscard]] QStringList forUser(const QString &user) const;
    [[nodiscard]] QStringList forNamespace(const QString &ns) const;
    [[nodiscard]] const QStringList &admins() const { return m_admins; }
    // Everyone an alert goes to by email, sorted, each once.
    [[nodiscard]] QStringList forAlert(const Alert &alert) const;

    // A plausible single address: local@domain, no spaces, angle brackets or line breaks.
    [[nodiscard]] static bool isAddress(const QString &text);

private:
    QHash<QString, QStringList> m_users;
    QHash<QString, QStringList> m_namespaces;
    QHash<QString, QStringList> m_annotated; // from the cluster, replaced per namespace
    QStringList m_admins;
    QString m_userDomain;
};

} // namespace gq
