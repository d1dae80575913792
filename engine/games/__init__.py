"""The games the engine plays, one module each, registered by slug."""
