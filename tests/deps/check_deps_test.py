#!/usr/bin/env python3
"""Proves tools/check_deps.py can fail: on tests/deps/crossing (includes that cross the module
table) it must exit 1 and name exactly the crossings below; on tests/deps/clean it must pass.

    tests/deps/check_deps_test.py [PATH/TO/check_deps.py]
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "tools", "check_deps.py")

EXPECTED_CROSSINGS = [
    "src/rooms/: module not in the table of tools/check_deps.py",
    "src/scheduler/uses_book.h:3: scheduler includes book/book.h: private header of module 'book'",
    "src/io/reader_bad.cc:2: io includes CLI/CLI.hpp: library 'CLI11' is not in io's table",
    "src/io/reader_bad.cc:6: io includes kpsim/report.h: public header of module 'report', not in io's table",
    "src/report/render_bad.cc:9: report includes scheduler/framework.h: private header of module 'scheduler'",
    "src/report/render_bad.cc:10: report includes io/manifest_tree.h: private header of module 'io'",
    "src/report/render_bad.cc:11: report includes kpsim/engine.h: public header of module 'sim', not in report's table",
    "include/kpsim/io.h:4: io includes kpsim/engine.h: public header of module 'sim', not in io's table",
]


def run(tree):
    done = subprocess.run([sys.executable, SCRIPT, "--root", os.path.join(HERE, tree)],
                          capture_output=True, text=True, check=False)
    return done.returncode, done.stdout.splitlines()


def main():
    failures = []
    code, lines = run("crossing")
    if code != 1:
        failures.append(f"crossing: exit {code}, want 1")
    if sorted(lines) != sorted(EXPECTED_CROSSINGS):
        missing = sorted(set(EXPECTED_CROSSINGS) - set(lines))
        extra = sorted(set(lines) - set(EXPECTED_CROSSINGS))
        failures.append(f"crossing: missing {missing}, unexpected {extra}")
    code, lines = run("clean")
    if code != 0 or lines:
        failures.append(f"clean: exit {code}, want 0; output {lines}")
    for f in failures:
        print("FAIL", f)
    if not failures:
        print(f"ok: {len(EXPECTED_CROSSINGS)} crossings caught, clean tree passes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
