"""The house-rules pages under /house-rules/: administrators only (issue #24)."""
