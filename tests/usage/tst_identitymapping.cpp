#include "core/usage/identitymapping.h"
#include "core/domain/yamldoc.h"

#include <QTest>

using namespace gq;

// Usernames as the API server authenticates them -> budget subjects (identitymapping.h),
// and the controller configuration's identity: section.
class TestIdentityMapping : public QObject {
    Q_OBJECT

    static IdentityRules configured() {
        IdentityRules r;
        r.users.insert(QStringLiteral("arn:aws:iam::1:user/Alice"), QStringLiteral("alice"));
        r.users.insert(QStringLiteral("bob@example.com"), QStringLiteral("robert"));
        r.users.insert(QStringLiteral("system:serviceaccount:ci:runner"), QStringLiteral("ci-bot"));
        r.stripPrefixes = {QStringLiteral("oidc:"), QStringLiteral("corp-")};
        return r;
    }

private slots:
    void maps_data() {
        QTest::addColumn<bool>("withTable");
        QTest::addColumn<QString>("username");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("explanation");
        QTest::newRow("e-mail") << false << "alice@example.com"
                                << "user"
                                << "alice"
                                << "email"
                                << "alice@example.com \u2192 alice (e-mail local part)";
        QTest::newRow("oidc prefix") << false << "oidc:alice"
                                     << "user"
                                     << "alice"
                                     << "prefix"
                                     << "oidc:alice \u2192 alice (prefix oidc: removed)";
        QTest::newRow("oidc e-mail") << false << "oidc:alice@example.com"
                                     << "user"
                                     << "alice"
                                     << "prefix+email"
                                     << "oidc:alice@example.com \u2192 alice (prefix oidc: removed, e-mail "
                                        "local part)";
        QTest::newRow("issuer#sub")
            << false << "https://issuer.example.com#a1b2c3"
            << "user"
            << "a1b2c3"
            << "issuer"
            << "https://issuer.example.com#a1b2c3 \u2192 a1b2c3 (issuer https://issuer.example.com removed)";
        QTest::newRow("service account") << false << "system:serviceaccount:team-a:notebook"
                                         << "namespace"
                                         << "team-a"
                                         << "service-account"
                                         << "system:serviceaccount:team-a:notebook \u2192 namespace team-a "
                                            "(ServiceAccount notebook of namespace team-a)";
        QTest::newRow("plain") << false << "alice"
                               << "user"
                               << "alice"
                               << "as-is"
                               << "alice \u2192 alice (used as it is)";
        QTest::newRow("dots and underscores") << false << "a.b_c-d"
                                              << "user"
                                              << "a.b_c-d"
                                              << "as-is"
                                              << "a.b_c-d \u2192 a.b_c-d (used as it is)";
        // The table is asked first: before the e-mail rule and the ServiceAccount rule.
        QTest::newRow("table: ARN") << true << "arn:aws:iam::1:user/Alice"
                                    << "user"
                                    << "alice"
                                    << "table"
                                    << "arn:aws:iam::1:user/Alice \u2192 alice (identity.users)";
        QTest::newRow("table before e-mail") << true << "bob@example.com"
                                             << "user"
                                             << "robert"
                                             << "table"
                                             << "bob@example.com \u2192 robert (identity.users)";
        QTest::newRow("table before service account")
            << true << "system:serviceaccount:ci:runner"
            << "user"
            << "ci-bot"
            << "table"
            << "system:serviceaccount:ci:runner \u2192 ci-bot (identity.users)";
        QTest::newRow("configured prefix") << true << "corp-alice"
                                           << "user"
                                           << "alice"
                                           << "prefix"
                                           << "corp-alice \u2192 alice (prefix corp- removed)";
        QTest::newRow("e-mail not in the table") << true << "carol@example.com"
                                                 << "user"
                                                 << "carol"
                                                 << "email"
                                                 << "carol@example.com \u2192 carol (e-mail local part)";
    }
    void maps() {
        QFETCH(bool, withTable);
        QFETCH(QString, username);
        QFETCH(QString, scope);
        QFETCH(QString, subject);
        QFETCH(QString, rule);
        QFETCH(QString, explanation);
        const auto m = mapIdentity(username, withTable ? configured() : IdentityRules{});
        QVERIFY2(m, qPrintable(m ? QString() : m.error().message));
        QCOMPARE(m->username, username);
        QCOMPARE(scopeName(m->scope), scope);
        QCOMPARE(m->subject, subject);
        QCOMPARE(m->rule(), rule);
        QCOMPARE(m->explanation, explanation);
    }

    void cannotMap_data() {
        QTest::addColumn<QString>("username");
        QTest::addColumn<QString>("because");
        QTest::newRow("empty") << ""
                               << "the username is empty";
        QTest::newRow("space") << "bob smith"
                               << "contains ' '";
        QTest::newRow("ARN without a table") << "arn:aws:iam::1:user/Alice"
                                             << "contains ':'";
        QTest::newRow("too long") << QString(64, QLatin1Char('a')) << "longer than 63 characters";
        QTest::newRow("ends with a dot") << "alice.@example.com"
                                         << "must start and end with a letter or digit";
        QTest::newRow("only a prefix") << "oidc:"
                                       << "contains ':'";
        QTest::newRow("anonymous") << "system:anonymous"
                                   << "Kubernetes' own components";
        QTest::newRow("node") << "system:node:gpu-1"
                              << "Kubernetes' own components";
        QTest::newRow("broken service account") << "system:serviceaccount:team-a"
                                                << "not a ServiceAccount";
        QTest::newRow("unicode") << QStringLiteral("\u00e9lise@example.com") << "contains '\u00e9'";
    }
    void cannotMap() {
        QFETCH(QString, username);
        QFETCH(QString, because);
        const auto m = mapIdentity(username, IdentityRules{});
        QVERIFY(!m);
        QCOMPARE(m.error().kind, Error::Kind::Invalid);
        QVERIFY2(m.error().message.contains(because), qPrintable(m.error().message));
        QVERIFY2(m.error().message.contains(QLatin1String("cannot be mapped to a budget user")),
                 qPrintable(m.error().message));
    }

