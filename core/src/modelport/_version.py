"""The version of the ``modelport`` distribution, in a module of its own so that the modules
the package face loads can read it without importing the face."""

__version__ = "0.1.0"
