// Fixture: a public header reaching up the DAG. Never compiled.
#pragma once
#include "kpsim/api/types.h"
#include "kpsim/engine.h"
