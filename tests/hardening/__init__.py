"""Issue 14, round two of hardening: one test module per item, each failing on the code before it."""
