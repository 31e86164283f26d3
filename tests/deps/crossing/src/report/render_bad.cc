// Fixture for tests/deps/check_deps_test.py: a renderer that runs the engine and reads the reader's
// internals. Never compiled.
#include "report/render_common.h"

#include <string>

#include <nlohmann/json.hpp>

#include "scheduler/framework.h"
#include "io/manifest_tree.h"
#include "kpsim/engine.h"
#include "kpsim/results.h"
