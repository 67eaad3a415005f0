"""The rules engine of Double Up (双升): pure Python, no Django.

Implements ../shared/RULES.md. See docs/engine.md. Public API is re-exported here.
"""
