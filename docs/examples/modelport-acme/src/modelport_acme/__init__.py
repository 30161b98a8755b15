"""modelport-acme: a worked third-party provider plugin (see docs/plugin-authors.md)."""
