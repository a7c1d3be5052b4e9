"""What every layer uses and that knows nothing of the game: statistics, signals, files
written whole, and the format names JSON documents carry."""
