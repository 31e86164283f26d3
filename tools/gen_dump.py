#!/usr/bin/env python3
"""Writes a kubectl-shaped `kind: List` of Pods and Nodes as JSON and as YAML (the same objects).

The read benchmark (bench/read_bench.cc) measures the manifest reader on these files. The objects
look like what `kubectl get nodes,pods -A -o json|yaml` prints for a real cluster: managedFields
(fieldsV1 with `f:`/`k:{...}` keys), labels, annotations (one multi-line, one long enough to fold),
ownerReferences, several containers with env, ports, probes and resources, volumes, tolerations,
status conditions and containerStatuses.

JSON is written as `kubectl -o json` does (4-space indent, fields in Go struct order). YAML is
written as sigs.k8s.io/yaml does (JSON -> go-yaml v2): keys sorted, 2-space indent, sequences of a
mapping not indented, strings that would read as another type double-quoted, strings the emitter
cannot write plain single-quoted, multi-line strings as `|` / `|-` literals, long plain strings
folded after column 80.

Deterministic: the same arguments give byte-identical files.

  tools/gen_dump.py --pods 20000 --nodes 1000 --out /tmp/dump    # dump.json, dump.yaml
"""

import argparse
import json
import os
import re


def managed_fields(manager, op, time, fields):
    return {
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": fields,
        "manager": manager,
        "operation": op,
        "time": time,
    }


def pod(i, nodes):
    app = f"app-{i % 97}"
    rs = f"{app}-{(i * 2654435761) % 0xffffffff:08x}"[:20]
    name = f"{rs}-{i:05d}"
    ns = f"team-{i % 23}"
    node = f"node-{i % nodes:04d}"
    ts = f"2024-0{1 + i % 9}-1{i % 10}T0{i % 10}:{i % 60:02d}:{(i * 7) % 60:02d}Z"
    containers = []
    statuses = []
    for c in range(1 + i % 3):
        cname = ["main", "sidecar", "metrics"][c]
        containers.append({
            "name": cname,
            "image": f"registry.example.com/{app}/{cname}:v1.{i % 40}.{c}",
            "command": ["/bin/server", f"--port={8080 + c}", "--log-level=info"],
            "ports": [{"name": "http", "containerPort": 8080 + c, "protocol": "TCP"}],
            "env": [
                {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                "fieldPath": "metadata.name"}}},
                {"name": "GOMAXPROCS", "value": str(1 + i % 4)},
                {"name": "FEATURE_ENABLED", "value": "true"},
                {"name": "JAVA_OPTS", "value": "-Xmx512m -XX:+UseG1GC"},
            ],
            "resources": {
                "limits": {"cpu": f"{1 + i % 4}", "memory": f"{256 * (1 + i % 8)}Mi"},
                "requests": {"cpu": f"{100 * (1 + i % 10)}m", "memory": f"{128 * (1 + i % 8)}Mi"},
            },
            "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080 + c,
                                           "scheme": "HTTP"},
                               "periodSeconds": 10, "timeoutSeconds": 1,
                               "successThreshold": 1, "failureThreshold": 3},
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
            "imagePullPolicy": "IfNotPresent",
            "volumeMounts": [
                {"name": "config", "mountPath": "/etc/config", "readOnly": True},
                {"name": "kube-api-access", "mountPath":
                 "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": True},
            ],
        })
        statuses.append({
            "name": cname,
            "state": {"running": {"startedAt": ts}},
            "lastState": {},
            "ready": True,
            "restartCount": i % 5,
            "image": f"registry.example.com/{app}/{cname}:v1.{i % 40}.{c}",
            "imageID": f"registry.example.com/{app}/{cname}@sha256:{(i * 31 + c):064x}",
            "containerID": f"containerd://{(i * 17 + c):064x}",
            "started": True,
        })
    ckeys = {f'k:{{"name":"{c["name"]}"}}': {
        ".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {},
        "f:resources": {".": {}, "f:limits": {".": {}, "f:cpu": {}, "f:memory": {}},
                        "f:requests": {".": {}, "f:cpu": {}, "f:memory": {}}},
        "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {}}
        for c in containers}
    last_applied = json.dumps({"apiVersion": "v1", "kind": "Pod",
                               "metadata": {"name": name, "namespace": ns}},
                              separators=(",", ":")) + "\n"
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "annotations": {
                "kubectl.kubernetes.io/last-applied-configuration": last_applied,
                "kubernetes.io/description": "A pod of the " + app + " service that serves "
                "requests for the team; it was created by the ReplicaSet controller and is "
                "scraped by the metrics pipeline every thirty seconds.",
                "prometheus.io/scrape": "true",
                "prometheus.io/port": "9090",
            },
            "creationTimestamp": ts,
            "generateName": rs + "-",
            "labels": {"app": app, "pod-template-hash": rs[-10:], "tier": "backend",
                       "version": "1.0", "team": ns},
            "managedFields": [
                managed_fields("kube-controller-manager", "Update", ts, {
                    "f:metadata": {"f:generateName": {}, "f:labels": {
                        ".": {}, "f:app": {}, "f:pod-template-hash": {}},
                        "f:ownerReferences": {".": {}, f'k:{{"uid":"{i:08x}-aaaa"}}': {}}},
                    "f:spec": {"f:containers": ckeys, "f:dnsPolicy": {},
                               "f:restartPolicy": {}, "f:schedulerName": {}}}),
                managed_fields("kubelet", "Update", ts, {
                    "f:status": {"f:conditions": {
                        'k:{"type":"Ready"}': {".": {}, "f:lastProbeTime": {},
                                               "f:lastTransitionTime": {}, "f:status": {},
                                               "f:type": {}}},
                        "f:containerStatuses": {}, "f:hostIP": {}, "f:phase": {},
                        "f:podIP": {}, "f:startTime": {}}}),
            ],
            "name": name,
            "namespace": ns,
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True,
                                 "controller": True, "kind": "ReplicaSet", "name": rs,
                                 "uid": f"{i:08x}-aaaa-bbbb-cccc-{i * 7:012x}"}],
            "resourceVersion": str(100000 + i),
            "uid": f"{i:08x}-1111-2222-3333-{i * 13:012x}",
        },
        "spec": {
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [{
                    "key": "kubernetes.io/os", "operator": "In", "values": ["linux"]}]}]}}},
            "containers": containers,
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True,
            "nodeName": node,
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": (i % 5) * 100,
            **({"priorityClassName": f"tier-{(i % 5) * 100}"} if i % 5 else {}),
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "securityContext": {"runAsNonRoot": True, "runAsUser": 1000},
            "serviceAccount": "default",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [
                {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
                 "operator": "Exists", "tolerationSeconds": 300},
                {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable",
                 "operator": "Exists", "tolerationSeconds": 300},
            ],
            "volumes": [
                {"name": "config", "configMap": {"name": app + "-config", "defaultMode": 420}},
                {"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                    {"configMap": {"name": "kube-root-ca.crt",
                                   "items": [{"key": "ca.crt", "path": "ca.crt"}]}}]}},
            ],
        },
        "status": {
            "conditions": [
                {"lastProbeTime": None, "lastTransitionTime": ts, "status": "True", "type": t}
                for t in ["Initialized", "Ready", "ContainersReady", "PodScheduled"]
            ],
            "containerStatuses": statuses,
            "hostIP": f"10.0.{i % nodes // 250}.{i % 250}",
            "phase": "Running",
            "podIP": f"10.244.{i % 250}.{i % 200}",
            "podIPs": [{"ip": f"10.244.{i % 250}.{i % 200}"}],
            "qosClass": "Burstable",
            "startTime": ts,
        },
    }


