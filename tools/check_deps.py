#!/usr/bin/env python3
"""Fails when an #include crosses the module dependency table.

    tools/check_deps.py [--root DIR]

Scans every #include of DIR/src/** and DIR/include/kpsim/** (DIR defaults to the repository) and
checks it against MODULES below: a file in src/<module>/ may include its own module's headers,
the public headers (include/kpsim/...) of the modules listed in `public`, the private headers
(src/<other>/...) of the modules listed in `private`, and the third-party libraries listed in
`libraries`. A public header may include the public headers of its module's `public` list. A
folder under src/ that is not in the table is an error too, so a new module has to be placed in
the DAG when it is created. Prints one line per violation; exit status 1 if there is any, 0 if
none, 2 on bad usage. The table mirrors the module DAG in CMakeLists.txt (house style G2).
"""

import argparse
import os
import re
import sys

# The owner of each public header. `results` is the group of header-only value types shared by the
# engines and the renderers (the simulated clock, the options and the results of a run); api
# implements their names (src/api/result_names.cc).
PUBLIC_HEADERS = {
    "kpsim/expected.h": "api",
    "kpsim/feature_gates.h": "api",
    "kpsim/api/types.h": "api",
    "kpsim/api/duration.h": "api",
    "kpsim/api/quota.h": "api",
    "kpsim/sim_time.h": "results",
    "kpsim/shared_string.h": "results",
    "kpsim/engine_options.h": "results",
    "kpsim/results.h": "results",
    "kpsim/explain.h": "results",
    "kpsim/admission.h": "admission",
    "kpsim/io.h": "io",
    "kpsim/report.h": "report",
    "kpsim/diff.h": "report",
    "kpsim/engine.h": "sim",  # the facade functions, implemented by src/sim/engine.cc
    "kpsim/eviction.h": "kubelet",
}

# Third-party libraries, by the include that names them.
LIBRARIES = {
    "fmt": re.compile(r"^fmt/"),
    "nlohmann_json": re.compile(r"^nlohmann/"),
    "simdjson": re.compile(r"^simdjson\.h$"),
    "libyaml": re.compile(r"^yaml\.h$"),
    "CLI11": re.compile(r"^CLI/"),
    "httplib": re.compile(r"^httplib\.h$"),
}

# module -> what it may include besides itself, in pipeline order (src/README.md): api <- {io,
# admission, snapshot, book, report}; snapshot (the cluster model) <- framework (status, plugin
# interface, cycle state, filter runner) <- {plugins (one file per plugin, the registry), queue,
# preemption} <- scheduler (ScheduleOne, pod groups, the class index; plugins through the
# registry) <- sim (the simulator loop, explain, the engine facade) <- cli. admission.h is public
# to the engines as the home of ClusterState (the admitted cluster, their input).
MODULES = {
    "api": {"public": ["results"], "private": [], "libraries": ["fmt"]},
    "results": {"public": ["api"], "private": [], "libraries": []},
    "admission": {"public": ["api"], "private": [], "libraries": ["fmt"]},
    "io": {"public": ["api", "kubelet"], "private": [],
           "libraries": ["fmt", "nlohmann_json", "simdjson", "libyaml"]},
    "snapshot": {"public": ["api", "results", "admission"], "private": [], "libraries": ["fmt"]},
    "framework": {"public": ["api", "results", "admission"], "private": ["snapshot"],
                  "libraries": []},
    "plugins": {"public": ["api", "results", "admission"], "private": ["snapshot", "framework"],
                "libraries": ["fmt"]},
    "queue": {"public": ["api", "results", "admission"], "private": ["snapshot", "framework"],
              "libraries": ["fmt"]},
    "preemption": {"public": ["api", "results", "admission"], "private": ["snapshot", "framework"],
                   "libraries": ["fmt"]},
    "scheduler": {"public": ["api", "results", "admission"],
                  "private": ["snapshot", "framework", "plugins", "preemption"],
                  "libraries": ["fmt"]},
    "book": {"public": ["api", "results", "admission"], "private": [], "libraries": ["fmt"]},
    # kubelet: the node-pressure eviction ranking, a pure function of api objects.
    "kubelet": {"public": ["api"], "private": [], "libraries": ["fmt"]},
    # report renders results: api, the result headers and what reading and admission returned
    # (kpsim/io.h, kpsim/admission.h as plain types); no engine, no reader internals.
    "report": {"public": ["api", "results", "admission", "io", "kubelet"], "private": [],
               "libraries": ["fmt", "nlohmann_json"]},
    "sim": {"public": ["api", "results", "admission", "kubelet"],
            "private": ["snapshot", "framework", "plugins", "preemption", "scheduler", "queue",
                        "book"],
            "libraries": ["fmt"]},
    # app: a run as a user asks for it (settings -> options -> run -> rendered output) and the
    # web server over it; what the command line and `kpsim serve` share.
    "app": {"public": ["api", "results", "admission", "io", "report", "sim", "kubelet"], "private": [],
            "libraries": ["fmt", "nlohmann_json", "httplib"]},
    "cli": {"public": ["api", "results", "admission", "io", "report", "sim", "kubelet"],
            "private": ["app"], "libraries": ["fmt", "CLI11"]},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_SUFFIXES = (".h", ".hpp", ".cc", ".cpp")


def classify(target, src_modules):
    """('public', module) | ('private', module) | ('library', name) | ('system', None)."""
    if target.startswith("kpsim/"):
        return ("public", PUBLIC_HEADERS.get(target))
    for name, pattern in LIBRARIES.items():
        if pattern.search(target):
            return ("library", name)
    head = target.split("/", 1)[0]
    if "/" in target and head in src_modules:
        return ("private", head)
    return ("system", None)


def check_include(module, target, src_modules):
    """The reason `module` may not include `target`, or None if it may."""
    rules = MODULES[module]
    kind, owner = classify(target, src_modules)
    if kind == "public":
        if owner is None:
            return "unknown public header (add it to PUBLIC_HEADERS in tools/check_deps.py)"
        if owner == module or owner in rules["public"]:
            return None
        return f"public header of module '{owner}', not in {module}'s table"
    if kind == "private":
        if owner == module or owner in rules["private"]:
            return None
        return f"private header of module '{owner}'"
    if kind == "library":
        if owner in rules["libraries"]:
            return None
        return f"library '{owner}' is not in {module}'s table"
    return None


def files_under(directory):
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(base, name)


def check(root):
    violations = []
    src = os.path.join(root, "src")
    src_modules = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))) \
        if os.path.isdir(src) else []
    scans = []  # (module, file, display path)
    for module in src_modules:
        if module not in MODULES:
            violations.append(f"src/{module}/: module not in the table of tools/check_deps.py")
            continue
        for path in files_under(os.path.join(src, module)):
            scans.append((module, path))
    include_dir = os.path.join(root, "include")
    for path in files_under(os.path.join(include_dir, "kpsim")):
        header = os.path.relpath(path, include_dir).replace(os.sep, "/")
        owner = PUBLIC_HEADERS.get(header)
        if owner is None:
            violations.append(f"include/{header}: public header not in PUBLIC_HEADERS")
            continue
        scans.append((owner, path))
    for module, path in scans:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                reason = check_include(module, match.group(2), src_modules)
                if reason:
                    violations.append(f"{rel}:{number}: {module} includes {match.group(2)}: {reason}")
    return violations


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.root, "src")):
        print(f"check_deps: no src/ under {args.root}", file=sys.stderr)
        return 2
    violations = check(args.root)
    for v in violations:
        print(v)
    if violations:
        print(f"check_deps: {len(violations)} include(s) cross the module table", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
