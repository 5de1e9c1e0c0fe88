#!/usr/bin/env python3
"""kueue-manifests.py - the Kueue release's CRDs and webhook configurations for a cluster
whose webhooks are reached by URL on loopback (no Service, no cert-manager).

Usage: kueue-manifests.py MANIFESTS_DIR URL CA_FILE OUT_DIR

Writes OUT_DIR/crds.yaml (every CRD; those Kueue converts between v1beta1 and v1beta2
get spec.conversion Webhook at URL/convert) and OUT_DIR/webhooks.yaml (the mutating and
validating configurations, names prefixed "kueue-", only the webhooks of Kueue's own
objects and of batch/v1 Jobs, the one integration started; clientConfig url = URL+path).
"""
import base64
import os
import sys

import yaml

# the CRDs config/components/crd/kustomization.yaml patches with a conversion webhook
CONVERTED = {"localqueues", "clusterqueues", "cohorts", "workloads", "multikueueclusters"}


def kept(path):
    return "-kueue-x-k8s-io-" in path or "-batch-v1-job" in path


def main():
    src, url, ca_file, out = sys.argv[1:5]
    with open(ca_file, "rb") as f:
        ca = base64.b64encode(f.read()).decode()
    crds = []
    for name in sorted(os.listdir(os.path.join(src, "crd"))):
        with open(os.path.join(src, "crd", name)) as f:
            crd = yaml.safe_load(f)
        if crd["spec"]["names"]["plural"] in CONVERTED:
            crd["spec"]["conversion"] = {
                "strategy": "Webhook",
                "webhook": {
                    "clientConfig": {"url": url + "/convert", "caBundle": ca},
                    "conversionReviewVersions": ["v1"],
                },
            }
        crds.append(crd)
    with open(os.path.join(src, "webhooks.yaml")) as f:
        configs = [d for d in yaml.safe_load_all(f) if d]
    for cfg in configs:
        cfg["metadata"]["name"] = "kueue-" + cfg["metadata"]["name"]
        hooks = []
        for hook in cfg["webhooks"]:
            path = hook["clientConfig"]["service"]["path"]
            if not kept(path):
                continue
            hook["clientConfig"] = {"url": url + path, "caBundle": ca}
            hooks.append(hook)
        cfg["webhooks"] = hooks
    with open(os.path.join(out, "crds.yaml"), "w") as f:
        yaml.safe_dump_all(crds, f)
    with open(os.path.join(out, "webhooks.yaml"), "w") as f:
        yaml.safe_dump_all(configs, f)


if __name__ == "__main__":
    main()
