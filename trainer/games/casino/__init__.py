"""Scarne's Casino, the second game: its rules engine (`engine`), plain Python.

The game's facets for the seam come later (issue #26); the engine imports nothing of the apps.
"""
