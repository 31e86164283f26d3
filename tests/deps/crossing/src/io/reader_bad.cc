// Fixture: the reader includes a renderer's header and the CLI library. Never compiled.
#include <CLI/CLI.hpp>
#include <yaml.h>

#include "io/manifest_tree.h"
#include "kpsim/report.h"
