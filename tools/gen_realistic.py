#!/usr/bin/env python3
"""Writes a cluster of realistic objects as a `kubectl get -o json` List (stdlib only, deterministic).

  gen_realistic.py [--nodes N] [--pods-per-node K] [--preemptors P] [--seed S] [--compact]
                   [--daemonsets] -o FILE

Shape (defaults: N = 5000, K = 14, P = N, so 5000 nodes and 75000 pods):
  - PriorityClasses `batch-low` (1000), `web-medium` (5000), `online-high` (100000, the
    preemptors'), `platform-critical` (1000000), plus PodDisruptionBudgets for a fifth of the
    Deployments (maxUnavailable 1, with status as the disruption controller writes it).
  - N Nodes of 16 CPU / 64Gi / 110 pods in three zones, with the labels, annotations, conditions,
    images and managedFields a kubelet writes; a tenth are a tainted GPU pool.
  - K*N running pods bound with spec.nodeName, from Deployments of 10 to 60 replicas: names
    `<deploy>-<template hash>-<5 chars>`, ownerReferences to their ReplicaSet, labels `app`,
    `pod-template-hash`, `tier`, two or three containers (app, sidecar, sometimes an init
    container) with requests and limits, the default not-ready/unreachable tolerations, some with
    required node affinity (zones) and preferred pod anti-affinity, managedFields of
    kube-controller-manager and the kubelet, status with conditions and container statuses.
  - P pending pods of a few high-priority Deployments (3.5 CPU each): every one must preempt
    two or three lower-priority pods somewhere.

Every node is filled to 13.5 to 15.5 of its 16 CPUs, so no preemptor fits without preemption.
With --daemonsets (off by default, so the benchmark's shape stays as it was) every node also runs
a node-exporter DaemonSet pod (platform-critical, hostNetwork with containerPort 9100, so host
port 9100, 100m; added after the CPU fill), and every fifth preemptor Deployment is an ingress
controller asking for hostPort 443: host ports as real clusters have them (NodePorts).
The same arguments write the same bytes. Example:
  tools/gen_realistic.py --nodes 3000 -o /tmp/real3000.json     (3000 nodes, 42000 pods)
  kpsim simulate -o json /tmp/real3000.json
"""

import argparse
import json
import random
import sys

ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
ZONES = ["europe-west1-b", "europe-west1-c", "europe-west1-d"]
CLASSES = [("batch-low", 1000, "batch jobs, preemptible"),
           ("web-medium", 5000, "customer-facing web tier"),
           ("online-high", 100000, "online serving, may preempt"),
           ("platform-critical", 1000000, "platform components")]
T0 = "2024-05-01T10:00:00Z"


def suffix(rng, n=5):
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def managed(manager, operation, time, fields, subresource=None):
    entry = {"manager": manager, "operation": operation, "apiVersion": "v1", "time": time,
             "fieldsType": "FieldsV1", "fieldsV1": fields}
    if subresource:
        entry["subresource"] = subresource
    return entry


