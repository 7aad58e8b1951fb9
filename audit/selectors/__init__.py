"""Reads of the audit side: the pit's figures and dashboard, the review queue, evidence,
standing and certifications (pit), and what the compliance reports read."""
