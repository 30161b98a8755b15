"""A tiny third-party provider plugin, as a plugin author would write it: the worked example."""
