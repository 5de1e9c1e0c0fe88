// kubeconfig loading, merging and credential plugins. Every kubeconfig here is
// written by the real `kubectl config ...` commands, so we read what users have.
#include "core/kube/kubeconfig.h"

#include "tests/kube/kubetestutil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gq;
using gq::test::runTool;

class TestKubeConfig : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QByteArray m_caPem;
    QByteArray m_certPem;
    QByteArray m_keyPem;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // kubectl config <args> --kubeconfig=<file>; fails the test on error.
    bool kubectl(const QString &file, QStringList args) {
        args << QStringLiteral("--kubeconfig=") + file;
        const auto r = runTool(QStringLiteral("kubectl"), QStringList{QStringLiteral("config")} + args);
        if (r.exitCode != 0)
            qWarning("kubectl config %s failed: %s", qPrintable(args.join(QLatin1Char(' '))),
                     r.err.constData());
        return r.exitCode == 0;
    }

    // Plugins live in their own folder: kubectl rewrites the command relative to the
    // kubeconfig's folder, and a bare name would then be looked up on PATH (kubectl too).
    QString writePlugin(const QString &name, const QByteArray &body) {
        const QString p = path(QStringLiteral("plugins/") + name);
        gq::test::writeFile(p, "#!/bin/sh\n" + body);
        QFile::setPermissions(p, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return p;
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("openssl");
        QVERIFY(m_dir.isValid());
        const auto ca = runTool(
            QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
             QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
             QStringLiteral("-nodes"), QStringLiteral("-keyout"), path(QStringLiteral("client.key")),
             QStringLiteral("-out"), path(QStringLiteral("client.crt")), QStringLiteral("-days"),
             QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=alice/O=team-a")});
        QCOMPARE(ca.exitCode, 0);
        m_certPem = gq::test::readFile(path(QStringLiteral("client.crt")));
        m_keyPem = gq::test::readFile(path(QStringLiteral("client.key")));
        // The "CA" is just another self-signed certificate: kubeconfig does not care.
        QDir().mkpath(path(QStringLiteral("certs")));
        QVERIFY(QFile::copy(path(QStringLiteral("client.crt")), path(QStringLiteral("certs/ca.crt"))));
        m_caPem = m_certPem;
        QVERIFY(m_keyPem.contains("PRIVATE KEY"));
    }

    void tokenContextWithEmbeddedCa() {
        const QString f = path(QStringLiteral("token.yaml"));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("prod"),
                            QStringLiteral("--server=https://10.0.0.1:6443/"),
                            QStringLiteral("--certificate-authority=") + path(QStringLiteral("certs/ca.crt")),
                            QStringLiteral("--embed-certs=true")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("alice"),
                            QStringLiteral("--token=s3cr3t-token")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("prod-alice"),
                            QStringLiteral("--cluster=prod"), QStringLiteral("--user=alice"),
                            QStringLiteral("--namespace=team-a")}));
        QVERIFY(kubectl(f, {QStringLiteral("use-context"), QStringLiteral("prod-alice")}));

        auto cfg = KubeConfig::load(f);
        QVERIFY2(cfg, qPrintable(cfg ? QString() : cfg.error().toString()));
        QCOMPARE(cfg->currentContext(), QStringLiteral("prod-alice"));
        QCOMPARE(cfg->contextNames(), QStringList{QStringLiteral("prod-alice")});
        auto conn = cfg->connection();
        QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
        QCOMPARE(conn->server, QStringLiteral("https://10.0.0.1:6443")); // trailing slash dropped
        QCOMPARE(conn->namespaceName, QStringLiteral("team-a"));
        QCOMPARE(conn->token, QStringLiteral("s3cr3t-token"));
        QCOMPARE(conn->caPem, m_caPem);
        QVERIFY(!conn->insecureSkipTlsVerify);

        KubeCredentials creds(*conn);
        auto m = creds.current();
        QVERIFY(m);
        QCOMPARE(m->bearerToken, QStringLiteral("s3cr3t-token"));
    }

    void relativePathsResolveAgainstTheFilesDirectory() {
        // kubectl keeps relative paths as typed; they mean "next to the kubeconfig".
        QDir().mkpath(path(QStringLiteral("nested")));
        QVERIFY(QFile::copy(path(QStringLiteral("client.crt")), path(QStringLiteral("nested/c.pem"))));
        QVERIFY(QFile::copy(path(QStringLiteral("client.key")), path(QStringLiteral("nested/k.pem"))));
        QVERIFY(QFile::copy(path(QStringLiteral("certs/ca.crt")), path(QStringLiteral("nested/ca.pem"))));
        gq::test::writeFile(path(QStringLiteral("nested/token")), "file-token\n");
        const QString f = path(QStringLiteral("nested/config"));
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(path(QStringLiteral("nested")));
        const bool ok = kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("c"),
                                    QStringLiteral("--server=https://c:6443"),
                                    QStringLiteral("--certificate-authority=ca.pem")}) &&
                        kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("cert-user"),
                                    QStringLiteral("--client-certificate=c.pem"),
                                    QStringLiteral("--client-key=k.pem")}) &&
                        kubectl(f, {QStringLiteral("set"), QStringLiteral("users.file-user.tokenFile"),
                                    QStringLiteral("token")}) &&
                        kubectl(f, {QStringLiteral("set-context"), QStringLiteral("cert"),
                                    QStringLiteral("--cluster=c"), QStringLiteral("--user=cert-user")}) &&
                        kubectl(f, {QStringLiteral("set-context"), QStringLiteral("file"),
                                    QStringLiteral("--cluster=c"), QStringLiteral("--user=file-user")});
        QDir::setCurrent(cwd);
        QVERIFY(ok);
        QVERIFY(gq::test::readFile(f).contains("client-key: k.pem"));

        // Load from elsewhere: resolution must not depend on the working directory.
        auto cfg = KubeConfig::load(f);
        QVERIFY2(cfg, qPrintable(cfg ? QString() : cfg.error().toString()));
        auto conn = cfg->connection(QStringLiteral("cert"));
        QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
        QCOMPARE(conn->caPem, m_caPem);
        QCOMPARE(conn->clientCertPem, m_certPem);
        QCOMPARE(conn->clientKeyPem, m_keyPem);
        QCOMPARE(conn->namespaceName, QStringLiteral("default"));

        auto fileConn = cfg->connection(QStringLiteral("file"));
        QVERIFY2(fileConn, qPrintable(fileConn ? QString() : fileConn.error().toString()));
        KubeCredentials creds(*fileConn);
        QCOMPARE(creds.current()->bearerToken, QStringLiteral("file-token"));
        // Projected tokens rotate: the file is re-read on every use.
        gq::test::writeFile(path(QStringLiteral("nested/token")), "rotated\n");
        QCOMPARE(creds.current()->bearerToken, QStringLiteral("rotated"));
    }

    void clusterTlsOptions() {
        const QString f = path(QStringLiteral("tls.yaml"));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("sni"),
                            QStringLiteral("--server=https://10.1.1.1"),
                            QStringLiteral("--certificate-authority=") + path(QStringLiteral("certs/ca.crt")),
                            QStringLiteral("--embed-certs=true"),
                            QStringLiteral("--tls-server-name=api.internal"),
                            QStringLiteral("--proxy-url=http://proxy.local:3128")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("lab"),
                            QStringLiteral("--server=https://lab"),
                            QStringLiteral("--insecure-skip-tls-verify=true")}));
        QVERIFY(kubectl(
            f, {QStringLiteral("set-credentials"), QStringLiteral("u"), QStringLiteral("--token=t")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("sni"),
                            QStringLiteral("--cluster=sni"), QStringLiteral("--user=u")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("lab"),
                            QStringLiteral("--cluster=lab"), QStringLiteral("--user=u")}));
        auto cfg = KubeConfig::load(f);
        QVERIFY(cfg);
        QVERIFY(cfg->currentContext().isEmpty());
        auto sni = cfg->connection(QStringLiteral("sni"));
        QVERIFY(sni);
        QCOMPARE(sni->tlsServerName, QStringLiteral("api.internal"));
        QCOMPARE(sni->proxyUrl, QStringLiteral("http://proxy.local:3128"));
        auto lab = cfg->connection(QStringLiteral("lab"));
        QVERIFY(lab);
        QVERIFY(lab->insecureSkipTlsVerify);
        QVERIFY(lab->caPem.isEmpty());

        // No current-context and none asked for: say so, and list the choices.
        auto none = cfg->connection();
        QVERIFY(!none);
        QCOMPARE(none.error().kind, Error::Kind::Config);
        QVERIFY(none.error().message.contains(QLatin1String("sni")));
        QVERIFY(none.error().message.contains(QLatin1String("lab")));
    }

    void embeddedClientCertificate() {
        const QString f = path(QStringLiteral("embedded.yaml"));
        QVERIFY(kubectl(
            f, {QStringLiteral("set-cluster"), QStringLiteral("c"), QStringLiteral("--server=https://c")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("alice"),
                            QStringLiteral("--client-certificate=") + path(QStringLiteral("client.crt")),
                            QStringLiteral("--client-key=") + path(QStringLiteral("client.key")),
                            QStringLiteral("--embed-certs=true")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("a"), QStringLiteral("--cluster=c"),
                            QStringLiteral("--user=alice")}));
        QVERIFY(kubectl(f, {QStringLiteral("use-context"), QStringLiteral("a")}));
        QVERIFY(gq::test::readFile(f).contains("client-key-data:"));
        auto conn = KubeConfig::load(f)->connection();
        QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
        QCOMPARE(conn->clientCertPem, m_certPem);
        QCOMPARE(conn->clientKeyPem, m_keyPem);
    }

    void mergesKubeconfigListLikeKubectl() {
        const QString a = path(QStringLiteral("merge-a.yaml"));
        const QString b = path(QStringLiteral("merge-b.yaml"));
        // a: defines cluster "shared" and context "x" but no current-context.
        QVERIFY(kubectl(a, {QStringLiteral("set-cluster"), QStringLiteral("shared"),
                            QStringLiteral("--server=https://from-a")}));
        QVERIFY(kubectl(
            a, {QStringLiteral("set-credentials"), QStringLiteral("ua"), QStringLiteral("--token=ta")}));
        QVERIFY(kubectl(a, {QStringLiteral("set-context"), QStringLiteral("x"),
                            QStringLiteral("--cluster=shared"), QStringLiteral("--user=ua")}));
        // b: redefines "shared" (loses), adds "only-b", and sets current-context.
        QVERIFY(kubectl(b, {QStringLiteral("set-cluster"), QStringLiteral("shared"),
                            QStringLiteral("--server=https://from-b")}));
        QVERIFY(kubectl(b, {QStringLiteral("set-cluster"), QStringLiteral("only-b"),
                            QStringLiteral("--server=https://b-only")}));
        QVERIFY(kubectl(
            b, {QStringLiteral("set-credentials"), QStringLiteral("ua"), QStringLiteral("--token=tb")}));
        QVERIFY(kubectl(b, {QStringLiteral("set-context"), QStringLiteral("y"),
                            QStringLiteral("--cluster=only-b"), QStringLiteral("--user=ua")}));
        QVERIFY(kubectl(b, {QStringLiteral("use-context"), QStringLiteral("y")}));

        qputenv("KUBECONFIG",
                QString(a + QLatin1Char(':') + path(QStringLiteral("missing.yaml")) + QLatin1Char(':') + b)
                    .toUtf8());
        auto cfg = KubeConfig::load();
        qunsetenv("KUBECONFIG");
        QVERIFY2(cfg, qPrintable(cfg ? QString() : cfg.error().toString()));
        QCOMPARE(cfg->files(), (QStringList{a, b})); // missing files are skipped, as kubectl does
        QCOMPARE(cfg->currentContext(), QStringLiteral("y"));
        QCOMPARE(cfg->cluster(QStringLiteral("shared"))->server, QStringLiteral("https://from-a"));
        QCOMPARE(cfg->contextNames(), (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
        auto y = cfg->connection();
        QVERIFY(y);
        QCOMPARE(y->server, QStringLiteral("https://b-only"));
        QCOMPARE(y->token, QStringLiteral("ta")); // user "ua" from the first file wins

        // Same files, other order: the other definitions win.
        auto reversed = KubeConfig::loadFiles({b, a});
        QVERIFY(reversed);
        QCOMPARE(reversed->cluster(QStringLiteral("shared"))->server, QStringLiteral("https://from-b"));
        QCOMPARE(reversed->connection(QStringLiteral("x"))->token, QStringLiteral("tb"));
    }

    void defaultsToHomeKubeConfig() {
        QTemporaryDir home;
        const QString f = home.filePath(QStringLiteral(".kube/config"));
        QDir().mkpath(home.filePath(QStringLiteral(".kube")));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("h"),
                            QStringLiteral("--server=https://home")}));
        QVERIFY(
            kubectl(f, {QStringLiteral("set-context"), QStringLiteral("h"), QStringLiteral("--cluster=h")}));
        QVERIFY(kubectl(f, {QStringLiteral("use-context"), QStringLiteral("h")}));
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        qunsetenv("KUBECONFIG");
        auto cfg = KubeConfig::load();
        qputenv("HOME", QTemporaryDir().path().toUtf8() + "/nowhere");
        auto missing = KubeConfig::load();
        qputenv("HOME", oldHome);
        QVERIFY2(cfg, qPrintable(cfg ? QString() : cfg.error().toString()));
        QCOMPARE(cfg->connection()->server, QStringLiteral("https://home"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().kind, Error::Kind::Io);
        QVERIFY(missing.error().message.contains(QLatin1String(".kube/config does not exist")));
    }

    void missingFilesAreClearErrors() {
        auto r = KubeConfig::load(path(QStringLiteral("nope.yaml")));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY(r.error().message.contains(QLatin1String("nope.yaml does not exist")));

        qputenv("KUBECONFIG",
                path(QStringLiteral("nope1")).toUtf8() + ':' + path(QStringLiteral("nope2")).toUtf8());
        auto all = KubeConfig::load();
        qunsetenv("KUBECONFIG");
        QVERIFY(!all);
        QVERIFY(all.error().message.contains(QLatin1String("none of the KUBECONFIG files exists")));
        QVERIFY(all.error().message.contains(QLatin1String("nope2")));
    }

    void unknownContextNamesTheChoices() {
        const QString f = path(QStringLiteral("token.yaml"));
        auto cfg = KubeConfig::load(f);
        QVERIFY(cfg);
        auto conn = cfg->connection(QStringLiteral("staging"));
        QVERIFY(!conn);
        QCOMPARE(conn.error().kind, Error::Kind::Config);
        QVERIFY2(conn.error().message.contains(QLatin1String("context \"staging\" not found")),
                 qPrintable(conn.error().message));
        QVERIFY(conn.error().message.contains(QLatin1String("prod-alice")));
    }

    // The legacy auth-provider (oidc) was silently ignored and requests went out
    // anonymous: a context that uses such a user now says it is unsupported, naming the
    // field; another context of the same file is not affected.
    void legacyAuthProviderIsRefusedClearly() {
        const QString f = gq::test::writeFile(
            path(QStringLiteral("authprovider.yaml")),
            "apiVersion: v1\nkind: Config\ncurrent-context: sso\n"
            "clusters:\n- name: c\n  cluster: {server: https://k.example}\n"
            "users:\n- name: oidc-user\n  user:\n    auth-provider:\n      name: oidc\n      config:\n"
            "        idp-issuer-url: https://issuer.example\n        client-id: k\n"
            "- name: token-user\n  user: {token: abc}\n"
            "contexts:\n- name: sso\n  context: {cluster: c, user: oidc-user}\n"
            "- name: plain\n  context: {cluster: c, user: token-user}\n");
        auto cfg = KubeConfig::load(f);
        QVERIFY(cfg);
        auto sso = cfg->connection(QStringLiteral("sso"));
        QVERIFY(!sso);
        QCOMPARE(sso.error().kind, Error::Kind::Config);
        QCOMPARE(sso.error().field, QStringLiteral("users[oidc-user].user.auth-provider"));
        QVERIFY2(
            sso.error().message.contains(QLatin1String("auth-provider \"oidc\", which is not supported")),
            qPrintable(sso.error().message));
        auto plain = cfg->connection(QStringLiteral("plain"));
        QVERIFY(plain);
        QCOMPARE(plain->token, QStringLiteral("abc"));
    }

    // A plugin that may open a browser gets minutes, a non-interactive one 30 s.
    void interactiveExecPluginsMayTakeLonger() {
        KubeExecConfig exec;
        exec.interactiveMode = QStringLiteral("Never");
        QCOMPARE(execPluginTimeoutMs(exec), 30000);
        for (const char *mode : {"IfAvailable", "Always", ""}) {
            exec.interactiveMode = QLatin1String(mode);
            QCOMPARE(execPluginTimeoutMs(exec), 300000);
        }
    }

    void badBase64NamesTheField() {
        const QString f = path(QStringLiteral("bad64.yaml"));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("c"),
                            QStringLiteral("--server=https://c"),
                            QStringLiteral("--certificate-authority=") + path(QStringLiteral("certs/ca.crt")),
                            QStringLiteral("--embed-certs=true")}));
        QByteArray text = gq::test::readFile(f);
        const qsizetype at =
            text.indexOf("certificate-authority-data: ") + qsizetype(strlen("certificate-authority-data: "));
        text.insert(at + 10, "!!not*base64");
        gq::test::writeFile(f, text);
        auto cfg = KubeConfig::load(f);
        QVERIFY(!cfg);
        QCOMPARE(cfg.error().kind, Error::Kind::Config);
        QCOMPARE(cfg.error().field, QStringLiteral("clusters[c].cluster.certificate-authority-data"));
        QVERIFY(cfg.error().message.contains(QLatin1String("invalid base64")));
        QCOMPARE(cfg.error().line, 4); // apiVersion, clusters:, - cluster:, the field
    }

    void unreadableKeyNamesTheField() {
        const QString f = path(QStringLiteral("badkey.yaml"));
        gq::test::writeFile(path(QStringLiteral("garbage.key")),
                            "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
        QVERIFY(kubectl(
            f, {QStringLiteral("set-cluster"), QStringLiteral("c"), QStringLiteral("--server=https://c")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("garbled"),
                            QStringLiteral("--client-certificate=") + path(QStringLiteral("client.crt")),
                            QStringLiteral("--client-key=") + path(QStringLiteral("garbage.key"))}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("missing"),
                            QStringLiteral("--client-certificate=") + path(QStringLiteral("client.crt")),
                            QStringLiteral("--client-key=") + path(QStringLiteral("gone.key"))}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("garbled"),
                            QStringLiteral("--cluster=c"), QStringLiteral("--user=garbled")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("missing"),
                            QStringLiteral("--cluster=c"), QStringLiteral("--user=missing")}));
        auto cfg = KubeConfig::load(f);
        QVERIFY(cfg);
        auto garbled = cfg->connection(QStringLiteral("garbled"));
        QVERIFY(!garbled);
        QCOMPARE(garbled.error().field, QStringLiteral("users[garbled].user.client-key"));
        QVERIFY2(garbled.error().message.contains(QLatin1String("unreadable private key")),
                 qPrintable(garbled.error().message));
        auto missing = cfg->connection(QStringLiteral("missing"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().kind, Error::Kind::Io);
        QCOMPARE(missing.error().field, QStringLiteral("users[missing].user.client-key"));
        QVERIFY(missing.error().message.contains(QLatin1String("gone.key")));
    }

    void execPluginTokenIsCachedUntilExpiry_data() {
        QTest::addColumn<QString>("apiVersion");
        QTest::newRow("v1") << QStringLiteral("client.authentication.k8s.io/v1");
        QTest::newRow("v1beta1") << QStringLiteral("client.authentication.k8s.io/v1beta1");
    }

    void execPluginTokenIsCachedUntilExpiry() {
        QFETCH(QString, apiVersion);
        const QString expiry = QDateTime::currentDateTimeUtc().addSecs(3600).toString(Qt::ISODate);
        const QString counter = path(QStringLiteral("runs-") + QString(QTest::currentDataTag()));
        // The plugin proves it got its args, env and KUBERNETES_EXEC_INFO (non-interactive).
        const QString plugin = writePlugin(
            QStringLiteral("plugin-") + QString(QTest::currentDataTag()) + QStringLiteral(".sh"),
            QStringLiteral("echo run >> '%1'\n"
                           "case \"$KUBERNETES_EXEC_INFO\" in *'\"interactive\":false'*) ;; *) echo 'no exec "
                           "info' >&2; exit 3;; esac\n"
                           "printf "
                           "'{\"apiVersion\":\"%2\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"tok-%"
                           "s-%s-%s\",\"expirationTimestamp\":\"%3\"}}' \"$1\" \"$2\" \"$TEAM\"\n")
                .arg(counter, apiVersion, expiry)
                .toUtf8());
        const QString f =
            path(QStringLiteral("exec-") + QString(QTest::currentDataTag()) + QStringLiteral(".yaml"));
        QVERIFY(kubectl(
            f, {QStringLiteral("set-cluster"), QStringLiteral("c"), QStringLiteral("--server=https://c")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("sso"),
                            QStringLiteral("--exec-command=") + plugin,
                            QStringLiteral("--exec-api-version=") + apiVersion,
                            QStringLiteral("--exec-arg=get-token"), QStringLiteral("--exec-arg=--fast"),
                            QStringLiteral("--exec-env=TEAM=ml"),
                            QStringLiteral("--exec-interactive-mode=Never")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-context"), QStringLiteral("sso"),
                            QStringLiteral("--cluster=c"), QStringLiteral("--user=sso")}));
        QVERIFY(kubectl(f, {QStringLiteral("use-context"), QStringLiteral("sso")}));
        auto conn = KubeConfig::load(f)->connection();
        QVERIFY2(conn, qPrintable(conn ? QString() : conn.error().toString()));
        QVERIFY(conn->exec);
        QCOMPARE(conn->exec->args, (QStringList{QStringLiteral("get-token"), QStringLiteral("--fast")}));
        // (kubectl 1.32 itself runs the plugin once during `config use-context`.)
        const qsizetype runsBefore = gq::test::readFile(counter).count("run");

        KubeCredentials creds(*conn);
        auto first = creds.current();
        QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
        QCOMPARE(first->bearerToken, QStringLiteral("tok-get-token---fast-ml"));
        auto second = creds.current();
        QVERIFY(second);
        QCOMPARE(second->bearerToken, first->bearerToken);
        QCOMPARE(creds.execRuns(), 1);
        QCOMPARE(gq::test::readFile(counter).count("run"), runsBefore + 1);
        creds.invalidate(); // e.g. after a 401
        QVERIFY(creds.current());
        QCOMPARE(creds.execRuns(), 2);
    }

    void execPluginExpiredTokenIsRefetched() {
        const QString past = QDateTime::currentDateTimeUtc().addSecs(-5).toString(Qt::ISODate);
        const QString plugin = writePlugin(
            QStringLiteral("expired.sh"),
            QStringLiteral(
                "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                "\"status\":{\"token\":\"short\",\"expirationTimestamp\":\"%1\"}}'\n")
                .arg(past)
                .toUtf8());
        KubeConnection conn;
        conn.server = QStringLiteral("https://c");
        conn.userName = QStringLiteral("u");
        conn.exec = KubeExecConfig{QStringLiteral("client.authentication.k8s.io/v1"),
                                   plugin,
                                   {},
                                   {},
                                   QStringLiteral("Never"),
                                   false,
                                   {},
                                   m_dir.path()};
        KubeCredentials creds(conn);
        QVERIFY(creds.current());
        QVERIFY(creds.current());
        QCOMPARE(creds.execRuns(), 2);
    }

    void execPluginFailureShowsItsStderr() {
        const QString plugin = writePlugin(
            QStringLiteral("failing.sh"), "echo 'error: you must log in with sso-login first' >&2\nexit 4\n");
        const QString f = path(QStringLiteral("exec-fail.yaml"));
        QVERIFY(kubectl(
            f, {QStringLiteral("set-cluster"), QStringLiteral("c"), QStringLiteral("--server=https://c")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("sso"),
                            QStringLiteral("--exec-command=") + plugin,
                            QStringLiteral("--exec-api-version=client.authentication.k8s.io/v1"),
                            QStringLiteral("--exec-interactive-mode=IfAvailable")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("absent"),
                            QStringLiteral("--exec-command=gq-no-such-plugin"),
                            QStringLiteral("--exec-api-version=client.authentication.k8s.io/v1beta1")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("tty"),
                            QStringLiteral("--exec-command=") + plugin,
                            QStringLiteral("--exec-api-version=client.authentication.k8s.io/v1"),
                            QStringLiteral("--exec-interactive-mode=Always")}));
        for (const char *ctx : {"sso", "absent", "tty"})
            QVERIFY(kubectl(f, {QStringLiteral("set-context"), QString::fromLatin1(ctx),
                                QStringLiteral("--cluster=c"),
                                QStringLiteral("--user=") + QString::fromLatin1(ctx)}));
        // `kubectl config` cannot set installHint; add it the way a vendor's generator would.
        QByteArray text = gq::test::readFile(f);
        text.replace("      command: gq-no-such-plugin\n",
                     "      command: gq-no-such-plugin\n      installHint: 'install it with: apt install "
                     "gq-plugin'\n");
        gq::test::writeFile(f, text);
        auto cfg = KubeConfig::load(f);
        QVERIFY(cfg);

        auto failing = KubeCredentials(*cfg->connection(QStringLiteral("sso"))).current();
        QVERIFY(!failing);
        QVERIFY2(failing.error().message.contains(QLatin1String("you must log in with sso-login first")),
                 qPrintable(failing.error().message));
        QVERIFY(failing.error().message.contains(QLatin1String("exit code 4")));

        auto absent = KubeCredentials(*cfg->connection(QStringLiteral("absent"))).current();
        QVERIFY(!absent);
        QCOMPARE(absent.error().kind, Error::Kind::Config);
        QVERIFY2(absent.error().message.contains(QLatin1String("\"gq-no-such-plugin\" not found")),
                 qPrintable(absent.error().message));
        QVERIFY(absent.error().message.contains(QLatin1String("apt install gq-plugin")));
        QCOMPARE(absent.error().field, QStringLiteral("users[absent].user.exec.command"));

        auto tty = KubeCredentials(*cfg->connection(QStringLiteral("tty"))).current();
        QVERIFY(!tty);
        QVERIFY(tty.error().message.contains(QLatin1String("interactive")));
    }

    void execPluginGarbageOutput() {
        const QString plugin = writePlugin(QStringLiteral("garbage.sh"), "echo 'hello'\n");
        KubeExecConfig exec{QStringLiteral("client.authentication.k8s.io/v1"),
                            plugin,
                            {},
                            {},
                            QStringLiteral("Never"),
                            false,
                            {},
                            m_dir.path()};
        auto r = runExecPlugin(exec, QStringLiteral("https://c"));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Parse);
        QVERIFY(r.error().message.contains(QLatin1String("no ExecCredential")));
    }

    // A token pasted into the wrong field must not come back in the error, which is
    // printed, logged and shown in dialogs: the field is named, the value is not.
    void misplacedTokenIsNeverEchoed_data() {
        QTest::addColumn<QByteArray>("written");
        QTest::addColumn<QString>("field");
        QTest::newRow("insecure-skip-tls-verify")
            << QByteArray("insecure-skip-tls-verify: true")
            << QStringLiteral("clusters[c].cluster.insecure-skip-tls-verify");
        QTest::newRow("exec apiVersion") << QByteArray("apiVersion: client.authentication.k8s.io/v1\n")
                                         << QStringLiteral("users[u].user.exec.apiVersion");
        QTest::newRow("exec interactiveMode")
            << QByteArray("interactiveMode: Never") << QStringLiteral("users[u].user.exec.interactiveMode");
        QTest::newRow("exec provideClusterInfo") << QByteArray("provideClusterInfo: true")
                                                 << QStringLiteral("users[u].user.exec.provideClusterInfo");
    }

    void misplacedTokenIsNeverEchoed() {
        QFETCH(QByteArray, written);
        QFETCH(QString, field);
        const QString f = path(QStringLiteral("pasted-%1.yaml")
                                   .arg(QString::fromLatin1(QTest::currentDataTag())
                                            .replace(QLatin1Char(' '), QLatin1Char('-'))));
        QVERIFY(kubectl(f, {QStringLiteral("set-cluster"), QStringLiteral("c"),
                            QStringLiteral("--server=https://c"),
                            QStringLiteral("--insecure-skip-tls-verify=true")}));
        QVERIFY(kubectl(f, {QStringLiteral("set-credentials"), QStringLiteral("u"),
                            QStringLiteral("--exec-command=/bin/true"),
                            QStringLiteral("--exec-api-version=client.authentication.k8s.io/v1"),
                            QStringLiteral("--exec-interactive-mode=Never"),
                            QStringLiteral("--exec-provide-cluster-info=true")}));
        QByteArray text = gq::test::readFile(f);
        QVERIFY2(text.contains(written), text.constData());
        const QByteArray token = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu.sIgNaTuRePaRt";
        const QByteArray key = written.left(written.indexOf(':') + 2);
        const QByteArray pasted = key + token + (written.endsWith('\n') ? QByteArray("\n") : QByteArray());
        text.replace(written, pasted);
        gq::test::writeFile(f, text);

        auto cfg = KubeConfig::load(f);
        QVERIFY(!cfg);
        const Error &e = cfg.error();
        QCOMPARE(e.kind, Error::Kind::Config);
        QCOMPARE(e.field, field);
        QVERIFY(e.line > 0);
        QVERIFY2(e.toString().contains(field), qPrintable(e.toString()));
        for (const QString &shown : {e.toString(), e.message, e.field})
            QVERIFY2(!shown.contains(QString::fromLatin1(token.left(12))),
                     "the pasted value is in the error");
        for (const Error::Cause &c : e.causes)
            QVERIFY(!c.message.contains(QString::fromLatin1(token.left(12))));
    }

    void malformedYamlHasALine() {
        const QString f = gq::test::writeFile(path(QStringLiteral("broken.yaml")),
                                              "apiVersion: v1\nclusters:\n- name: a\n  cluster: [unclosed\n");
        auto cfg = KubeConfig::load(f);
        QVERIFY(!cfg);
        QCOMPARE(cfg.error().kind, Error::Kind::Parse);
        QVERIFY(cfg.error().line > 0);
        QVERIFY(cfg.error().message.contains(QLatin1String("broken.yaml")));
    }
};

QTEST_GUILESS_MAIN(TestKubeConfig)
#include "tst_kubeconfig.moc"
