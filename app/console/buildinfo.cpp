#include "app/console/buildinfo.h"

#include "gq_version.h"

#include <QtGlobal>

#include <curl/curl.h>
#include <openssl/crypto.h>
#include <sqlite3.h>

namespace gq {

QString BuildInfo::version() {
    return QStringLiteral(GQ_VERSION_STRING);
}

QList<QPair<QString, QString>> BuildInfo::libraryVersions() {
    const curl_version_info_data *curl = curl_version_info(CURLVERSION_NOW);
    return {
        {QStringLiteral("Qt"), QString::fromLatin1(qVersion())},
        // yaml-cpp reports no version at run time; this is the one we were built with.
        {QStringLiteral("yaml-cpp"), QStringLiteral(GQ_YAML_CPP_VERSION)},
        {QStringLiteral("libcurl"), QString::fromLatin1(curl->version)},
        {QStringLiteral("OpenSSL"), QString::fromLatin1(OpenSSL_version(OPENSSL_VERSION_STRING))},
        {QStringLiteral("SQLite"), QString::fromLatin1(sqlite3_libversion())},
    };
}

} // namespace gq
