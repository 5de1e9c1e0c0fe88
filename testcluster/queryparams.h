#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace gq::tc {

// How the API server reads a boolean query parameter (`watch`, `allowWatchBookmarks`,
// `sendInitialEvents`, ...): apimachinery's Convert_Slice_string_To_bool. Only "0"
// and "false" in any letter case are false; every other value, the empty string
// included, is true, and nothing is rejected. Clients spell it variously: client-go
// sends "true", the Python client "True", curl users "1".
[[nodiscard]] bool parseQueryBool(const QString &value);

// The `continue` token of a paged list: the snapshot's resourceVersion and the key
// to resume after, in the API server's own encoding (base64url JSON).
struct ContinueToken {
    quint64 resourceVersion = 0;
    QString startKey;
};
[[nodiscard]] QByteArray encodeContinueToken(const ContinueToken &token);
[[nodiscard]] std::optional<ContinueToken> decodeContinueToken(const QString &text);

} // namespace gq::tc
