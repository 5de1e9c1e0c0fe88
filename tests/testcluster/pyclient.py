#!/usr/bin/python3
"""The official Kubernetes Python client (Debian's python3-kubernetes) against the test
cluster, driven by tst_testcluster_pyclient. Each step prints one JSON line
{"step": NAME, ...facts} on stdout; the Qt test asserts on them. A step that raises
prints {"step": NAME, "error": TEXT} and the script goes on, so one failure does not
hide the others.

    pyclient.py KUBECONFIG NAMESPACE
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def emit(step, **facts):
    print(json.dumps(dict(step=step, **facts)), flush=True)


def run(step, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - report every failure as a fact for the test
        emit(step, error="%s: %s" % (type(e).__name__, e))


def create_pod(v1, ns, pod):
    """Creates a pod. A real API server refuses pods in a namespace whose `default`
    ServiceAccount the controller-manager has not created yet; that is retried."""
    deadline = time.time() + 30
    while True:
        try:
            return v1.create_namespaced_pod(ns, pod)
        except ApiException as e:
            if e.status != 403 or "serviceaccount" not in (e.body or "") or time.time() > deadline:
                raise
            time.sleep(0.5)


def wait_quota_synced(v1, ns, name):
    """Waits until the quota's status.hard is its spec.hard: quota admission checks
    status.hard, which a real cluster's controller-manager copies asynchronously."""
    deadline = time.time() + 60
    while time.time() < deadline:
        q = v1.read_namespaced_resource_quota(name, ns)
        if q.status and q.status.hard == q.spec.hard:
            return
        time.sleep(0.5)
    raise TimeoutError("status.hard of %s/%s never matched spec.hard" % (ns, name))


def main():
    kubeconfig, ns = sys.argv[1], sys.argv[2]
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()

    def namespaces():
        names = [n.metadata.name for n in v1.list_namespace().items]
        emit("list_namespaces", names=names)

    def create_namespace():
        v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
        emit("create_namespace", name=v1.read_namespace(ns).metadata.name)

    def quota_round_trip():
        q = client.V1ResourceQuota(
            metadata=client.V1ObjectMeta(name="gpu-quota"),
            spec=client.V1ResourceQuotaSpec(hard={"requests.nvidia.com/gpu": "4", "pods": "10"}))
        created = v1.create_namespaced_resource_quota(ns, q)
        patched = v1.patch_namespaced_resource_quota(
            "gpu-quota", ns, {"spec": {"hard": {"requests.nvidia.com/gpu": "6"}}})
        read = v1.read_namespaced_resource_quota("gpu-quota", ns)
        emit("quota_round_trip", created_rv=created.metadata.resource_version,
             patched_gpu=patched.spec.hard["requests.nvidia.com/gpu"],
             read_gpu=read.spec.hard["requests.nvidia.com/gpu"],
             read_pods=read.spec.hard["pods"])

    def stale_replace_conflicts():
        stale = v1.read_namespaced_resource_quota("gpu-quota", ns)
        v1.patch_namespaced_resource_quota("gpu-quota", ns, {"spec": {"hard": {"pods": "11"}}})
        stale.spec.hard["requests.nvidia.com/gpu"] = "99"
        try:
            v1.replace_namespaced_resource_quota("gpu-quota", ns, stale)
            emit("stale_replace", status=200)
        except ApiException as e:
            emit("stale_replace", status=e.status, reason=json.loads(e.body).get("reason"))

    def watch_pods():
        # The client's Watch sends watch=True (a capital T); the stream must be a
        # watch stream, not a plain list.
        seen = []
        w = watch.Watch()

        def create_pod_later():
            time.sleep(1.0)
            pod = client.V1Pod(
                metadata=client.V1ObjectMeta(name="py-pod"),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")]))
            create_pod(v1, ns, pod)

        threading.Thread(target=create_pod_later, daemon=True).start()
        for event in w.stream(v1.list_namespaced_pod, namespace=ns, timeout_seconds=10):
            seen.append([event["type"], event["object"].metadata.name])
            if event["object"].metadata.name == "py-pod":
                w.stop()
        emit("watch_pods", events=seen)

    def watch_with_bookmarks():
        w = watch.Watch()
        rv = v1.list_namespace().metadata.resource_version
        events = []

        # A real API server sends a bookmark 2 s before the watch's deadline, and only
        # once its watch cache has moved past the watch's resourceVersion: so something
        # changes during the watch, and the watch lasts 5 s.
        def change_later():
            time.sleep(1.0)
            v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns + "-bm")))

        threading.Thread(target=change_later, daemon=True).start()
        for event in w.stream(v1.list_namespace, resource_version=rv, allow_watch_bookmarks=True,
                              timeout_seconds=5):
            events.append(event["type"])
        emit("watch_bookmarks", events=events)

    def quota_admission():
        pod = client.V1Pod(
            metadata=client.V1ObjectMeta(name="too-many-gpus"),
            spec=client.V1PodSpec(containers=[client.V1Container(
                name="c", image="busybox",
                resources=client.V1ResourceRequirements(
                    requests={"nvidia.com/gpu": "8"}, limits={"nvidia.com/gpu": "8"}))]))
        wait_quota_synced(v1, ns, "gpu-quota")
        try:
            create_pod(v1, ns, pod)
            emit("quota_admission", status=201)
        except ApiException as e:
            body = json.loads(e.body)
            emit("quota_admission", status=e.status, reason=body.get("reason"),
                 message=body.get("message"))

    def server_side_dry_run():
        created = v1.create_namespaced_config_map(
            ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="dry"), data={"a": "1"}),
            dry_run="All")
        try:
            v1.read_namespaced_config_map("dry", ns)
            stored = True
        except ApiException as e:
            stored = e.status != 404
        emit("dry_run", name=created.metadata.name, stored=stored)

    for step, fn in [("list_namespaces", namespaces), ("create_namespace", create_namespace),
                     ("quota_round_trip", quota_round_trip), ("stale_replace", stale_replace_conflicts),
                     ("watch_pods", watch_pods), ("watch_bookmarks", watch_with_bookmarks),
                     ("quota_admission", quota_admission), ("dry_run", server_side_dry_run)]:
        run(step, fn)


if __name__ == "__main__":
    main()
