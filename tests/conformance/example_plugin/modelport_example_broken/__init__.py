"""Deliberately broken variants of the Example provider: the suite must fail them readably."""
