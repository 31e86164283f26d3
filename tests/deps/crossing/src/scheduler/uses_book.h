// Fixture: the default profile's scheduler reaching into the book model. Never compiled.
#pragma once
#include "book/book.h"
#include "kpsim/admission.h"
