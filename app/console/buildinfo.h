#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace gq {

// The versions a bug report needs: ours, Qt's (the one running, which a bundle or a
// distribution may have swapped) and the libraries below us, each as the library
// reports itself at run time where it can.
struct BuildInfo {
    [[nodiscard]] static QString version();
    // ("Qt", "6.4.2"), ("yaml-cpp", "0.7.0"), ("libcurl", "7.88.1"), ...
    [[nodiscard]] static QList<QPair<QString, QString>> libraryVersions();
};

} // namespace gq
