"""Benchmark scripts: each prints its figures (see docs/benchmarks.md)."""
