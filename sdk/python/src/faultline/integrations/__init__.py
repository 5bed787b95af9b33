"""Integrations with the libraries Python agents already use; each needs its extra."""
