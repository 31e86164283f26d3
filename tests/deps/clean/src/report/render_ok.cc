// Fixture for tests/deps/check_deps_test.py: a renderer within its table. Never compiled.
#include "report/render_common.h"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kpsim/admission.h"
#include "kpsim/explain.h"
#include "kpsim/io.h"
#include "kpsim/results.h"
