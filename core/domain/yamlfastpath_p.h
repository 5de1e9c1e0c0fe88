#pragma once

// The plain block YAML reader beside yaml-cpp (see yamlfastpath.cpp). Not public API.

#include "core/domain/yamldoc.h"
#include "core/domain/yamlintern_p.h"

#include <QByteArray>

#include <optional>

namespace gq::detail {

// The one document text holds, when text is plain block YAML this reader is sure
// about; nullopt otherwise (then yaml-cpp reads it). Positions are those yaml-cpp's
// path gives.
std::optional<YamlNode> readPlainBlockYaml(const QByteArray &text, const YamlLoadLimits &limits,
                                           ScalarInterner &interner);

} // namespace gq::detail
