"""printkit: one YAML description of a tabletop game, made into print-ready files, rules and checks."""

__version__ = "0.1.0"
