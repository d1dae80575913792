"""Engines that `printkit new --starter engine` copies into a new game's folder, to be changed there."""
