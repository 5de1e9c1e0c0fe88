#pragma once

#include "testcluster/apierror.h"
#include "core/domain/quantity.h"
#include "testcluster/store.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>

// Resource-list arithmetic and field-error shorthands shared by defaulting,
// validation, admission and the quota controller. Internal to gqtestcluster.

namespace gq::tc {

using ResourceList = std::map<QString, Quantity>;

// A quantity from JSON: a string, or a number (accepted as the API server does).
std::optional<Quantity> parseQuantity(const QJsonValue &v);
// The parsable entries of a resource list object.
ResourceList parseList(const QJsonValue &v);
QJsonObject toJson(const ResourceList &list);
void addTo(ResourceList &sum, const QString &key, const Quantity &q);
void addTo(Usage &sum, const QString &key, const Quantity &q);
// "a=1,b=2" with keys sorted, as the quota plugin's prettyPrint does.
QString prettyPrint(const ResourceList &list);
// One message, or "[a, b]" for several, as utilerrors.NewAggregate prints them.
QString aggregate(const QStringList &errors);
bool isNativeName(const QString &name);
// GPUs and other extended resources (and hugepages) cannot be overcommitted.
bool overcommitAllowed(const QString &name);
QJsonArray containersOf(const QJsonObject &spec, bool init);
ResourceList containerList(const QJsonObject &c, QLatin1String which);
// Effective pod requests or limits: max(sum over app containers, largest init
// container), per resource, over the resources any container names.
ResourceList podEffective(const QJsonObject &pod, QLatin1String which);
// The list with every quantity in canonical form; unparsable entries kept as they are.
QJsonObject canonicalList(const QJsonObject &list);
// "path[key]" of the first unparsable quantity, empty if all parse.
QString badQuantityPath(const QJsonObject &list, const QString &path);

FieldError invalid(const QString &field, const QString &value, const QString &detail);
FieldError required(const QString &field, const QString &detail = {});

} // namespace gq::tc
