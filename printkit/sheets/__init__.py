"""Designs on paper: sheet geometry, cards, counters and boards on pages, the calibration page, the bundle."""
