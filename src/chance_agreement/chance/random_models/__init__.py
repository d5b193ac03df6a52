"""The random annotation models (moved functions only, registry next)."""
