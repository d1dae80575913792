"""Card images and data for other tools: PNG, Tabletop Simulator, print shops, spreadsheets, contact sheets."""