def node(i, rng):
    name = "gke-prod-pool-%d-%08x" % (i % 4, 0x1000000 + i)
    zone = ZONES[i % len(ZONES)]
    gpu = i % 10 == 9
    labels = {
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux", "kubernetes.io/hostname": name,
        "node.kubernetes.io/instance-type": "n2-standard-16",
        "topology.kubernetes.io/region": "europe-west1", "topology.kubernetes.io/zone": zone,
        "cloud.google.com/gke-nodepool": "gpu-pool" if gpu else "default-pool",
        "cloud.google.com/machine-family": "n2",
    }
    capacity = {"cpu": "16", "ephemeral-storage": "101203600Ki", "hugepages-1Gi": "0",
                "hugepages-2Mi": "0", "memory": "65851320Ki", "pods": "110"}
    allocatable = {"cpu": "16", "ephemeral-storage": "47093746742", "hugepages-1Gi": "0",
                   "hugepages-2Mi": "0", "memory": "64Gi", "pods": "110"}
    spec = {"podCIDR": "10.%d.%d.0/24" % (i // 256 % 256, i % 256),
            "providerID": "gce://prod/%s/%s" % (zone, name)}
    if gpu:
        spec["taints"] = [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]
    conditions = [
        {"type": t, "status": "False", "lastHeartbeatTime": T0, "lastTransitionTime": T0,
         "reason": "Kubelet" + r, "message": m}
        for t, r, m in [("MemoryPressure", "HasSufficientMemory", "kubelet has sufficient memory available"),
                        ("DiskPressure", "HasNoDiskPressure", "kubelet has no disk pressure"),
                        ("PIDPressure", "HasSufficientPID", "kubelet has sufficient PID available")]]
    conditions.append({"type": "Ready", "status": "True", "lastHeartbeatTime": T0,
                       "lastTransitionTime": T0, "reason": "KubeletReady",
                       "message": "kubelet is posting ready status"})
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "name": name, "uid": "node-%08d-0000-4000-8000-%012d" % (i, i),
            "resourceVersion": str(1000000 + i), "creationTimestamp": "2024-04-01T08:00:00Z",
            "labels": labels,
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                            "container.googleapis.com/instance_id": str(4000000000000000 + i)},
            "managedFields": [
                managed("kubelet", "Update", "2024-04-01T08:00:00Z",
                        {"f:metadata": {"f:labels": {"f:" + k: {} for k in labels}}}),
                managed("kubelet", "Update", T0,
                        {"f:status": {"f:allocatable": {"f:cpu": {}, "f:memory": {}},
                                      "f:conditions": {"k:{\"type\":\"Ready\"}": {"f:lastHeartbeatTime": {}}}}},
                        subresource="status"),
            ],
        },
        "spec": spec,
        "status": {
            "capacity": capacity, "allocatable": allocatable, "conditions": conditions,
            "addresses": [{"type": "InternalIP", "address": "10.128.%d.%d" % (i // 250, i % 250 + 2)},
                          {"type": "Hostname", "address": name}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.15",
                         "kernelVersion": "6.1.75+", "kubeProxyVersion": "v1.30.1",
                         "kubeletVersion": "v1.30.1", "operatingSystem": "linux",
                         "osImage": "Container-Optimized OS from Google"},
            "images": [{"names": ["registry.example.com/app/%s@sha256:%064x" % (n, i), "registry.example.com/app/%s:v%d" % (n, i % 7)],
                        "sizeBytes": 100000000 + i} for n in ("api", "worker", "proxy")],
        },
    }


def deployment_specs(running, rng):
    """Deployments of the running pods: (name, namespace, replicas, cpu_m, mem_mi, class, extras)."""
    deps = []
    total = 0
    k = 0
    teams = ["payments", "search", "checkout", "catalog", "identity", "analytics", "ads", "media"]
    while total < running:
        replicas = min(rng.randint(10, 60), running - total)
        ns = teams[k % len(teams)]
        cls = rng.choices(["batch-low", "web-medium", "platform-critical"], [60, 35, 5])[0]
        cpu = rng.choice([500, 750, 1000, 1000, 1250])
        mem = rng.choice([256, 512, 1024, 2048])
        deps.append({"name": "%s-svc-%d" % (ns, k), "ns": ns, "replicas": replicas, "cpu": cpu,
                     "mem": mem, "class": cls, "hash": "%08x" % rng.getrandbits(32),
                     "zone_affinity": k % 5 == 0, "anti_affinity": k % 3 == 0,
                     "init": k % 4 == 0, "pdb": k % 5 == 1, "gpu": False})
        total += replicas
        k += 1
    return deps


def pod(d, name, rng, node_name=None, ordinal=0):
    cls = next(c for c in CLASSES if c[0] == d["class"])
    labels = {"app": d["name"], "pod-template-hash": d["hash"], "tier": "backend" if ordinal % 2 else "frontend",
              "app.kubernetes.io/part-of": d["ns"]}
    sidecar_cpu = 100
    containers = [
        {"name": "app", "image": "registry.example.com/app/%s:v1.%d" % (d["name"], ordinal % 3),
         "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
         "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                 {"name": "LOG_LEVEL", "value": "info"}],
         "resources": {"requests": {"cpu": "%dm" % (d["cpu"] - sidecar_cpu), "memory": "%dMi" % d["mem"]},
                       "limits": {"cpu": "%dm" % (2 * d["cpu"]), "memory": "%dMi" % d["mem"]}},
         "readinessProbe": {"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
                            "periodSeconds": 10, "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3},
         "volumeMounts": [{"name": "kube-api-access", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": True}],
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
         "imagePullPolicy": "IfNotPresent"},
        {"name": "envoy", "image": "registry.example.com/mesh/envoy:v1.29.1",
         "resources": {"requests": {"cpu": "%dm" % sidecar_cpu, "memory": "128Mi"},
                       "limits": {"memory": "256Mi"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
         "imagePullPolicy": "IfNotPresent"},
    ]
    spec = {
        "containers": containers,
        "dnsPolicy": "ClusterFirst", "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority",
        "priority": cls[1], "priorityClassName": cls[0], "restartPolicy": "Always",
        "schedulerName": "default-scheduler", "securityContext": {"runAsNonRoot": True},
        "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
        "tolerations": [
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}],
        "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}],
    }
    if d["init"]:
        spec["initContainers"] = [{"name": "migrate", "image": "registry.example.com/app/migrate:v3",
                                   "resources": {"requests": {"cpu": "200m", "memory": "64Mi"}}}]
    affinity = {}
    if d["zone_affinity"]:
        affinity["nodeAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ZONES[:2] + [ZONES[2]]}]}]}}
    if d["anti_affinity"]:
        affinity["podAntiAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": d["name"]}},
                                                "topologyKey": "kubernetes.io/hostname"}}]}
    if affinity:
        spec["affinity"] = affinity
    if node_name:
        spec["nodeName"] = node_name
    created = "2024-04-%02dT%02d:%02d:%02dZ" % (2 + ordinal % 27, ordinal % 24, ordinal % 60, (ordinal * 7) % 60)
    rs = "%s-%s" % (d["name"], d["hash"])
    meta = {
        "name": name, "generateName": rs + "-", "namespace": d["ns"],
        "uid": "%08x-%04x-4%03x-8%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                              rng.getrandbits(12), rng.getrandbits(48)),
        "resourceVersion": str(rng.randint(10 ** 6, 10 ** 9)), "creationTimestamp": created if node_name else T0,
        "labels": labels,
        "annotations": {"kubectl.kubernetes.io/restartedAt": "2024-03-30T12:00:00Z",
                        "prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs,
                             "uid": "rs-%s" % d["hash"], "controller": True, "blockOwnerDeletion": True}],
        "managedFields": [
            managed("kube-controller-manager", "Update", created,
                    {"f:metadata": {"f:generateName": {}, "f:labels": {"f:" + k: {} for k in labels},
                                    "f:ownerReferences": {"k:{\"uid\":\"rs-%s\"}" % d["hash"]: {}}},
                     "f:spec": {"f:containers": {"k:{\"name\":\"%s\"}" % c["name"]: {"f:image": {}, "f:resources": {}}
                                                 for c in containers},
                                "f:priorityClassName": {}, "f:tolerations": {}}}),
        ],
    }
    if node_name:
        meta["managedFields"].append(managed("kubelet", "Update", created, {"f:status": {
            "f:conditions": {"k:{\"type\":\"Ready\"}": {".": {}, "f:status": {}}},
            "f:containerStatuses": {}, "f:podIP": {}, "f:startTime": {}}}, subresource="status"))
        status = {"phase": "Running", "hostIP": "10.128.0.2", "podIP": "10.4.%d.%d" % (ordinal // 250 % 250, ordinal % 250),
                  "qosClass": "Burstable", "startTime": created,
                  "conditions": [{"type": t, "status": "True", "lastProbeTime": None, "lastTransitionTime": created}
                                 for t in ("Initialized", "Ready", "ContainersReady", "PodScheduled")],
                  "containerStatuses": [{"name": c["name"], "image": c["image"], "imageID": "", "ready": True,
                                         "restartCount": 0, "started": True,
                                         "state": {"running": {"startedAt": created}}} for c in containers]}
    else:
        status = {"phase": "Pending", "qosClass": "Burstable"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def node_exporter(n, rng):
    """A node-exporter DaemonSet pod bound to node `n` (hostNetwork: containerPort 9100 is host port 9100)."""
    name = n["metadata"]["name"]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": "node-exporter-" + suffix(rng), "generateName": "node-exporter-", "namespace": "monitoring",
        "creationTimestamp": "2024-04-01T00:00:00Z", "labels": {"app": "node-exporter"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "node-exporter",
                             "uid": "ds-node-exporter", "controller": True, "blockOwnerDeletion": True}]},
        "spec": {"hostNetwork": True, "hostPID": True, "nodeName": name, "priority": 1000000,
                 "priorityClassName": "platform-critical", "schedulerName": "default-scheduler",
                 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                     {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}]}]}}},
                 "containers": [{"name": "node-exporter", "image": "quay.io/prometheus/node-exporter:v1.8.0",
                                 "ports": [{"containerPort": 9100, "name": "metrics", "protocol": "TCP"}],
                                 "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}],
                 "tolerations": [{"operator": "Exists"}]},
        "status": {"phase": "Running", "startTime": "2024-04-01T00:00:05Z", "hostIP": "10.128.0.2"}}


