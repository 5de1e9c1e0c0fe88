#pragma once

#include "core/alerts/alertconfig.h"
#include "core/alerts/alertrecipients.h"
#include "services/controller/controllerconfig.h"
#include "core/domain/error.h"
#include "services/controller/idlerecorder.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

class YamlNode;

// Everything gpuquota-controller reads and checks before it starts anything: the
// file's own keys (ControllerConfig), the `alerts:` section with its recipients file
// and secrets, the `selfService:` section, the listen addresses, the webhook's TLS
// material and the cluster connection (kubeconfig and context, or the service
// account). `--check-config` and the real start run this one function, so a file
// that --check-config accepts never stops the start with a configuration error, and
// both report every problem at once.
struct ControllerSetup {
    ControllerConfig config;
    AlertConfig alerts;
    AlertRecipients recipients;             // alerts.recipientsFile, when given
    bool perUserMetrics = false;            // selfService.perUserMetrics
    QStringList boostRequestGroups;         // selfService.boostRequestGroups
    std::optional<IdleRecorderConfig> idle; // metrics: + idle:; nullopt: no idle recorder
};

struct ControllerCheckResult {
    std::optional<ControllerSetup> setup; // set only when errors is empty
    // Each of kind Config with its key (field) and, where the file says it, line and
    // column; in file order. Print with formatConfigError().
    QList<Error> errors;
};

[[nodiscard]] ControllerCheckResult checkControllerConfig(const QString &path);

// selfService: {perUserMetrics: bool, boostRequestGroups: [group, ...]}; null gives
// false and none. Problems name key and line.
[[nodiscard]] QList<Error> readSelfService(const YamlNode &node, bool *perUserMetrics,
                                           QStringList *boostRequestGroups = nullptr);

} // namespace gq