def node(i):
    name = f"node-{i:04d}"
    ts = f"2023-12-0{1 + i % 9}T10:00:00Z"
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": ts,
            "labels": {"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name,
                       "kubernetes.io/os": "linux",
                       "node.kubernetes.io/instance-type": "m5.2xlarge",
                       "topology.kubernetes.io/region": "eu-west-1",
                       "topology.kubernetes.io/zone": f"eu-west-1{'abc'[i % 3]}"},
            "managedFields": [managed_fields("kubelet", "Update", ts, {
                "f:metadata": {"f:annotations": {".": {}, "f:node.alpha.kubernetes.io/ttl": {}},
                               "f:labels": {".": {}, "f:kubernetes.io/arch": {}}},
                "f:status": {"f:allocatable": {"f:cpu": {}, "f:memory": {}}}})],
            "name": name,
            "resourceVersion": str(5000 + i),
            "uid": f"{i:08x}-9999-8888-7777-{i:012x}",
        },
        "spec": {"podCIDR": f"10.244.{i % 250}.0/24", "providerID": f"aws:///eu-west-1a/i-{i:017x}",
                 "taints": [{"effect": "NoSchedule", "key": "dedicated", "value": "batch"}]
                 if i % 10 == 0 else []},
        "status": {
            "addresses": [{"address": f"10.0.{i // 250}.{i % 250}", "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": {"cpu": "7910m", "ephemeral-storage": "95551679124",
                            "hugepages-1Gi": "0", "memory": "31574956Ki", "pods": "110"},
            "capacity": {"cpu": "8", "ephemeral-storage": "103680236Ki", "hugepages-1Gi": "0",
                         "memory": "32386988Ki", "pods": "110"},
            "conditions": [
                {"lastHeartbeatTime": ts, "lastTransitionTime": ts, "message": m,
                 "reason": r, "status": s, "type": t}
                for t, s, r, m in [
                    ("MemoryPressure", "False", "KubeletHasSufficientMemory",
                     "kubelet has sufficient memory available"),
                    ("DiskPressure", "False", "KubeletHasNoDiskPressure",
                     "kubelet has no disk pressure"),
                    ("Ready", "True", "KubeletReady",
                     "kubelet is posting ready status. AppArmor enabled")]
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.2",
                         "kernelVersion": "6.1.0-13-cloud-amd64", "kubeletVersion": "v1.29.1",
                         "machineID": f"{i:032x}", "operatingSystem": "linux",
                         "osImage": "Debian GNU/Linux 12 (bookworm)"},
        },
    }


# --- YAML in the style of sigs.k8s.io/yaml (go-yaml v2's emitter) ------------------------------

_RESOLVES = re.compile(
    r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
    r"|~|null|Null|NULL"
    r"|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?0[0-7_]+"
    r"|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
    r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt ].*)?)$")


