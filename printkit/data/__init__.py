"""Game data in: YAML read with its source positions, the typed model, validation, cross references, print settings."""
