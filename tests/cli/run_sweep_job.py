#!/usr/bin/env python3
"""Plays the pods of `kpsim sweep --emit-job` output locally, as the cluster would run them.

    run_sweep_job.py JOB.yaml KPSIM WORKDIR

Checks the Job's shape (an Indexed Job of N completions, restartPolicy Never, the ConfigMap's
keys valid), writes each ConfigMap item to WORKDIR/mnt/<mountPath>/<path> as the volume's
`items` lay them out, maps the results claim to WORKDIR/mnt/<mountPath>, then runs the
container's command once per completion index (JOB_COMPLETION_INDEX set, `$(VAR)` expanded as
the kubelet expands it), from WORKDIR, each pod's stdout in WORKDIR/log-<index>.txt. Prints what
it did; exit status 1 on any mismatch or failed pod.
"""
import os
import re
import subprocess
import sys

import yaml


def fail(message):
    print(f"run_sweep_job: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    job_yaml, kpsim, work = sys.argv[1:4]
    kpsim, work = os.path.abspath(kpsim), os.path.abspath(work)
    docs = [d for d in yaml.safe_load_all(open(job_yaml)) if d]
    kinds = [d.get("kind") for d in docs]
    if kinds != ["ConfigMap", "Job"]:
        fail(f"expected a ConfigMap and a Job, got {kinds}")
    cm, job = docs
    if job["apiVersion"] != "batch/v1":
        fail("the Job is not batch/v1")
    spec = job["spec"]
    n = spec["completions"]
    if spec.get("completionMode") != "Indexed" or spec.get("parallelism", 0) < 1:
        fail("not an Indexed Job with a parallelism")
    pod = spec["template"]["spec"]
    if pod.get("restartPolicy") != "Never":
        fail("restartPolicy is not Never")
    for key in cm["data"]:
        if not re.fullmatch(r"[-._a-zA-Z0-9]+", key):
            fail(f"ConfigMap key {key!r} is not a valid key")
    (container,) = pod["containers"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    prefixes = []
    for mount in container.get("volumeMounts", []):
        local = os.path.join(work, "mnt", mount["mountPath"].lstrip("/"))
        os.makedirs(local, exist_ok=True)
        volume = volumes[mount["name"]]
        if "configMap" in volume:
            if volume["configMap"]["name"] != cm["metadata"]["name"]:
                fail("the volume names another ConfigMap")
            for item in volume["configMap"]["items"]:
                if item["path"].startswith("/") or ".." in item["path"].split("/"):
                    fail(f"item path {item['path']!r} leaves the volume")
                target = os.path.join(local, item["path"])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8", newline="") as f:
                    f.write(cm["data"][item["key"]])
        elif "persistentVolumeClaim" not in volume:
            fail(f"volume {mount['name']} is neither the ConfigMap nor a claim")
        prefixes.append((mount["mountPath"].rstrip("/") + "/", local.rstrip("/") + "/"))
    for index in range(n):
        env = {e["name"]: str(index) for e in container.get("env", [])
               if e["valueFrom"]["fieldRef"]["fieldPath"]
               == "metadata.annotations['batch.kubernetes.io/job-completion-index']"}
        if env.get("JOB_COMPLETION_INDEX") != str(index):
            fail("the container does not get JOB_COMPLETION_INDEX")
        argv = []
        for word in container["command"] + container.get("args", []):
            word = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), word)
            for mount_path, local in prefixes:
                if word.startswith(mount_path):
                    word = local + word[len(mount_path):]
            argv.append(word)
        if argv[0] != "kpsim":
            fail(f"the command is {argv[0]!r}, not kpsim")
        argv[0] = kpsim
        with open(os.path.join(work, f"log-{index}.txt"), "w") as log:
            rc = subprocess.call(argv, cwd=work, stdout=log, env=dict(os.environ, **env))
        if rc != 0:
            fail(f"pod {index} exited {rc}: {argv}")
    print(f"ran {n} pods of {job['metadata']['name']}")


if __name__ == "__main__":
    main()