def controllers(d, template_pod):
    """The ReplicaSet of Deployment `d` and its Service, as `kubectl get rs,svc -o json` prints them."""
    rs = "%s-%s" % (d["name"], d["hash"])
    labels = {"app": d["name"], "pod-template-hash": d["hash"]}
    spec = {k: v for k, v in template_pod["spec"].items() if k != "nodeName"}
    replica_set = {
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": rs, "namespace": d["ns"], "uid": "rs-%s" % d["hash"], "generation": 1,
                     "creationTimestamp": "2024-04-01T00:00:00Z", "labels": labels,
                     "annotations": {"deployment.kubernetes.io/desired-replicas": str(d["replicas"]),
                                     "deployment.kubernetes.io/max-replicas": str(d["replicas"] + 1),
                                     "deployment.kubernetes.io/revision": "1"},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": d["name"],
                                          "uid": "deploy-%s" % d["name"], "controller": True,
                                          "blockOwnerDeletion": True}]},
        "spec": {"replicas": d["replicas"], "selector": {"matchLabels": labels},
                 "template": {"metadata": {"labels": template_pod["metadata"]["labels"]}, "spec": spec}},
        "status": {"replicas": d["replicas"], "fullyLabeledReplicas": d["replicas"], "observedGeneration": 1}}
    service = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": d["name"], "namespace": d["ns"], "uid": "svc-%s" % d["name"],
                     "creationTimestamp": "2024-04-01T00:00:00Z", "labels": {"app": d["name"]}},
        "spec": {"type": "ClusterIP", "clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"],
                 "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}],
                 "selector": {"app": d["name"]}, "sessionAffinity": "None",
                 "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"},
        "status": {"loadBalancer": {}}}
    return [replica_set, service]


