#!/usr/bin/python3
"""One scripted scenario, run by tst_realcluster_fidelity against gpuquota-testcluster and
against the real kube-apiserver: each step prints one JSON line {"step": NAME, ...facts}
with what the product reads (status codes, reasons, messages, the fields it uses), never
what differs by nature (resourceVersions, uids, timestamps). The test compares the two
runs step by step.

    fidelity.py KUBECONFIG NAMESPACE VALID_TOKEN VIEWER_USERNAME

Uses the official Python client's raw calls (Debian's python3-kubernetes) so that the
status codes and bodies are seen as the server sent them.
"""
import json
import sys
import threading
import time

from kubernetes import client, config


def emit(step, **facts):
    print(json.dumps(dict(step=step, **facts), sort_keys=True), flush=True)


class Api:
    def __init__(self, kubeconfig):
        config.load_kube_config(config_file=kubeconfig)
        self.c = client.ApiClient()

    def call(self, method, path, body=None, query=None, timeout=30, content_type=None):
        """(status, decoded body) of one request; errors are answers too. A PATCH is a
        JSON merge patch unless content_type says otherwise."""
        if content_type is None:
            content_type = "application/merge-patch+json" if method == "PATCH" else "application/json"
        try:
            data, status, _ = self.c.call_api(
                path, method, query_params=list((query or {}).items()), body=body,
                header_params={"Content-Type": content_type, "Accept": "application/json"},
                auth_settings=["BearerToken"], _preload_content=False, _request_timeout=timeout)
            raw = data.data
        except client.rest.ApiException as e:
            status, raw = e.status, e.body
        try:
            return status, json.loads(raw) if raw else {}
        except ValueError:
            return status, {"raw": raw.decode() if isinstance(raw, bytes) else str(raw)}

    def stream(self, path, query, seconds):
        """The event types (and for ERROR events their code and reason) of a watch."""
        events = []
        try:
            resp = self.c.call_api(path, "GET", query_params=list(query.items()),
                                   header_params={"Accept": "application/json"},
                                   auth_settings=["BearerToken"], _preload_content=False,
                                   _request_timeout=seconds + 10)[0]
            buffered = b""
            for chunk in resp.stream(amt=None, decode_content=True):
                buffered += chunk
                while b"\n" in buffered:
                    line, buffered = buffered.split(b"\n", 1)
                    if not line.strip():
                        continue
                    ev = json.loads(line)
                    if ev["type"] == "ERROR":
                        events.append([ev["type"], ev["object"].get("code"), ev["object"].get("reason")])
                    else:
                        events.append([ev["type"]])
        except client.rest.ApiException as e:
            events.append(["HTTP", e.status])
        return events


def status_facts(status, body):
    """What a client reads of an answer: the code, and for a Status its reason and message."""
    facts = {"code": status}
    if body.get("kind") == "Status":
        facts["reason"] = body.get("reason")
        facts["message"] = body.get("message")
    return facts


