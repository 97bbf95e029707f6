"""The layer story: the Playground's model, its words, presets, tie lab and code
(pure)."""
