#include "testcluster/drademo.h"

#include "testcluster/apiserver.h"
#include "resources/demo/demoteams.h"

#include <QJsonArray>

#include <cstdio>

namespace gq::tc {

namespace {

void create(ApiServer &server, Resource r, const QString &ns, const QJsonObject &object) {
    const ApiServer::HookReply reply = server.createObject(r, ns, object);
    if (reply.status != 201)
        std::fprintf(stderr, "gpuquota-testcluster: DRA demo object rejected (%d): %s\n", reply.status,
                     reply.body.constData());
}

QJsonObject stringAttr(const QString &value) {
    return QJsonObject{{QStringLiteral("string"), value}};
}

} // namespace

void draDemoDevices(ApiServer &server) {
    const QString driver = QLatin1String(demo::kDraDriver);
    const QString expression =
        QStringLiteral("device.driver == '%1' && device.attributes['%1'].type == 'gpu'").arg(driver);
    create(server, Resource::DeviceClass, {},
           QJsonObject{{QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("name"), QLatin1String(demo::kDraClass)}}},
                       {QStringLiteral("spec"),
                        QJsonObject{{QStringLiteral("selectors"),
                                     QJsonArray{QJsonObject{
                                         {QStringLiteral("cel"),
                                          QJsonObject{{QStringLiteral("expression"), expression}}}}}}}}});
    QJsonArray devices;
    for (int g = 0; g < 8; ++g)
        devices.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("gpu-%1").arg(g)},
            {QStringLiteral("attributes"),
             QJsonObject{{QStringLiteral("type"), stringAttr(QStringLiteral("gpu"))},
                         {QStringLiteral("productName"), stringAttr(QStringLiteral("NVIDIA H100 80GB HBM3"))},
                         {QStringLiteral("index"), QJsonObject{{QStringLiteral("int"), g}}}}}});
    const QString node = QLatin1String(demo::kDraNode);
    create(server, Resource::ResourceSlice, {},
           QJsonObject{
               {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), QString(node + QStringLiteral("-gpu.nvidia.com"))}}},
               {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("driver"), driver},
                            {QStringLiteral("nodeName"), node},
                            {QStringLiteral("pool"), QJsonObject{{QStringLiteral("name"), node},
                                                                 {QStringLiteral("generation"), 1},
                                                                 {QStringLiteral("resourceSliceCount"), 1}}},
                            {QStringLiteral("devices"), devices}}}});
}

QJsonObject draDemoPod(ApiServer &server, const QString &ns, QJsonObject pod, int firstDevice, int gpus) {
    const QString podName =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QString claimName = podName + QStringLiteral("-gpus");
    const QString node = QLatin1String(demo::kDraNode);
    QJsonArray results;
    for (int k = 0; k < gpus; ++k)
        results.append(
            QJsonObject{{QStringLiteral("request"), QStringLiteral("gpus")},
                        {QStringLiteral("driver"), QLatin1String(demo::kDraDriver)},
                        {QStringLiteral("pool"), node},
                        {QStringLiteral("device"), QStringLiteral("gpu-%1").arg(firstDevice + k)}});
    const QJsonObject request{
        {QStringLiteral("name"), QStringLiteral("gpus")},
        {QStringLiteral("exactly"),
         QJsonObject{{QStringLiteral("deviceClassName"), QLatin1String(demo::kDraClass)},
                     {QStringLiteral("allocationMode"), QStringLiteral("ExactCount")},
                     {QStringLiteral("count"), gpus}}}};
    const QJsonObject allocation{
        {QStringLiteral("devices"), QJsonObject{{QStringLiteral("results"), results}}},
        {QStringLiteral("nodeSelector"),
         QJsonObject{{QStringLiteral("nodeSelectorTerms"),
                      QJsonArray{QJsonObject{
                          {QStringLiteral("matchFields"),
                           QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("metadata.name")},
                                                  {QStringLiteral("operator"), QStringLiteral("In")},
                                                  {QStringLiteral("values"), QJsonArray{node}}}}}}}}}}};
    const QJsonObject reserved{{QStringLiteral("resource"), QStringLiteral("pods")},
                               {QStringLiteral("name"), podName},
                               {QStringLiteral("uid"), QString()}};
    create(server, Resource::ResourceClaim, ns,
           QJsonObject{{QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("name"), claimName}, {QStringLiteral("namespace"), ns}}},
                       {QStringLiteral("spec"),
                        QJsonObject{{QStringLiteral("devices"),
                                     QJsonObject{{QStringLiteral("requests"), QJsonArray{request}}}}}},
                       {QStringLiteral("status"),
                        QJsonObject{{QStringLiteral("allocation"), allocation},
                                    {QStringLiteral("reservedFor"), QJsonArray{reserved}}}}});
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    spec.insert(QLatin1String("nodeName"), node);
    spec.insert(QLatin1String("resourceClaims"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("gpus")},
                                       {QStringLiteral("resourceClaimName"), claimName}}});
    QJsonArray containers = spec.value(QLatin1String("containers")).toArray();
    QJsonObject main = containers.first().toObject();
    QJsonObject resources = main.value(QLatin1String("resources")).toObject();
    resources.insert(QLatin1String("claims"),
                     QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("gpus")}}});
    main.insert(QLatin1String("resources"), resources);
    containers.replace(0, main);
    spec.insert(QLatin1String("containers"), containers);
    pod.insert(QLatin1String("spec"), spec);
    return pod;
}

} // namespace gq::tc
