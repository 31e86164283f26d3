// Fixture: a folder not in the module table. Never compiled.
#include "kpsim/api/types.h"
