"""Hooks into the ecosystem: evaluate module docs, flat results, the Trainer hook, sharding, Hub export."""

__all__: list[str] = []
