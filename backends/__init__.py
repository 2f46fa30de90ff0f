"""Drawing backends: the engine.ui.draw.Canvas interface for the browser and for pygame-ce."""
