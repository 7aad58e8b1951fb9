"""audit as it was at 58578e9 (see the package above)."""
