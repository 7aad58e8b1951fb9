"""Tests of the teaching app: classes, assignments, the workspace, administration."""
