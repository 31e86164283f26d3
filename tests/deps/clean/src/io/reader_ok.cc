// Fixture: the reader with its own libraries. Never compiled.
#include <yaml.h>

#include "io/manifest_tree.h"
#include "kpsim/io.h"
#include "simdjson.h"