def main():
    kubeconfig, ns, token, viewer = sys.argv[1:5]
    api = Api(kubeconfig)
    nsp = "/api/v1/namespaces/" + ns

    s, b = api.call("POST", "/api/v1/namespaces", {"metadata": {"name": ns}})
    emit("create_namespace", code=s, phase=b.get("status", {}).get("phase"))

    # Pagination: 5 Leases listed 2 at a time (Leases: the real controller-manager puts
    # a kube-root-ca.crt ConfigMap into every namespace, nothing puts Leases there).
    lp = "/apis/coordination.k8s.io/v1/namespaces/%s/leases" % ns
    for i in range(5):
        api.call("POST", lp, {"metadata": {"name": "page-%d" % i}, "spec": {"holderIdentity": "p"}})
    pages, token_ = [], None
    while True:
        q = {"limit": 2}
        if token_:
            q["continue"] = token_
        s, b = api.call("GET", lp, query=q)
        names = sorted(i["metadata"]["name"] for i in b.get("items", []))
        meta = b.get("metadata", {})
        token_ = meta.get("continue")
        pages.append({"code": s, "names": names, "more": bool(token_),
                      "remaining": meta.get("remainingItemCount")})
        if not token_ or len(pages) > 5:
            break
    emit("paginate", pages=pages)

    # Watches: from a resourceVersion long compacted away (410 Expired as an ERROR
    # event), and with bookmarks from the list's resourceVersion.
    # Events have no watch cache in a real API server: a watch from revision 1 goes to
    # etcd, which answers 410 Expired once it has compacted that revision away (the real
    # cluster compacts every 10 s; until then etcd replays history, so this waits).
    deadline = time.time() + 60
    while True:
        first = api.stream(nsp + "/events", {"watch": "1", "resourceVersion": "1", "timeoutSeconds": "1"}, 1)[:1]
        if (first and first[0][0] == "ERROR") or time.time() > deadline:
            break
        time.sleep(1)
    emit("watch_too_old", events=first)
    s, b = api.call("GET", nsp + "/configmaps")
    rv = b["metadata"]["resourceVersion"]
    # The real server's bookmark comes 2 s before the deadline once its cache moved on.
    threading.Timer(1.0, lambda: api.call("POST", nsp + "/configmaps", {"metadata": {"name": "cm-bm"}})).start()
    events = api.stream(nsp + "/configmaps", {"watch": "1", "resourceVersion": rv,
                                              "allowWatchBookmarks": "true", "timeoutSeconds": "5"}, 5)
    emit("watch_bookmarks", bookmark=["BOOKMARK"] in events, added=["ADDED"] in events)

    # A quota, then an update with a stale resourceVersion.
    quota = {"metadata": {"name": "q"}, "spec": {"hard": {"requests.nvidia.com/gpu": "2", "pods": "5"}}}
    s, created = api.call("POST", nsp + "/resourcequotas", quota)
    emit("create_quota", code=s, hard=created.get("spec", {}).get("hard"))
    stale = created["metadata"]["resourceVersion"]
    api.call("PATCH", nsp + "/resourcequotas/q", {"metadata": {"labels": {"x": "1"}}})
    s, b = api.call("PATCH", nsp + "/resourcequotas/q", {"metadata": {"labels": {"y": "1"}}},
                    content_type="application/json")
    emit("patch_unsupported_type", **status_facts(s, b))
    quota["metadata"]["resourceVersion"] = stale
    s, b = api.call("PUT", nsp + "/resourcequotas/q", quota)
    emit("stale_update", **status_facts(s, b))

    # Dry runs store nothing.
    s, b = api.call("POST", nsp + "/configmaps", {"metadata": {"name": "dry"}}, query={"dryRun": "All"})
    s2, _ = api.call("GET", nsp + "/configmaps/dry")
    emit("dry_run", code=s, name=b.get("metadata", {}).get("name"), then=s2)

    # Quota admission, once status.hard is there (the real controller-manager copies it).
    deadline = time.time() + 60
    while time.time() < deadline:
        s, b = api.call("GET", nsp + "/resourcequotas/q")
        if b.get("status", {}).get("hard") == b["spec"]["hard"]:
            break
        time.sleep(0.5)
    emit("quota_status", hard=b.get("status", {}).get("hard"), used=b.get("status", {}).get("used"))

    def pod(name, limits=None):
        c = {"name": "main", "image": "cuda"}
        if limits:
            c["resources"] = {"limits": limits}
        return {"metadata": {"name": name}, "spec": {"containers": [c]}}

    def create_pod(body, query=None):
        # A real API server refuses pods until the namespace's default ServiceAccount exists.
        deadline = time.time() + 30
        while True:
            s, b = api.call("POST", nsp + "/pods", body, query=query)
            if s == 403 and "serviceaccount" in json.dumps(b) and time.time() < deadline:
                time.sleep(0.5)
                continue
            return s, b

    s, b = create_pod(pod("too-big", {"nvidia.com/gpu": "3"}))
    emit("quota_denied", **status_facts(s, b))

    # LimitRange: defaults written into the admitted pod, a maximum refused.
    s, _ = api.call("POST", nsp + "/limitranges", {
        "metadata": {"name": "lr"},
        "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m"},
                             "defaultRequest": {"cpu": "250m"}, "max": {"nvidia.com/gpu": "1"}}]}})
    # A real API server's LimitRanger reads LimitRanges from a cache (and remembers a
    # namespace that had none for up to 30 s): the defaults apply once it sees the new one.
    deadline = time.time() + 45
    while True:
        s, b = create_pod(pod("defaulted"), query={"dryRun": "All"})
        res = b.get("spec", {}).get("containers", [{}])[0].get("resources", {})
        if res or time.time() > deadline:
            break
        time.sleep(1)
    emit("limitrange_defaults", code=s, resources=res)
    s, b = create_pod(pod("over-max", {"nvidia.com/gpu": "2"}))
    emit("limitrange_max", **status_facts(s, b))

    # TokenReview and SubjectAccessReview.
    s, b = api.call("POST", "/apis/authentication.k8s.io/v1/tokenreviews",
                    {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": {"token": token}})
    st = b.get("status", {})
    emit("tokenreview_valid", code=s, authenticated=st.get("authenticated"),
         has_user=bool(st.get("user", {}).get("username")),
         authenticated_group="system:authenticated" in st.get("user", {}).get("groups", []))
    s, b = api.call("POST", "/apis/authentication.k8s.io/v1/tokenreviews",
                    {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
                     "spec": {"token": "not-a-token"}})
    emit("tokenreview_invalid", code=s, authenticated=bool(b.get("status", {}).get("authenticated")))
    for name, user, verb in [("sar_denied", viewer, "delete"), ("sar_masters", "someone", "delete")]:
        groups = ["system:masters"] if name == "sar_masters" else []
        s, b = api.call("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
            "apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
            "spec": {"user": user, "groups": groups, "resourceAttributes": {
                "namespace": ns, "verb": verb, "resource": "resourcequotas"}}})
        emit(name, code=s, allowed=b.get("status", {}).get("allowed"))

    # Leases: create, renew with the current resourceVersion, a stale renew is a 409;
    # the MicroTime renewTime comes back as written.
    renew = "2026-12-06T10:00:00.123456Z"
    s, lease = api.call("POST", lp, {"metadata": {"name": "leader"}, "spec": {
        "holderIdentity": "a", "leaseDurationSeconds": 15, "renewTime": renew}})
    emit("lease_create", code=s, renewTime=lease.get("spec", {}).get("renewTime"))
    lease["spec"]["holderIdentity"] = "b"
    s, renewed = api.call("PUT", lp + "/leader", lease)
    emit("lease_renew", code=s, holder=renewed.get("spec", {}).get("holderIdentity"))
    s, b = api.call("PUT", lp + "/leader", lease)
    emit("lease_stale", **status_facts(s, b))

    # A pod's graceful deletion: a 200 with the pod, gone afterwards.
    create_pod(pod("short", {"nvidia.com/gpu": "1"}))
    s, b = api.call("DELETE", nsp + "/pods/short")
    gone = False
    deadline = time.time() + 30
    while time.time() < deadline:
        if api.call("GET", nsp + "/pods/short")[0] == 404:
            gone = True
            break
        time.sleep(0.5)
    emit("pod_delete", code=s, kind=b.get("kind"), gone=gone)
    s, b = api.call("DELETE", nsp + "/pods/short")
    emit("pod_delete_again", **status_facts(s, b))


if __name__ == "__main__":
    main()
