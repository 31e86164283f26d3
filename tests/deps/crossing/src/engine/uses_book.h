// Fixture: the default profile reaching into the book model. Never compiled.
#pragma once
#include "book/book.h"
#include "kpsim/admission.h"