def generate(nodes, per_node, preemptors, seed, daemonsets=False, with_controllers=False):
    rng = random.Random(seed)
    items = []
    for name, value, desc in CLASSES:
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": name}, "value": value, "globalDefault": False,
                      "description": desc, "preemptionPolicy": "PreemptLowerPriority"})
    node_objs = [node(i, rng) for i in range(nodes)]
    items.extend(node_objs)
    running = nodes * per_node
    deps = deployment_specs(running, rng)
    # Fill the nodes: each node gets `per_node` pods, drawn from the deployments in turn, so a
    # deployment's replicas spread over many nodes. Requests are capped so a node ends between
    # 13.5 and 15.5 CPUs (of 16).
    slots = []
    for d in deps:
        slots.extend([d] * d["replicas"])
    rng.shuffle(slots)
    pods = []
    ordinal = 0
    for i, n in enumerate(node_objs):
        chunk = slots[i * per_node:(i + 1) * per_node]
        used = sum(d["cpu"] for d in chunk)
        target = rng.randint(27, 31) * 500  # 13.5 .. 15.5 CPUs
        for d in chunk:
            name = "%s-%s-%s" % (d["name"], d["hash"], suffix(rng))
            p = pod(d, name, rng, node_name=n["metadata"]["name"], ordinal=ordinal)
            ordinal += 1
            pods.append(p)
        # Top the node up with the last pod's app container, or trim the last pods' app
        # containers (down to 50m each) until the node is at its target.
        delta = target - used
        for p in reversed(pods[-len(chunk):]):
            app = p["spec"]["containers"][0]["resources"]["requests"]
            cpu = int(app["cpu"][:-1])
            new = max(50, cpu + delta)
            delta -= new - cpu
            app["cpu"] = "%dm" % new
            if delta >= 0:
                break
    items.extend(pods)
    if with_controllers:
        first = {}
        for p in pods:
            first.setdefault(p["metadata"]["ownerReferences"][0]["name"], p)
        for d in deps:
            rs = "%s-%s" % (d["name"], d["hash"])
            if rs in first:
                items.extend(controllers(d, first[rs]))
    if daemonsets:
        items.extend(node_exporter(n, rng) for n in node_objs)
    # Preemptors: high-priority online deployments of 100 replicas, 3.5 CPU each.
    k = 0
    made = 0
    while made < preemptors:
        replicas = min(100, preemptors - made)
        d = {"name": "online-serving-%d" % k, "ns": "online", "replicas": replicas, "cpu": 3500, "mem": 4096,
             "class": "online-high", "hash": "%08x" % rng.getrandbits(32), "zone_affinity": k % 2 == 0,
             "anti_affinity": True, "init": False, "pdb": False, "gpu": False}
        for i in range(replicas):
            p = pod(d, "%s-%s-%s" % (d["name"], d["hash"], suffix(rng)), rng, ordinal=made)
            if with_controllers and i == 0:
                items.extend(controllers(d, p))
            if daemonsets and k % 5 == 4:  # an ingress controller: host port 443
                p["spec"]["containers"][0]["ports"].append(
                    {"containerPort": 8443, "hostPort": 443, "name": "https", "protocol": "TCP"})
            items.append(p)
            made += 1
        k += 1
    for d in deps:
        if not d["pdb"]:
            continue
        items.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                      "metadata": {"name": d["name"], "namespace": d["ns"], "generation": 1},
                      "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": d["name"]}}},
                      "status": {"currentHealthy": d["replicas"], "desiredHealthy": d["replicas"] - 1,
                                 "disruptionsAllowed": 1, "expectedPods": d["replicas"], "observedGeneration": 1}})
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--pods-per-node", type=int, default=14)
    ap.add_argument("--preemptors", type=int, default=None, help="default: one per node")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compact", action="store_true", help="no indentation (kubectl indents by 4)")
    ap.add_argument("--daemonsets", action="store_true",
                    help="add a hostNetwork node-exporter per node and ingress preemptors with host ports")
    ap.add_argument("--controllers", action="store_true",
                    help="add each Deployment's ReplicaSet and a Service selecting its pods (PodTopologySpread's "
                         "default constraints then spread them, as in a dump of pods, rs and svc)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.nodes < 1 or a.pods_per_node < 1:
        ap.error("--nodes and --pods-per-node must be positive")
    doc = generate(a.nodes, a.pods_per_node, a.nodes if a.preemptors is None else a.preemptors, a.seed,
                   a.daemonsets, a.controllers)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    json.dump(doc, out, indent=None if a.compact else 4, separators=(",", ":") if a.compact else None)
    out.write("\n")


if __name__ == "__main__":
    main()
