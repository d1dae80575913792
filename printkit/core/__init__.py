"""What every stage stands on: errors, lengths, files written whole, the project and printkit's own files."""
