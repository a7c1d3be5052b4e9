"""yukon-solver: exact solver and deal verifier for Yukon-family solitaire."""

__version__ = "0.1.0"
