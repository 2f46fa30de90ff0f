"""The scenes: one class per screen."""
