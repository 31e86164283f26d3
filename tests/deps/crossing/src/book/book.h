// Fixture: the book module exists in this tree. Never compiled.
