"""The release, written once: ``yukon --version``, the package metadata (pyproject.toml) and
every record, store and catalogue file that names the solver version read it from here."""

__version__ = "0.2.0"
