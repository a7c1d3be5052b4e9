"""A player who cannot peek: the view a person has, policies that decide from it, hints,
whole games and difficulty ratings."""
