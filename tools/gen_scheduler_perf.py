#!/usr/bin/env python3
"""Writes kube-scheduler scheduler_perf shapes as kubectl-style JSON Lists (stdlib only, deterministic).

  gen_scheduler_perf.py preemption-basic [--nodes N]            (issue 2; N = 5000, or 500 / 2000)
      N nodes of 4 CPU / 32Gi / 110 pods; 4N running priority-0 pods of 900m/500Mi with
      terminationGracePeriodSeconds 0, bound with spec.nodeName; N pending priority-10 pods of
      3 CPU/500Mi.
  gen_scheduler_perf.py scheduling-basic [--nodes N] [--pods P]   (issue 11; N = 5000, P = 10N)
      N nodes as above; N + P pending pods of scheduler_perf's pod-default template (100m/500Mi
      requests and limits, container port 80), as SchedulingBasic's initPods (N) and measurePods (P).
  gen_scheduler_perf.py podgroup-disruption --variant plain|single|all   (issue 3)
      1000 nodes of 4 CPU; 1000 PodGroups of 10 running pods of 300m at priority 1000 (10000
      victims, a group's pods spread over 10 nodes); 100 pending preemptor pods of 3970m at
      priority 10000. `plain`: the victims are plain pods (no PodGroup objects); `single`/`all`:
      PodGroups with that disruptionMode (run with --feature-gates GenericWorkload=true).

The output is byte-for-byte what bench/preemption_bench.cc generates in memory: one List item per
line, keys in a fixed order. Example:
  tools/gen_scheduler_perf.py preemption-basic --nodes 500 -o /tmp/pb500.json
  kpsim simulate -o json /tmp/pb500.json
"""

import argparse
import sys


def priority_class(name, value):
    return ('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass",'
            '"metadata":{"name":"%s"},"value":%d}' % (name, value))


def node(name, cpu="4", memory="32Gi", pods="110"):
    res = '{"cpu":"%s","memory":"%s","pods":"%s"}' % (cpu, memory, pods)
    return ('{"apiVersion":"v1","kind":"Node","metadata":{"name":"%s",'
            '"labels":{"kubernetes.io/hostname":"%s"}},'
            '"status":{"capacity":%s,"allocatable":%s}}' % (name, name, res, res))


def pod(name, cpu, memory=None, node_name=None, priority_class_name=None, grace=None, group=None,
        limits=False, container_port=None):
    requests = '"cpu":"%s"' % cpu
    if memory is not None:
        requests += ',"memory":"%s"' % memory
    spec = ""
    if node_name is not None:
        spec += '"nodeName":"%s",' % node_name
    if priority_class_name is not None:
        spec += '"priorityClassName":"%s",' % priority_class_name
    if grace is not None:
        spec += '"terminationGracePeriodSeconds":%d,' % grace
    if group is not None:
        spec += '"schedulingGroup":{"podGroupName":"%s"},' % group
    ports = '' if container_port is None else '"ports":[{"containerPort":%d}],' % container_port
    lims = '"limits":{%s},' % requests if limits else ''
    spec += ('"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.9",%s'
             '"resources":{%s"requests":{%s}}}]' % (ports, lims, requests))
    status = ',"status":{"phase":"Running"}' if node_name is not None else ""
    return ('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default"},'
            '"spec":{%s}%s}' % (name, spec, status))


def pod_group(name, mode):
    return ('{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup",'
            '"metadata":{"name":"%s","namespace":"default"},'
            '"spec":{"schedulingPolicy":{"basic":{}},"disruptionMode":{"%s":{}},'
            '"priorityClassName":"victim"}}' % (name, mode))


def preemption_basic(nodes):
    items = [priority_class("preemptor", 10)]
    for n in range(nodes):
        items.append(node("node-%05d" % n))
    for n in range(nodes):
        for i in range(4):
            items.append(pod("low-%05d-%d" % (n, i), "900m", "500Mi", node_name="node-%05d" % n,
                             grace=0))
    for n in range(nodes):
        items.append(pod("high-%05d" % n, "3", "500Mi", priority_class_name="preemptor"))
    return items


def scheduling_basic(nodes, measure):
    items = [node("node-%05d" % n) for n in range(nodes)]
    for i in range(nodes + measure):
        items.append(pod("pod-%06d" % i, "100m", "500Mi", limits=True, container_port=80))
    return items


def podgroup_disruption(variant, nodes=1000, groups=1000, group_size=10, preemptors=100):
    items = [priority_class("victim", 1000), priority_class("preemptor", 10000)]
    for n in range(nodes):
        items.append(node("node-%05d" % n))
    stride = nodes // group_size
    for g in range(groups):
        group = "group-%04d" % g
        if variant != "plain":
            items.append(pod_group(group, variant))
        for j in range(group_size):
            items.append(pod("victim-%04d-%d" % (g, j), "300m",
                             node_name="node-%05d" % ((g + j * stride) % nodes),
                             priority_class_name="victim", grace=0,
                             group=None if variant == "plain" else group))
    for p in range(preemptors):
        items.append(pod("preemptor-%03d" % p, "3970m", priority_class_name="preemptor"))
    return items


def render(items):
    return '{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[\n' + \
        ",\n".join(items) + "\n]}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shape", choices=["preemption-basic", "podgroup-disruption", "scheduling-basic"])
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes (preemption-basic: default 5000; podgroup-disruption: 1000)")
    parser.add_argument("--pods", type=int, default=None,
                        help="scheduling-basic: measured pods (default 10 per node)")
    parser.add_argument("--variant", choices=["plain", "single", "all"], default="plain")
    parser.add_argument("-o", "--output", default="-", help="output file, - for stdout")
    args = parser.parse_args()
    if args.nodes is not None and args.nodes <= 0:
        parser.error("--nodes must be positive")
    if args.shape == "preemption-basic":
        text = render(preemption_basic(args.nodes or 5000))
    elif args.shape == "scheduling-basic":
        nodes = args.nodes or 5000
        text = render(scheduling_basic(nodes, args.pods or 10 * nodes))
    else:
        text = render(podgroup_disruption(args.variant, nodes=args.nodes or 1000))
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
