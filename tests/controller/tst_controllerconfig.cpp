// The controller's configuration: a good file read whole, and every kind of bad file
// refused with one error per problem naming the key and line, by the parser and by
// `gpuquota-controller --check-config` (exit 2, nothing started).
#include "services/controller/controllercheck.h"
#include "services/controller/controllerconfig.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace gq;

namespace {

QString binDir() {
    QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    return dir.isEmpty() ? QStringLiteral(GQ_BINARY_DIR "/bin") : dir;
}

} // namespace

class TestControllerConfig : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &text) {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void goodFileReadWhole() {
        const QString kubeconfig = write(QStringLiteral("kubeconfig"), "apiVersion: v1\n");
        const QString cert = write(QStringLiteral("tls.crt"), "x");
        const QString key = write(QStringLiteral("tls.key"), "x");
        const QByteArray text =
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\n"
                           "database: postgresql://gpuquota@db:5432/gpuquota\n"
                           "listen: 127.0.0.1:9464\n"
                           "userLabel: example.com/owner\n"
                           "gpuResources: {nvidia.com/gpu: 1, nvidia.com/mig-1g.10gb: 0.142857}\n"
                           "gpuModelWeights: {\"NVIDIA H100 80GB HBM3\": 2.0}\n"
                           "timeZone: Europe/Berlin\n"
                           "enforce: {enabled: true, interval: 1m}\n"
                           "webhook: {listen: 0.0.0.0:9443, tlsCert: %2, tlsKey: %3}\n"
                           "spool: spool\n"
                           "leaderElection: {enabled: true, namespace: gq-system, name: gq}\n"
                           "alerts:\n  thresholds: [80, 100]\n"
                           "selfService: {perUser: true}\n"
                           "identity: {stripPrefixes: [\"oidc:\", \"sso:\"], emailLocalPart: false,\n"
                           "  serviceAccounts: none, users: {\"arn:aws:iam::1:user/Alice\": alice}}\n"
                           "gpuDeviceClasses: [accel.example.com, tpu.example.com]\n")
                .arg(kubeconfig, cert, key)
                .toUtf8();
        const auto r = parseControllerConfig(text, m_dir.filePath(QStringLiteral("c.yaml")));
        QVERIFY2(r.config, qPrintable(r.errors.value(0).toString()));
        const ControllerConfig &c = *r.config;
        QCOMPARE(c.cluster.kubeconfig, kubeconfig);
        QCOMPARE(c.cluster.context, QStringLiteral("admin"));
        QCOMPARE(c.clusterName, QStringLiteral("admin"));
        QCOMPARE(c.userLabel, QStringLiteral("example.com/owner"));
        QCOMPARE(c.weights.weight(QStringLiteral("nvidia.com/mig-1g.10gb")), 0.142857);
        QCOMPARE(c.weights.weight(QStringLiteral("nvidia.com/mig-3g.40gb")), 3 / 7.0); // built-in rule stays
        QCOMPARE(c.modelWeight(QStringLiteral("NVIDIA H100 80GB HBM3")), 2.0);
        QCOMPARE(c.modelWeight(QStringLiteral("Tesla T4")), 1.0);
        // The store's weights carry them, so each interval is written with its factor.
        QCOMPARE(c.weights.modelWeight(QStringLiteral("NVIDIA H100 80GB HBM3")), 2.0);
        QCOMPARE(c.weights.modelWeight(QStringLiteral("Tesla T4")), 1.0);
        QCOMPARE(c.timeZone, QStringLiteral("Europe/Berlin"));
        QVERIFY(c.enforce.enabled);
        QCOMPARE(c.enforce.intervalSeconds, 60);
        QVERIFY(c.webhook.configured);
        QCOMPARE(c.webhook.listen, QStringLiteral("0.0.0.0:9443"));
        QCOMPARE(c.spool, m_dir.filePath(QStringLiteral("spool"))); // relative to the file
        QVERIFY(c.leaderElection.enabled);
        QCOMPARE(c.leaderElection.namespaceName, QStringLiteral("gq-system"));
        QVERIFY(c.alerts.isMap()); // raw, for the alert service's parser
        QCOMPARE(c.alerts.find(u"thresholds")->pos().line, 13);
        QVERIFY(c.selfService.isMap());
        QCOMPARE(c.identity.stripPrefixes, (QStringList{QStringLiteral("oidc:"), QStringLiteral("sso:")}));
        QVERIFY(!c.identity.emailLocalPart);
        QVERIFY(c.identity.serviceAccounts == IdentityRules::ServiceAccounts::None);
        QCOMPARE(c.identity.users.value(QStringLiteral("arn:aws:iam::1:user/Alice")),
                 QStringLiteral("alice"));
        QCOMPARE(c.gpuDeviceClasses,
                 (QSet<QString>{QStringLiteral("accel.example.com"), QStringLiteral("tpu.example.com")}));