    void rulesCanBeTurnedOff() {
        IdentityRules r;
        r.emailLocalPart = false;
        QVERIFY(!mapIdentity(QStringLiteral("alice@example.com"), r));
        r.stripPrefixes.clear();
        QVERIFY(!mapIdentity(QStringLiteral("oidc:alice"), r));
        r.stripIssuer = false;
        QVERIFY(!mapIdentity(QStringLiteral("https://issuer#sub"), r));
        r.serviceAccounts = IdentityRules::ServiceAccounts::None;
        const auto sa = mapIdentity(QStringLiteral("system:serviceaccount:team-a:notebook"), r);
        QVERIFY(!sa);
        QVERIFY(sa.error().message.contains(QLatin1String("identity.serviceAccounts: none")));
    }

    void tableValueMustBeAUser() {
        IdentityRules r;
        r.users.insert(QStringLiteral("x"), QStringLiteral("not a user"));
        const auto m = mapIdentity(QStringLiteral("x"), r);
        QVERIFY(!m);
        QVERIFY(m.error().message.contains(QLatin1String("identity.users")));
    }

    void labelValues_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("valid");
        QTest::newRow("a") << "a" << true;
        QTest::newRow("63") << QString(63, QLatin1Char('z')) << true;
        QTest::newRow("64") << QString(64, QLatin1Char('z')) << false;
        QTest::newRow("leading dash") << "-a" << false;
        QTest::newRow("trailing underscore") << "a_" << false;
        QTest::newRow("inner") << "A-b_c.9" << true;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("empty") << "" << false;
    }
    void labelValues() {
        QFETCH(QString, value);
        QFETCH(bool, valid);
        QString why;
        QCOMPARE(isLabelValue(value, &why), valid);
        QCOMPARE(why.isEmpty(), valid);
    }

    void parsesTheSection() {
        const auto root = parseYamlNode("identity:\n"
                                        "  stripPrefixes: [\"oidc:\", \"corp-\"]\n"
                                        "  emailLocalPart: false\n"
                                        "  stripIssuer: false\n"
                                        "  serviceAccounts: none\n"
                                        "  users: {\"arn:aws:iam::1:user/Alice\": alice}\n");
        QVERIFY(root);
        QList<Error> errors;
        const IdentityRules r = parseIdentityRules(*root->find(u"identity"), &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(r.stripPrefixes, (QStringList{QStringLiteral("oidc:"), QStringLiteral("corp-")}));
        QCOMPARE(r.emailLocalPart, false);
        QCOMPARE(r.stripIssuer, false);
        QVERIFY(r.serviceAccounts == IdentityRules::ServiceAccounts::None);
        QCOMPARE(r.users.value(QStringLiteral("arn:aws:iam::1:user/Alice")), QStringLiteral("alice"));

        const IdentityRules defaults = parseIdentityRules(YamlNode(), &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(defaults.stripPrefixes, QStringList{QStringLiteral("oidc:")});
        QVERIFY(defaults.emailLocalPart && defaults.stripIssuer);
    }

    void sectionErrors_data() {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a map") << QByteArray("identity: 3\n") << "identity" << 1 << "must be a map";
        QTest::newRow("unknown key") << QByteArray("identity:\n  emailLocalPart: true\n  lowercase: true\n")
                                     << "identity.lowercase" << 3 << "unknown key (known here: users,";
        QTest::newRow("bool") << QByteArray("identity:\n  emailLocalPart: yes\n") << "identity.emailLocalPart"
                              << 2 << "must be true or false";
        QTest::newRow("service accounts")
            << QByteArray("identity:\n  serviceAccounts: user\n") << "identity.serviceAccounts" << 2
            << "must be namespace or none (got \"user\")";
        QTest::newRow("prefixes not a list") << QByteArray("identity:\n  stripPrefixes: \"oidc:\"\n")
                                             << "identity.stripPrefixes" << 2 << "must be a list";
        QTest::newRow("users not a map") << QByteArray("identity:\n  users: [alice]\n") << "identity.users"
                                         << 2 << "must be a map of username to user";
        QTest::newRow("user not a label value")
            << QByteArray("identity:\n  users:\n    \"arn:x\": alice\n    \"arn:y\": \"Bob Smith\"\n")
            << "identity.users[arn:y]" << 4 << "not a user name: \"Bob Smith\" contains ' '";
    }
    void sectionErrors() {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, field);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto root = parseYamlNode(yaml);
        QVERIFY(root);
        QList<Error> errors;
        (void)parseIdentityRules(*root->find(u"identity"), &errors);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors[0].kind, Error::Kind::Config);
        QCOMPARE(errors[0].field, field);
        QCOMPARE(errors[0].line, line);
        QVERIFY2(errors[0].message.startsWith(message), qPrintable(errors[0].message));
    }
};

QTEST_GUILESS_MAIN(TestIdentityMapping)
#include "tst_identitymapping.moc"
