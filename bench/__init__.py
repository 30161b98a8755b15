"""modelport's benchmark against raw httpx on a local mock Gemini server: ``python -m bench``.

Nothing is imported here, so ``python -m bench.probe`` measures imports in a clean interpreter.
"""