        const auto inCluster = parseControllerConfig(
            "cluster: {inCluster: true}\ndatabase: sqlite:///x.db\nspool: /s\n", QStringLiteral("c.yaml"));
        QVERIFY(inCluster.config);
        QVERIFY(inCluster.config->cluster.inCluster);
        QCOMPARE(inCluster.config->clusterName, QStringLiteral("in-cluster"));
        QCOMPARE(inCluster.config->listen, QStringLiteral("127.0.0.1:9464"));
        // Without identity: an e-mail address, an oidc: name and a ServiceAccount map.
        const IdentityRules &defaults = inCluster.config->identity;
        QCOMPARE(mapIdentity(QStringLiteral("alice@example.com"), defaults)->subject,
                 QStringLiteral("alice"));
        QCOMPARE(mapIdentity(QStringLiteral("oidc:bob"), defaults)->subject, QStringLiteral("bob"));
        QCOMPARE(mapIdentity(QStringLiteral("system:serviceaccount:team-a:nb"), defaults)->subject,
                 QStringLiteral("team-a"));
    }

    void badFiles_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const QByteArray base = "cluster: {inCluster: true}\ndatabase: sqlite:///x.db\nspool: /s\n";
        QTest::newRow("unknown top key") << base + "listne: 1.2.3.4:1\n"
                                         << "listne" << 4 << "unknown key";
        QTest::newRow("unknown nested key") << base + "enforce: {enabled: true, intervall: 10s}\n"
                                            << "enforce.intervall" << 4 << "unknown key";
        QTest::newRow("missing database")
            << QByteArray("cluster: {inCluster: true}\nspool: /s\n") << "database" << 1 << "required";
        QTest::newRow("missing cluster")
            << QByteArray("database: sqlite:///x.db\nspool: /s\n") << "cluster" << 1 << "required";
        QTest::newRow("bad database")
            << QByteArray("cluster: {inCluster: true}\ndatabase: mysql://x\nspool: /s\n") << "database" << 2
            << "mysql";
        QTest::newRow("bad bool") << base + "enforce:\n  enabled: yes please\n"
                                  << "enforce.enabled" << 5 << "true or false";
        QTest::newRow("bad duration") << base + "enforce: {interval: soon}\n"
                                      << "enforce.interval" << 4 << "duration";
        QTest::newRow("bad weight") << base + "gpuResources: {nvidia.com/gpu: 0}\n"
                                    << "gpuResources[nvidia.com/gpu]" << 4 << "greater than 0";
        QTest::newRow("not a GPU resource") << base + "gpuResources: {cpu: 1}\n"
                                            << "gpuResources[cpu]" << 4 << "not a GPU resource";
        QTest::newRow("bad model weight") << base + "gpuModelWeights: {T4: lots}\n"
                                          << "gpuModelWeights[T4]" << 4 << "number";
        QTest::newRow("device classes not a list") << base + "gpuDeviceClasses: gpu.nvidia.com\n"
                                                   << "gpuDeviceClasses" << 4 << "list of DeviceClass names";
        QTest::newRow("bad zone") << base + "timeZone: Europe/Atlantis\n"
                                  << "timeZone" << 4 << "time zone";
        QTest::newRow("bad listen") << base + "listen: localhost\n"
                                    << "listen" << 4 << "host:port";
        QTest::newRow("webhook key missing") << base + "webhook: {listen: 0.0.0.0:9443, tlsCert: /nope.crt}\n"
                                             << "webhook.tlsKey" << 4 << "required";
        QTest::newRow("unreadable kubeconfig")
            << QByteArray("cluster: {kubeconfig: /does/not/exist}\ndatabase: sqlite:///x.db\nspool: /s\n")
            << "cluster.kubeconfig" << 1 << "cannot read";
        QTest::newRow("inCluster and context") << QByteArray("cluster: {inCluster: true, context: a}\n"
                                                             "database: sqlite:///x.db\nspool: /s\n")
                                               << "cluster.inCluster" << 1 << "cannot be combined";
        QTest::newRow("identity not a map") << base + "identity: namespace\n"
                                            << "identity" << 4 << "must be a map";
        QTest::newRow("identity unknown key") << base + "identity:\n  stripPrefix: [\"oidc:\"]\n"
                                              << "identity.stripPrefix" << 5 << "unknown key";
        QTest::newRow("identity bad bool") << base + "identity: {emailLocalPart: maybe}\n"
                                           << "identity.emailLocalPart" << 4 << "true or false";
        QTest::newRow("identity service accounts") << base + "identity: {serviceAccounts: users}\n"
                                                   << "identity.serviceAccounts" << 4 << "namespace or none";
        QTest::newRow("identity user not a label value")
            << base + "identity:\n  users:\n    \"arn:aws:iam::1:user/Alice\": \"alice@example.com\"\n"
            << "identity.users[arn:aws:iam::1:user/Alice]" << 6 << "contains '@'";
        QTest::newRow("not a map") << QByteArray("- a\n- b\n") << "" << 1 << "must be a map";
        QTest::newRow("broken yaml") << QByteArray("cluster: {inCluster: true\n") << "" << 0 << "";
    }
    void badFiles() {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto r = parseControllerConfig(text, QStringLiteral("c.yaml"));
        QVERIFY(!r.config);
        QVERIFY(!r.errors.isEmpty());
        auto named =
            std::find_if(r.errors.begin(), r.errors.end(), [&](const Error &x) { return x.field == field; });
        const Error &e = named == r.errors.end() ? r.errors.first() : *named;
        QCOMPARE(e.field, field);
        if (line > 0)
            QCOMPARE(e.line, line);
        else
            QVERIFY(e.line > 0); // a parse error still names its line
        QVERIFY2(e.message.contains(message), qPrintable(e.message));
    }

    // Every problem at once, not only the first.
    void allProblemsReported() {
        const auto r = parseControllerConfig(
            "cluster: {inCluster: maybe}\ndatabase: ftp://x\nfoo: 1\nbar: 2\n", QStringLiteral("c.yaml"));
        QStringList fields;
        for (const Error &e : r.errors)
            fields << e.field;
        fields.sort();
        QCOMPARE(fields,
                 (QStringList{QStringLiteral("bar"), QStringLiteral("cluster.inCluster"),
                              QStringLiteral("database"), QStringLiteral("foo"), QStringLiteral("spool")}));
    }

    // Issue 31 item 15: what cannot work is refused by the check the start runs too
    // (checkControllerConfig, behind --check-config): a spool that is a file or cannot
    // be created, a listen address not on this machine, an absurd weight, a password
    // in the SMTP URL.
    void checkRefusesWhatCannotStart_data() {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::newRow("spool is a file") << "spool: %FILE%\n"
                                         << "spool"
                                         << "is a file, not a directory";
        QTest::newRow("spool under a file") << "spool: %FILE%/spool\n"
                                            << "spool"
                                            << "cannot be created";
        // TEST-NET-1 (RFC 5737): never an address of this machine; nothing is sent.
        QTest::newRow("listen not here") << "spool: %DIR%\nlisten: 192.0.2.1:9464\n"
                                         << "listen"
                                         << "not an address of this machine";
        QTest::newRow("1e308 GPUs") << "spool: %DIR%\ngpuResources: {nvidia.com/gpu: 1e308}\n"
                                    << "gpuResources[nvidia.com/gpu]"
                                    << "at most 1000";
        QTest::newRow("1e308 model weight") << "spool: %DIR%\ngpuModelWeights: {T4: 1e308}\n"
                                            << "gpuModelWeights[T4]"
                                            << "at most 1000";
        QTest::newRow("password in the SMTP URL")
            << "spool: %DIR%\nalerts:\n  enabled: true\n  admins: [ops@example.org]\n"
               "  email: {smtp: \"smtp://mailer:hunter2@127.0.0.1:25\", from: gq@example.org}\n"
            << "alerts.email.smtp"
            << "a password in the URL is not accepted";
        QTest::newRow("boost request groups not a list")
            << "spool: %DIR%\nselfService: {boostRequestGroups: gpu-users}\n"
            << "selfService.boostRequestGroups"
            << "must be a list of group names";
        QTest::newRow("accepted") << "spool: %DIR%\nlisten: 127.0.0.1:9464\n" << QString() << QString();
        QTest::newRow("boost request groups")
            << "spool: %DIR%\nselfService: {perUserMetrics: true, boostRequestGroups: [gpu-users, ml]}\n"
            << QString() << QString();
    }
    void checkRefusesWhatCannotStart() {
        QFETCH(QString, extra);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const QString plainFile = write(QStringLiteral("a-file"), "x");
        extra.replace(QLatin1String("%FILE%"), plainFile)
            .replace(QLatin1String("%DIR%"), m_dir.filePath(QStringLiteral("spool-dir")));
        const QString kubeconfig =
            write(QStringLiteral("nowhere.kubeconfig"),
                  "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "
                  "\"https://127.0.0.1:1\"}}]\nusers: [{name: u, user: {token: t}}]\n"
                  "contexts: [{name: admin, context: {cluster: c, user: u}}]\n");
        const QString file =
            write(QStringLiteral("check.yaml"),
                  (QStringLiteral("cluster: {kubeconfig: %1, context: admin}\ndatabase: sqlite:///x.db\n")
                       .arg(kubeconfig) +
                   extra)
                      .toUtf8());
        const ControllerCheckResult r = checkControllerConfig(file);
        QStringList all;
        for (const Error &e : r.errors)
            all << formatConfigError(file, e);
        if (field.isEmpty()) {
            QVERIFY2(r.errors.isEmpty(), qPrintable(all.join(u'\n')));
            QVERIFY(r.setup);
            if (extra.contains(QLatin1String("boostRequestGroups")))
                QCOMPARE(r.setup->boostRequestGroups,
                         (QStringList{QStringLiteral("gpu-users"), QStringLiteral("ml")}));
            return;
        }
        QVERIFY(!r.setup);
        const auto e =
            std::find_if(r.errors.begin(), r.errors.end(), [&](const Error &x) { return x.field == field; });
        QVERIFY2(e != r.errors.end(), qPrintable(all.join(u'\n')));
        QVERIFY2(e->message.contains(message), qPrintable(e->message));
        QVERIFY2(!all.join(u'\n').contains(QLatin1String("hunter2")), qPrintable(all.join(u'\n')));
    }

    // The binary: exit 2 and "FILE:LINE:COL: key: message" on stderr; --check-config
    // of a good file exits 0 without connecting anywhere. --check-config checks what a
    // start needs (tst_controllerparts has the whole list): `inCluster: true` outside a
    // pod cannot start, so it does not check out either.
    void binaryExitCodes() {
        const QString bad =
            write(QStringLiteral("bad.yaml"), "cluster: {inCluster: true}\ndatabase: sqlite:///x.db\n"
                                              "spool: /s\nenforce: {interval: never}\n");
        QProcess p;
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--config"), bad});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(bad + QStringLiteral(":4:21: enforce.interval: ")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("nothing started")), qPrintable(err));

        const QString inCluster =
            write(QStringLiteral("in-cluster.yaml"), "cluster: {inCluster: true}\n"
                                                     "database: sqlite:///x.db\nspool: /s\n");
        QProcessEnvironment outsideAPod = QProcessEnvironment::systemEnvironment();
        outsideAPod.remove(QStringLiteral("KUBERNETES_SERVICE_HOST"));
        p.setProcessEnvironment(outsideAPod);
        p.start(binDir() + QStringLiteral("/gpuquota-controller"),
                {QStringLiteral("--config"), inCluster, QStringLiteral("--check-config")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        const QString notInAPod = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(notInAPod.contains(inCluster + QStringLiteral(":1:22: cluster.inCluster: ")),
                 qPrintable(notInAPod));
        QVERIFY2(notInAPod.contains(QStringLiteral("KUBERNETES_SERVICE_HOST")), qPrintable(notInAPod));

        const QString kubeconfig =
            write(QStringLiteral("reachable-nowhere.kubeconfig"),
                  "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "
                  "\"https://127.0.0.1:1\"}}]\n"
                  "users: [{name: u, user: {token: t}}]\n"
                  "contexts: [{name: admin, context: {cluster: c, user: u}}]\ncurrent-context: admin\n");
        const QString good =
            write(QStringLiteral("good.yaml"), QStringLiteral("cluster: {kubeconfig: %1, context: admin}\n"
                                                              "database: sqlite:///x.db\nspool: %2\n")
                                                   .arg(kubeconfig, m_dir.filePath(QStringLiteral("spool")))
                                                   .toUtf8());
        p.start(binDir() + QStringLiteral("/gpuquota-controller"),
                {QStringLiteral("--config"), good, QStringLiteral("--check-config")});
        QVERIFY(p.waitForFinished(20000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), QStringList{});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2); // --config is required
        p.start(binDir() + QStringLiteral("/gpuquota-controller"), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("gpuquota-controller "));
    }
};

QTEST_GUILESS_MAIN(TestControllerConfig)
#include "tst_controllerconfig.moc"
