"""Presentation written once for every backend: the drawing interface, input, scenes.

Imports the engine core and nothing platform-specific: never `js`, never `pygame`.
"""
