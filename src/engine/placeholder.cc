// Intentionally empty until the module has sources.
