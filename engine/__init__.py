"""The reference engine: plays a game from its data to check that the data makes a sound game."""