def _plain_ok(s):
    """Whether go-yaml's emitter may write `s` as a plain scalar (block context)."""
    if s[0] in "-?:,[]{}#&*!|>'\"%@`" and not (s[0] in "-?:" and len(s) > 1 and s[1] != " "):
        return False
    if s[0] == " " or s[-1] == " " or ": " in s or " #" in s or s.endswith(":"):
        return False
    return all(0x20 <= ord(c) < 0x7f for c in s)


def _scalar(s, indent):
    if s == "":
        return '""'
    if "\n" in s:
        chomp = "" if s.endswith("\n") and not s.endswith("\n\n") else "-"
        body = s[:-1] if chomp == "" else s
        pad = " " * indent
        return "|" + chomp + "".join("\n" + (pad + line if line else "")
                                     for line in body.split("\n"))
    if _RESOLVES.match(s):
        return json.dumps(s)
    if not _plain_ok(s):
        return "'" + s.replace("'", "''") + "'"
    return s


def _fold(text, column, indent):
    """go-yaml folds a plain scalar at the first space after column 80."""
    out = []
    for k, c in enumerate(text):
        if c == " " and column > 80 and k + 1 < len(text) and text[k + 1] != " ":
            out.append("\n" + " " * indent)
            column = indent
            continue
        out.append(c)
        column += 1
    return "".join(out)


def _value(v, indent):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    return _scalar(v, indent)


def to_yaml(v, indent=0, out=None):
    pad = " " * indent
    if isinstance(v, dict):
        for k in sorted(v):
            val = v[k]
            key = _scalar(k, indent)
            if isinstance(val, dict) and val:
                out.append(f"{pad}{key}:\n")
                to_yaml(val, indent + 2, out)
            elif isinstance(val, list) and val:
                out.append(f"{pad}{key}:\n")
                to_yaml(val, indent, out)
            else:
                text = "{}" if isinstance(val, dict) else "[]" if isinstance(val, list) \
                    else _value(val, indent + 2)
                if isinstance(val, str) and text == val:
                    text = _fold(text, len(pad) + len(key) + 2, indent + 2)
                out.append(f"{pad}{key}: {text}\n")
    else:  # a non-empty list
        for item in v:
            if isinstance(item, dict) and item:
                lines = []
                to_yaml(item, indent + 2, lines)
                first = lines[0]
                out.append(f"{pad}- {first[indent + 2:]}")
                out.extend(lines[1:])
            elif isinstance(item, list) and item:
                lines = []
                to_yaml(item, indent + 2, lines)
                out.append(f"{pad}- {lines[0][indent + 2:]}")
                out.extend(lines[1:])
            else:
                text = "{}" if isinstance(item, dict) else "[]" if isinstance(item, list) \
                    else _value(item, indent + 2)
                out.append(f"{pad}- {text}\n")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pods", type=int, default=20000)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--out", required=True, help="directory for dump.json and dump.yaml")
    args = ap.parse_args()
    items = [node(i) for i in range(args.nodes)] + [pod(i, max(args.nodes, 1))
                                                     for i in range(args.pods)]
    lst = {"apiVersion": "v1", "items": items, "kind": "List",
           "metadata": {"resourceVersion": ""}}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "dump.json"), "w") as f:
        f.write(json.dumps(lst, indent=4))
        f.write("\n")
    with open(os.path.join(args.out, "dump.yaml"), "w") as f:
        f.write("".join(to_yaml(lst, 0, [])))


if __name__ == "__main__":
    main()
